import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createSession,
  deleteOtherSessions,
  deleteSession,
  findSessionUser,
  listActiveSessions,
  sessionLifetime,
} from "~/auth/sessions.server";
import { hashToken, newToken } from "~/auth/tokens.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { insertUser } from "../support/users";

const start = new Date("2025-03-01T12:00:00.000Z");
const second = 1000;
const minute = 60 * second;
const day = 24 * 60 * minute;
const at = (ms: number) => new Date(start.getTime() + ms);

describe.each(testDialects)("sessions on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let userId: number;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
    userId = await insertUser(db, { name: "Ada Lovelace", at: start });
  });

  afterEach(async () => {
    await handle.db.destroy();
    await database.drop();
  });

  const newSession = (now: Date, user = userId) => createSession(db, { userId: user, userAgent: "Vitest", ip: "192.0.2.1", now });

  const sessionRow = (token: string) =>
    db.selectFrom("sessions").selectAll().where("token_hash", "=", hashToken(token)).executeTakeFirst();

  it("finds the user of a fresh session's token", async () => {
    const token = await newSession(start);
    const user = await findSessionUser(db, token, at(5 * second));
    expect(user).toEqual({
      sessionId: expect.any(Number),
      id: userId,
      email: "ada@example.com",
      name: "Ada Lovelace",
      handle: "ada",
      isInstanceAdmin: false,
      lastWorkspaceId: null,
      timeZone: null,
    });
    const row = await sessionRow(token);
    expect(row).toMatchObject({
      id: user!.sessionId,
      user_id: userId,
      user_agent: "Vitest",
      ip: "192.0.2.1",
      created_at: start.toISOString(),
      last_seen_at: start.toISOString(),
      expires_at: at(sessionLifetime.absoluteMs).toISOString(),
    });
  });

  it("returns null for an unknown token", async () => {
    await newSession(start);
    expect(await findSessionUser(db, newToken(), at(second))).toBeNull();
    expect(await findSessionUser(db, "", at(second))).toBeNull();
  });

  it("stores a hash of the token, never the token itself", async () => {
    const token = await newSession(start);
    const rows = await db.selectFrom("sessions").select("token_hash").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toBe(token);
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(rows[0]!.token_hash).toBe(hashToken(token));
    // A token is 256 random bits; two sessions never share one.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await newSession(start)).not.toBe(token);
  });

  it("writes last_seen_at only when more than 60 seconds have passed", async () => {
    const token = await newSession(start);
    await findSessionUser(db, token, at(30 * second));
    expect((await sessionRow(token))!.last_seen_at).toBe(start.toISOString());
    await findSessionUser(db, token, at(60 * second));
    expect((await sessionRow(token))!.last_seen_at).toBe(start.toISOString());
    await findSessionUser(db, token, at(61 * second));
    expect((await sessionRow(token))!.last_seen_at).toBe(at(61 * second).toISOString());
  });

  it("ends a session 30 days after it began even when it is used regularly", async () => {
    const token = await newSession(start);
    // Used every 5 days: never idle for long, and each use moves last_seen_at.
    for (let d = 5; d < 30; d += 5) {
      expect(await findSessionUser(db, token, at(d * day))).not.toBeNull();
      expect((await sessionRow(token))!.last_seen_at).toBe(at(d * day).toISOString());
    }
    expect(await findSessionUser(db, token, at(30 * day - minute))).not.toBeNull();
    expect(await findSessionUser(db, token, at(30 * day + minute))).toBeNull();
    // Once expired it stays so, even if asked about an earlier moment: the row is gone.
    expect(await findSessionUser(db, token, at(30 * day - 2 * minute))).toBeNull();
  });

  it("ends a session after 14 days without use", async () => {
    const active = await newSession(start);
    const idle = await newSession(start);
    expect(await findSessionUser(db, active, at(14 * day - minute))).not.toBeNull();
    expect(await findSessionUser(db, idle, at(14 * day + second))).toBeNull();
    // The one used just before the idle limit lives on for another 14 days from that use.
    expect(await findSessionUser(db, active, at(28 * day - 2 * minute))).not.toBeNull();
  });

  it("deletes the row of a session found expired", async () => {
    const idle = await newSession(start);
    const old = await newSession(start);
    await findSessionUser(db, old, at(10 * day));
    await findSessionUser(db, old, at(20 * day));
    expect(await db.selectFrom("sessions").select("id").execute()).toHaveLength(2);

    expect(await findSessionUser(db, idle, at(14 * day + second))).toBeNull();
    expect(await sessionRow(idle)).toBeUndefined();
    expect(await findSessionUser(db, old, at(30 * day + second))).toBeNull();
    expect(await sessionRow(old)).toBeUndefined();
    expect(await db.selectFrom("sessions").select("id").execute()).toHaveLength(0);
  });

  it("deleteSession signs one session out", async () => {
    const token = await newSession(start);
    const other = await newSession(start);
    const user = await findSessionUser(db, token, start);
    await deleteSession(db, user!.sessionId);
    expect(await findSessionUser(db, token, at(second))).toBeNull();
    expect(await findSessionUser(db, other, at(second))).not.toBeNull();
  });

  it("deleteOtherSessions keeps the current session and the other users' sessions", async () => {
    const otherUserId = await insertUser(db, { name: "Grace Hopper", at: start });
    const current = await newSession(start);
    const laptop = await newSession(start);
    const phone = await newSession(start);
    const grace = await newSession(start, otherUserId);
    const { sessionId } = (await findSessionUser(db, current, start))!;

    expect(await deleteOtherSessions(db, userId, sessionId)).toBe(2);

    expect(await findSessionUser(db, current, at(second))).toMatchObject({ sessionId, id: userId });
    expect(await findSessionUser(db, laptop, at(second))).toBeNull();
    expect(await findSessionUser(db, phone, at(second))).toBeNull();
    expect(await findSessionUser(db, grace, at(second))).toMatchObject({ id: otherUserId });
    expect(await deleteOtherSessions(db, userId, sessionId)).toBe(0);
  });

  it("listActiveSessions lists the user's live sessions, most recently seen first, without expired ones", async () => {
    const otherUserId = await insertUser(db, { name: "Grace Hopper", at: start });
    const idOf = async (token: string, now: Date) => (await findSessionUser(db, token, now))!.sessionId;

    // Past the absolute limit at day 31, though seen 11 days before.
    const tooOld = await newSession(at(0));
    expect(await findSessionUser(db, tooOld, at(10 * day))).not.toBeNull();
    expect(await findSessionUser(db, tooOld, at(20 * day))).not.toBeNull();
    // Idle since day 15: 16 days by day 31.
    const idle = await newSession(at(15 * day));
    const recent = await idOf(await newSession(at(29 * day)), at(29 * day));
    const newest = await idOf(await newSession(at(30 * day)), at(30 * day));
    await newSession(at(30 * day), otherUserId);

    const now = at(31 * day);
    const sessions = await listActiveSessions(db, userId, now);
    expect(sessions.map((s) => s.id)).toEqual([newest, recent]);
    expect(sessions[0]).toEqual({
      id: newest,
      created_at: at(30 * day).toISOString(),
      last_seen_at: at(30 * day).toISOString(),
      user_agent: "Vitest",
      ip: "192.0.2.1",
    });
    // Listing does not delete: the expired rows are still there until they are used.
    expect(await sessionRow(tooOld)).toBeDefined();
    expect(await sessionRow(idle)).toBeDefined();
    expect(await listActiveSessions(db, otherUserId, now)).toHaveLength(1);
  });
});
