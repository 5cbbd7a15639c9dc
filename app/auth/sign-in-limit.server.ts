import type { Database } from "~/db/database.server";
import { secondsUntilOutOfWindow, windowStart } from "~/security/sliding-window";

/** SPEC: 10 failed sign-ins per 15 minutes, per account and per IP, then 429. */
export const signInLimit = { failures: 10, windowMs: 15 * 60 * 1000 } as const;

type Who = { email: string; ip: string | null };

const accountKey = (email: string) => `account:${email.toLowerCase()}`;

function keysFor(who: Who): string[] {
  return who.ip === null ? [accountKey(who.email)] : [accountKey(who.email), `ip:${who.ip}`];
}

/**
 * Seconds until a blocked account or IP may try again, or null when neither is blocked. The counts
 * live in the database so that every instance sees the same ones.
 */
export async function signInRetryAfter(db: Database, who: Who, now: Date): Promise<number | null> {
  const since = windowStart(now, signInLimit.windowMs);
  const waits = await Promise.all(
    keysFor(who).map(async (key) => {
      // The 10th most recent failure in the window: the key stays blocked until it leaves the window.
      // With exactly 10 failures that is the oldest; with more (concurrent attempts) a later one.
      const row = await db
        .selectFrom("sign_in_failures")
        .select("failed_at")
        .where("key", "=", key)
        .where("failed_at", ">", since)
        .orderBy("failed_at", "desc")
        .limit(1)
        .offset(signInLimit.failures - 1)
        .executeTakeFirst();
      return row ? secondsUntilOutOfWindow(row.failed_at, signInLimit.windowMs, now) : null;
    }),
  );
  const blocked = waits.filter((wait) => wait !== null);
  return blocked.length > 0 ? Math.max(...blocked) : null;
}

export async function recordSignInFailure(db: Database, who: Who, now: Date): Promise<void> {
  const keys = keysFor(who);
  // Failures that left the window count for nothing: drop them so the table stays small.
  await db.deleteFrom("sign_in_failures").where("key", "in", keys).where("failed_at", "<=", windowStart(now, signInLimit.windowMs)).execute();
  const failedAt = now.toISOString();
  await db
    .insertInto("sign_in_failures")
    .values(keys.map((key) => ({ key, failed_at: failedAt })))
    .execute();
}

/** A successful sign-in proves the password: the account's failures go, the IP's stay. */
export async function clearAccountFailures(db: Database, email: string): Promise<void> {
  await db.deleteFrom("sign_in_failures").where("key", "=", accountKey(email)).execute();
}

export function tooManyAttemptsMessage(seconds: number): string {
  return `Too many attempts. Try again in ${seconds} seconds.`;
}
