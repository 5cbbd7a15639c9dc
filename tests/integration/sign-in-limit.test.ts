import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signUp, signUpLimit } from "~/auth/accounts.server";
import { hashPassword } from "~/auth/password.server";
import { checkSignIn } from "~/auth/sign-in.server";
import {
  signInLimit,
  signInSucceeded,
  type SignInAttempt,
  takeSignInAttempt,
  withdrawSignInAttempt,
} from "~/auth/sign-in-limit.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { purgeExpiredHits, takeSlot, tooManyAttemptsMessage } from "~/security/sliding-window.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { insertUser } from "../support/users";

const start = new Date("2025-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(start.getTime() + ms);
const second = 1000;
const minute = 60 * second;
const windowSeconds = signInLimit.windowMs / second;

type Who = { email: string; ip: string | null };

describe.each(testDialects)("sign-in and sign-up limits on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  const handles: DatabaseHandle[] = [];
  const open = () => {
    const opened = database.open();
    handles.push(opened);
    return opened;
  };

  /** An attempt that must be counted. */
  async function attempt(who: Who, now: Date, on = handle): Promise<SignInAttempt> {
    const taken = await takeSignInAttempt(on, who, now);
    if (!("attempt" in taken)) throw new Error(`refused: ${JSON.stringify(taken)}`);
    return taken.attempt;
  }

  /** `count` counted attempts (wrong passwords: they stay), one a second from `from` unless `stepMs` says otherwise. */
  async function fail(who: Who, count: number, from = 0, stepMs = second) {
    for (let i = 0; i < count; i++) await attempt(who, at(from + i * stepMs));
  }

  const retryAfter = async (who: Who, now: Date) => {
    const taken = await takeSignInAttempt(handle, who, now);
    if ("retryAfter" in taken) return taken.retryAfter;
    // Not refused: give the probe back, it was no attempt.
    await withdrawSignInAttempt(db, taken.attempt);
    return null;
  };

  const hitCount = async (key: string) =>
    Number(
      (
        await db
          .selectFrom("rate_limit_hits")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("key", "=", key)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    handle = open();
    await migrateToLatest(handle);
    db = handle.db;
  });

  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.db.destroy()));
    await database.drop();
  });

  it("counts 10 attempts and refuses the 11th until the oldest leaves the window", async () => {
    const who = { email: "ada@example.com", ip: "192.0.2.1" };
    await fail(who, 9);
    expect(await retryAfter(who, at(9 * second))).toBeNull();
    await attempt(who, at(9 * second));
    expect(await retryAfter(who, at(10 * second))).toBe(windowSeconds - 10);
    expect(tooManyAttemptsMessage(890)).toBe("Too many attempts. Try again in 890 seconds.");
  });

  it("slides the window, rounding the wait up to whole seconds; a refusal does not count", async () => {
    const who = { email: "ada@example.com", ip: "192.0.2.1" };
    await fail(who, 10, 0, minute);
    expect(await retryAfter(who, at(10 * minute))).toBe(5 * 60);
    expect(await retryAfter(who, at(15 * minute - 1))).toBe(1);
    // The first attempt has left the window: 9 remain, and the refusals above did not count.
    await attempt(who, at(15 * minute));
    expect(await retryAfter(who, at(15 * minute))).toBe(60);
    // Attempts that left the window were deleted, not kept for ever.
    expect(await hitCount("sign-in:account:ada@example.com")).toBe(10);
  });

  it("blocks an account whatever the IP, and an IP whatever the account", async () => {
    for (let i = 0; i < 10; i++) await attempt({ email: "ada@example.com", ip: `198.51.100.${i}` }, at(i * second));
    expect(await retryAfter({ email: "ada@example.com", ip: "203.0.113.99" }, at(10 * second))).toBe(windowSeconds - 10);
    expect(await retryAfter({ email: "ada@example.com", ip: null }, at(10 * second))).toBe(windowSeconds - 10);
    // Those IPs each tried once: another account is free to sign in from them.
    expect(await retryAfter({ email: "bob@example.com", ip: "198.51.100.0" }, at(10 * second))).toBeNull();

    for (let i = 0; i < 10; i++) await attempt({ email: `user${i}@example.com`, ip: "203.0.113.7" }, at(i * second));
    expect(await retryAfter({ email: "new@example.com", ip: "203.0.113.7" }, at(10 * second))).toBe(windowSeconds - 10);
    expect(await retryAfter({ email: "user0@example.com", ip: "203.0.113.8" }, at(10 * second))).toBeNull();
  });

  it("waits for the later of the two when both the account and the IP are blocked", async () => {
    await fail({ email: "ada@example.com", ip: null }, 10, 0);
    await fail({ email: "bob@example.com", ip: "203.0.113.7" }, 10, 5 * minute);
    const now = at(6 * minute);
    expect(await retryAfter({ email: "ada@example.com", ip: null }, now)).toBe(windowSeconds - 6 * 60);
    expect(await retryAfter({ email: "ada@example.com", ip: "203.0.113.7" }, now)).toBe(windowSeconds - 60);
  });

  it("treats the email case-insensitively", async () => {
    await fail({ email: "Ada@Example.COM", ip: null }, 10);
    expect(await retryAfter({ email: "ADA@EXAMPLE.COM", ip: "192.0.2.5" }, at(10 * second))).toBe(windowSeconds - 10);
  });

  it("a success forgets the account's failures and stops counting itself; the IP's other failures stay", async () => {
    const who = { email: "ada@example.com", ip: "192.0.2.1" };
    await fail(who, 9);
    await signInSucceeded(db, await attempt(who, at(9 * second)));
    expect(await hitCount("sign-in:account:ada@example.com")).toBe(0);
    expect(await hitCount("sign-in:ip:192.0.2.1")).toBe(9);
    expect(await retryAfter({ email: "ada@example.com", ip: "192.0.2.2" }, at(10 * second))).toBeNull();
    await attempt({ email: "bob@example.com", ip: "192.0.2.1" }, at(10 * second));
    expect(await retryAfter({ email: "carol@example.com", ip: "192.0.2.1" }, at(11 * second))).toBe(windowSeconds - 11);
  });

  it("a withdrawn attempt (its password never checked) does not count", async () => {
    const who = { email: "ada@example.com", ip: "192.0.2.1" };
    await fail(who, 9);
    await withdrawSignInAttempt(db, await attempt(who, at(9 * second)));
    expect(await hitCount("sign-in:account:ada@example.com")).toBe(9);
    expect(await hitCount("sign-in:ip:192.0.2.1")).toBe(9);
  });

  it("lets exactly 10 of 40 parallel attempts through (on PostgreSQL, from two connection pools at once)", async () => {
    // better-sqlite3 waits for a lock synchronously, so two handles in one process would wait on each
    // other; two SQLite processes are checked over HTTP (two-instances.test.ts).
    const other = dialect === "postgres" ? open() : handle;
    const who = { email: "ada@example.com", ip: null };
    const now = at(0);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => takeSignInAttempt(i % 2 ? other : handle, who, now)));
    expect(results.filter((result) => "attempt" in result)).toHaveLength(10);
    expect(results.filter((result) => "retryAfter" in result && result.retryAfter === windowSeconds)).toHaveLength(30);
    expect(await hitCount("sign-in:account:ada@example.com")).toBe(10);
  });

  it("checks a password only within the limit: the right one after 10 wrong is refused, a right one clears the account", async () => {
    await insertUser(db, { name: "Ada", passwordHash: await hashPassword("correct horse battery"), at: start });
    const credentials = (password: string, ip: string, now: Date) => ({ email: "ada@example.com", password, ip, now });
    expect(await checkSignIn(handle, credentials("correct horse battery", "192.0.2.1", at(0)))).toEqual({ userId: expect.any(Number) });
    for (let i = 0; i < 9; i++) expect(await checkSignIn(handle, credentials(`wrong ${i}`, `192.0.2.${10 + i}`, at(i * second)))).toEqual({ incorrect: true });
    expect(await checkSignIn(handle, credentials("correct horse battery", "192.0.2.30", at(9 * second)))).toHaveProperty("userId");
    expect(await hitCount("sign-in:account:ada@example.com")).toBe(0);
    for (let i = 0; i < 10; i++) await checkSignIn(handle, credentials(`wrong again ${i}`, `192.0.2.${40 + i}`, at(10 * second)));
    expect(await checkSignIn(handle, credentials("correct horse battery", "192.0.2.60", at(11 * second)))).toEqual({ retryAfter: windowSeconds - 1 });
  });

  it(`limits sign-ups to ${signUpLimit.uses} per ${signUpLimit.windowMs / minute} minutes per client address`, async () => {
    const windowSeconds = signUpLimit.windowMs / second;
    // Counted before hashing: a limit of 20 would cost 20 scrypts here, so the limit is taken directly.
    for (let i = 0; i < signUpLimit.uses; i++) {
      expect(await takeSlot(handle, ["sign-up:192.0.2.1"], signUpLimit, at(i * second))).toMatchObject({ taken: true });
    }
    const account = (email: string, ip: string, now: Date) => ({ name: "Someone", email, password: "correct horse battery", ip, now });
    expect(await signUp(handle, account("late@example.com", "192.0.2.1", at(30 * second)))).toEqual({ retryAfter: windowSeconds - 30 });
    expect(await db.selectFrom("users").select("id").execute()).toEqual([]);
    // Another address signs up; the first may again once its oldest sign-up has left the window.
    expect(await signUp(handle, account("other@example.com", "192.0.2.2", at(30 * second)))).toHaveProperty("userId");
    expect(await signUp(handle, account("late@example.com", "192.0.2.1", at(signUpLimit.windowMs)))).toHaveProperty("userId");
    // A taken email still counts: the password was hashed.
    expect(await signUp(handle, account("late@example.com", "192.0.2.3", at(0)))).toMatchObject({ field: "email" });
    expect(await hitCount("sign-up:192.0.2.3")).toBe(1);
  });

  it("purges expired hits of every key", async () => {
    await fail({ email: "ada@example.com", ip: "192.0.2.1" }, 3);
    await takeSlot(handle, ["beacon:192.0.2.1"], { uses: 60, windowMs: minute }, at(0));
    await purgeExpiredHits(db, at(2 * minute));
    expect(await hitCount("beacon:192.0.2.1")).toBe(0);
    expect(await hitCount("sign-in:account:ada@example.com")).toBe(3);
  });
});
