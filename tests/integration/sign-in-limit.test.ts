import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  clearAccountFailures,
  recordSignInFailure,
  signInLimit,
  signInRetryAfter,
  tooManyAttemptsMessage,
} from "~/auth/sign-in-limit.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";

const start = new Date("2025-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(start.getTime() + ms);
const second = 1000;
const minute = 60 * second;
const windowSeconds = signInLimit.windowMs / second;

/** `count` failures for `who`, one a second from `from` unless `stepMs` says otherwise. */
async function fail(db: Database, who: { email: string; ip: string | null }, count: number, from = 0, stepMs = second) {
  for (let i = 0; i < count; i++) await recordSignInFailure(db, who, at(from + i * stepMs));
}

describe.each(testDialects)("sign-in limit on %s", (dialect) => {
  let database: TestDatabase;
  let db: Database;
  const handles: DatabaseHandle[] = [];
  const open = () => {
    const handle = database.open();
    handles.push(handle);
    return handle;
  };

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    const handle = open();
    await migrateToLatest(handle);
    db = handle.db;
  });

  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.db.destroy()));
    await database.drop();
  });

  it("allows 9 failures and blocks at the 10th until the oldest leaves the window", async () => {
    const who = { email: "ada@example.com", ip: "192.0.2.1" };
    expect(await signInRetryAfter(db, who, at(0))).toBeNull();
    await fail(db, who, 9);
    expect(await signInRetryAfter(db, who, at(9 * second))).toBeNull();

    await recordSignInFailure(db, who, at(9 * second));
    expect(await signInRetryAfter(db, who, at(10 * second))).toBe(windowSeconds - 10);
    expect(tooManyAttemptsMessage(890)).toBe("Too many attempts. Try again in 890 seconds.");
  });

  it("slides the window, rounding the wait up to whole seconds", async () => {
    const who = { email: "ada@example.com", ip: "192.0.2.1" };
    await fail(db, who, 10, 0, minute);
    expect(await signInRetryAfter(db, who, at(10 * minute))).toBe(5 * 60);
    expect(await signInRetryAfter(db, who, at(15 * minute - 1))).toBe(1);
    // The first failure has left the window: 9 remain.
    expect(await signInRetryAfter(db, who, at(15 * minute))).toBeNull();

    // Another failure blocks again, until the (new) oldest one leaves.
    await recordSignInFailure(db, who, at(15 * minute));
    expect(await signInRetryAfter(db, who, at(15 * minute))).toBe(60);
    // Failures that left the window were deleted, not kept for ever.
    const rows = await db
      .selectFrom("sign_in_failures")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("key", "=", "account:ada@example.com")
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(10);
  });

  it("blocks an account whatever the IP", async () => {
    for (let i = 0; i < 10; i++) {
      await recordSignInFailure(db, { email: "ada@example.com", ip: `198.51.100.${i}` }, at(i * second));
    }
    expect(await signInRetryAfter(db, { email: "ada@example.com", ip: "203.0.113.99" }, at(10 * second))).toBe(
      windowSeconds - 10,
    );
    expect(await signInRetryAfter(db, { email: "ada@example.com", ip: null }, at(10 * second))).toBe(windowSeconds - 10);
    // Those IPs each failed once: another account is free to sign in from them.
    expect(await signInRetryAfter(db, { email: "bob@example.com", ip: "198.51.100.0" }, at(10 * second))).toBeNull();
  });

  it("blocks an IP whatever the account", async () => {
    for (let i = 0; i < 10; i++) {
      await recordSignInFailure(db, { email: `user${i}@example.com`, ip: "203.0.113.7" }, at(i * second));
    }
    expect(await signInRetryAfter(db, { email: "new@example.com", ip: "203.0.113.7" }, at(10 * second))).toBe(
      windowSeconds - 10,
    );
    expect(await signInRetryAfter(db, { email: "user0@example.com", ip: "203.0.113.8" }, at(10 * second))).toBeNull();
    expect(await signInRetryAfter(db, { email: "user0@example.com", ip: null }, at(10 * second))).toBeNull();
  });

  it("waits for the later of the two when both the account and the IP are blocked", async () => {
    await fail(db, { email: "ada@example.com", ip: null }, 10, 0);
    await fail(db, { email: "bob@example.com", ip: "203.0.113.7" }, 10, 5 * minute);
    const now = at(6 * minute);
    expect(await signInRetryAfter(db, { email: "ada@example.com", ip: null }, now)).toBe(windowSeconds - 6 * 60);
    expect(await signInRetryAfter(db, { email: "ada@example.com", ip: "203.0.113.7" }, now)).toBe(windowSeconds - 60);
  });

  it("treats the email case-insensitively", async () => {
    await fail(db, { email: "Ada@Example.COM", ip: null }, 10);
    expect(await signInRetryAfter(db, { email: "ada@example.com", ip: null }, at(10 * second))).toBe(windowSeconds - 10);
    expect(await signInRetryAfter(db, { email: "ADA@EXAMPLE.COM", ip: "192.0.2.5" }, at(10 * second))).toBe(
      windowSeconds - 10,
    );
  });

  it("forgets the account's failures after a sign-in, but not the IP's", async () => {
    await fail(db, { email: "ada@example.com", ip: "192.0.2.1" }, 10);
    await clearAccountFailures(db, "ADA@example.com");
    const now = at(10 * second);
    expect(await signInRetryAfter(db, { email: "ada@example.com", ip: "192.0.2.2" }, now)).toBeNull();
    expect(await signInRetryAfter(db, { email: "ada@example.com", ip: "192.0.2.1" }, now)).toBe(windowSeconds - 10);
    expect(await signInRetryAfter(db, { email: "bob@example.com", ip: "192.0.2.1" }, now)).toBe(windowSeconds - 10);
  });

  it("shares the counts between instances on one database", async () => {
    const other = open().db;
    const who = { email: "ada@example.com", ip: "192.0.2.1" };
    await fail(db, who, 5);
    await fail(other, who, 4, 5 * second);
    expect(await signInRetryAfter(db, who, at(9 * second))).toBeNull();
    expect(await signInRetryAfter(other, who, at(9 * second))).toBeNull();

    await recordSignInFailure(other, who, at(9 * second));
    expect(await signInRetryAfter(db, who, at(10 * second))).toBe(windowSeconds - 10);
    expect(await signInRetryAfter(other, who, at(10 * second))).toBe(windowSeconds - 10);
  });
});
