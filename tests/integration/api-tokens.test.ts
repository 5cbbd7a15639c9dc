/**
 * Personal access tokens (issue 15) on every database: their form, what is stored, revoking and
 * expiry, and /settings/tokens over HTTP (shown once, only one's own revoked).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiTokenPrefix, authenticateApiToken, createApiToken, listApiTokens, maxApiTokensPerUser, revokeApiToken } from "~/auth/api-tokens.server";
import { hashToken } from "~/auth/tokens.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { withMigratedDatabase } from "../support/migrated-database";
import { type RunningServer, startServer } from "../support/server";
import { insertUser } from "../support/users";

const t0 = new Date(Date.UTC(2026, 10, 24, 9, 0));
const later = (ms: number) => new Date(t0.getTime() + ms);
const day = 86_400_000;

describe.each(testDialects)("API tokens on %s", (dialect) => {
  let db: Database;
  let ada: number;
  let grace: number;

  withMigratedDatabase(dialect, (opened) => ({ db } = opened));

  beforeEach(async () => {
    await db.deleteFrom("api_tokens").execute();
    await db.deleteFrom("users").execute();
    ada = await insertUser(db, { name: "Ada", at: t0 });
    grace = await insertUser(db, { name: "Grace", at: t0 });
  });

  const make = async (userId = ada, options: { scope?: "read" | "write"; expiresInDays?: number | null; name?: string } = {}) => {
    const created = await createApiToken(db, { userId, name: options.name ?? "CI", scope: options.scope ?? "read", expiresInDays: options.expiresInDays ?? null, now: t0 });
    if (!created.ok) throw new Error(created.message);
    return created;
  };

  it("makes cairn_pat_ and 40 base62 characters, keeps only its hash, and lists it without it", async () => {
    const { id, token } = await make(ada, { scope: "write", expiresInDays: 30 });
    expect(token).toMatch(new RegExp(`^${apiTokenPrefix}[0-9A-Za-z]{40}$`));
    expect((await make()).token).not.toBe(token);
    const row = await db.selectFrom("api_tokens").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: ada, name: "CI", scope: "write", token_hash: hashToken(token), expires_at: later(30 * day).toISOString(), last_used_at: null, revoked_at: null });
    expect(JSON.stringify(await listApiTokens(db, ada))).not.toContain(token);
    expect((await listApiTokens(db, ada)).map((t) => t.id)).toContain(id);
    expect(await listApiTokens(db, grace)).toEqual([]);
  });

  const authenticate = (raw: string, now: Date) => authenticateApiToken(db, raw, { now, perMinute: 600 });

  it("authenticates as its user and scope, records the last use to the minute, and refuses malformed, unknown, revoked and expired tokens", async () => {
    const { id, token } = await make(ada, { scope: "write", expiresInDays: 30 });
    expect((await authenticate(token, later(1000)))?.caller).toMatchObject({ tokenId: id, scope: "write", user: { id: ada } });
    const lastUse = async () => (await db.selectFrom("api_tokens").select("last_used_at").where("id", "=", id).executeTakeFirstOrThrow()).last_used_at;
    expect(await lastUse()).toBe(later(1000).toISOString());
    await authenticate(token, later(30_000));
    expect(await lastUse()).toBe(later(1000).toISOString());
    await authenticate(token, later(61_000));
    expect(await lastUse()).toBe(later(61_000).toISOString());

    for (const bad of ["", "Bearer", token.slice(0, -1), `${token}x`, token.replace(apiTokenPrefix, "cairn_xyz_"), `${apiTokenPrefix}${"a".repeat(40)}`]) {
      expect(await authenticate(bad, later(2000)), bad).toBeUndefined();
    }
    expect(await authenticate(token, later(30 * day))).toBeUndefined();
    const forever = await make(ada);
    expect((await authenticate(forever.token, later(3650 * day)))?.caller).toMatchObject({ user: { id: ada }, scope: "read" });
    expect(await revokeApiToken(db, { userId: grace, tokenId: forever.id, now: t0 })).toBe(false);
    expect(await revokeApiToken(db, { userId: ada, tokenId: forever.id, now: t0 })).toBe(true);
    expect(await revokeApiToken(db, { userId: ada, tokenId: forever.id, now: t0 })).toBe(false);
    expect(await authenticate(forever.token, later(1000))).toBeUndefined();
    expect((await listApiTokens(db, ada)).map((t) => t.id)).toEqual([id]);
  });

  it("counts each token's requests in the clock's minutes: over the limit is exceeded until the next minute", async () => {
    const { token } = await make(ada);
    const other = await make(ada);
    const minute = new Date(Math.ceil(t0.getTime() / 60_000) * 60_000 + 60_000);
    const at = (ms: number) => new Date(minute.getTime() + ms);
    const rates = [];
    for (let i = 0; i < 4; i++) rates.push((await authenticateApiToken(db, token, { now: at(i * 1000), perMinute: 3 }))!.rate);
    expect(rates.map((r) => [r.remaining, r.exceeded])).toEqual([[2, false], [1, false], [0, false], [0, true]]);
    expect(rates[3]!.resetSeconds).toBe(57);
    // Another token has its own count; the next minute starts afresh.
    expect((await authenticateApiToken(db, other.token, { now: at(5000), perMinute: 3 }))!.rate).toMatchObject({ remaining: 2, exceeded: false });
    expect((await authenticateApiToken(db, token, { now: at(60_000), perMinute: 3 }))!.rate).toMatchObject({ limit: 3, remaining: 2, exceeded: false, resetSeconds: 60 });
  });

  it("never lets a request of an earlier minute, counted late, reset a newer minute's count", async () => {
    const { token } = await make(ada);
    const minute = new Date(Math.ceil(t0.getTime() / 60_000) * 60_000 + 60_000);
    const at = (ms: number) => new Date(minute.getTime() + ms);
    const rate = async (now: Date) => (await authenticateApiToken(db, token, { now, perMinute: 3 }))!.rate;
    expect(await rate(at(100))).toMatchObject({ remaining: 2, exceeded: false });
    // Read its clock a moment before the minute turned, and reached the database after the request above.
    expect(await rate(at(-100))).toMatchObject({ remaining: 1, exceeded: false, resetSeconds: 61 });
    expect(await rate(at(200))).toMatchObject({ remaining: 0, exceeded: false });
    expect(await rate(at(300))).toMatchObject({ remaining: 0, exceeded: true });
    expect(await rate(at(60_000))).toMatchObject({ remaining: 2, exceeded: false });
  });

  it(`holds at most ${maxApiTokensPerUser} tokens a person; a revoked one makes room`, async () => {
    const ids: number[] = [];
    for (let i = 0; i < maxApiTokensPerUser; i++) ids.push((await make(ada, { name: `token ${i}` })).id);
    expect(await createApiToken(db, { userId: ada, name: "one more", scope: "read", expiresInDays: null, now: t0 })).toMatchObject({ ok: false, field: "name" });
    expect((await make(grace)).token).toMatch(/^cairn_pat_/);
    await revokeApiToken(db, { userId: ada, tokenId: ids[0]!, now: t0 });
    expect((await make(ada, { name: "one more" })).token).toMatch(/^cairn_pat_/);
  });
});

describe.each(testDialects)("/settings/tokens over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let handle: DatabaseHandle;
  const password = "correct horse battery";
  const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer({ ...database.env });
    handle = database.open();
  });

  afterAll(async () => {
    await server?.stop();
    await handle?.db.destroy();
    await database?.drop();
  });

  it("shows a new token once, lists it, revokes only one's own, and refuses odd input", async () => {
    const ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password })).status).toBe(302);
    expect(await text(await ada.get("/settings/tokens"))).toContain("No tokens yet.");

    const made = await ada.post("/settings/tokens", { intent: "create", name: "CI", scope: "write", expiresInDays: "90" });
    expect(made.status).toBe(200);
    const page = await text(made);
    const token = /value="(cairn_pat_[0-9A-Za-z]{40})"/.exec(page)?.[1];
    expect(token).toBeDefined();
    expect(page).toContain("Copy it now: it is not shown again.");
    const listed = await text(await ada.get("/settings/tokens"));
    expect(listed).toContain("CI");
    expect(listed).not.toContain(token!);
    expect(listed).toContain("never used");

    const oddForms: Record<string, string>[] = [
      { intent: "create", name: "", scope: "read", expiresInDays: "" },
      { intent: "create", name: "X", scope: "admin", expiresInDays: "" },
      { intent: "create", name: "X", scope: "read", expiresInDays: "7" },
      { intent: "revoke", tokenId: "abc" },
      { intent: "delete" },
    ];
    for (const odd of oddForms) {
      expect((await ada.post("/settings/tokens", odd)).status, JSON.stringify(odd)).toBe(400);
    }

    const { id } = await handle.db.selectFrom("api_tokens").select("id").executeTakeFirstOrThrow();
    const grace = new BrowserlessClient(server.url);
    expect((await grace.post("/signup", { name: "Grace", email: "grace@example.com", password })).status).toBe(302);
    expect((await grace.post("/settings/tokens", { intent: "revoke", tokenId: String(id) })).status).toBe(404);
    const revoked = await ada.post("/settings/tokens", { intent: "revoke", tokenId: String(id) });
    expect(revoked.status).toBe(302);
    expect(await text(await ada.get("/settings/tokens"))).toContain("No tokens yet.");
    expect((await new BrowserlessClient(server.url).get("/settings/tokens")).status).toBe(302);
  });

  it("revokes every token on a password change only when asked to, and says so", async () => {
    const margaret = new BrowserlessClient(server.url);
    expect((await margaret.post("/signup", { name: "Margaret", email: "margaret@example.com", password })).status).toBe(302);
    expect(await text(await margaret.get("/settings/password"))).not.toContain("Also revoke");
    const tokens: string[] = [];
    for (const name of ["CI", "Chat bot"]) {
      const page = await text(await margaret.post("/settings/tokens", { intent: "create", name, scope: "read", expiresInDays: "" }));
      tokens.push(/value="(cairn_pat_[0-9A-Za-z]{40})"/.exec(page)![1]!);
    }
    const apiStatus = async (token: string) => (await fetch(`${server.url}/api/v1/user`, { headers: { Authorization: `Bearer ${token}` } })).status;
    expect(await text(await margaret.get("/settings/password"))).toContain("Also revoke your 2 API tokens");

    const kept = await margaret.post("/settings/password", { currentPassword: password, newPassword: "a second good password" });
    expect(kept.status).toBe(302);
    expect(await text(await margaret.get("/settings/password"))).toContain("Password changed. Your other sessions were signed out.");
    for (const token of tokens) expect(await apiStatus(token)).toBe(200);

    const revoked = await margaret.post("/settings/password", { currentPassword: "a second good password", newPassword: "a third good password", revokeApiTokens: "on" });
    expect(revoked.status).toBe(302);
    const after = await text(await margaret.get("/settings/password"));
    expect(after).toContain("Password changed. Your other sessions were signed out and your 2 API tokens revoked.");
    expect(after).not.toContain("Also revoke");
    for (const token of tokens) expect(await apiStatus(token)).toBe(401);
    expect(await text(await margaret.get("/settings/tokens"))).toContain("No tokens yet.");
  });

  it("lists each token's expiry as the date to come, never as a moment past", async () => {
    const linus = new BrowserlessClient(server.url);
    expect((await linus.post("/signup", { name: "Linus", email: "linus@example.com", password })).status).toBe(302);
    for (const days of ["30", "90", "365"]) {
      expect((await linus.post("/settings/tokens", { intent: "create", name: `For ${days} days`, scope: "read", expiresInDays: days })).status).toBe(200);
    }
    const page = await text(await linus.get("/settings/tokens"));
    // A new account's time zone is UTC until a browser with JavaScript says otherwise.
    const thisYear = new Date().getUTCFullYear();
    const dateOf = (at: Date) =>
      at.toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC", ...(at.getUTCFullYear() === thisYear ? {} : { year: "numeric" }) });
    const expiries = [...page.matchAll(/expires <time dateTime="([^"]+)"[^>]*>([^<]+)<\/time>/gi)].map(([, at, shown]) => ({ shown, expected: dateOf(new Date(at!)) }));
    expect(expiries).toHaveLength(3);
    for (const { shown, expected } of expiries) expect(shown).toBe(expected);
    expect(page).not.toMatch(/expires <time[^>]*>just now/);
  });
});
