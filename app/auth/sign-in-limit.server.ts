import type { Database, DatabaseHandle } from "~/db/database.server";
import { clearKey, type Limit, releaseHits, takeSlot } from "~/security/sliding-window.server";

/** docs/product.md, Limits: 10 sign-in attempts per 15 minutes, per account and per IP, then 429. */
export const signInLimit: Limit = { uses: 10, windowMs: 15 * 60 * 1000 };

type Who = { email: string; ip: string | null };

/** A counted attempt, to settle once its password has been checked. */
export type SignInAttempt = { email: string; hitIds: number[]; ipHitId: number | null };

const accountKey = (email: string) => `sign-in:account:${email.toLowerCase()}`;
const ipKey = (ip: string) => `sign-in:ip:${ip}`;

/**
 * Counts an attempt against the account and the IP before its password is checked, or refuses it
 * with the seconds to wait when either has had 10 in the window. Counted first and atomically, so
 * that a burst of parallel attempts gets 10 checked at most, on any number of instances.
 */
export async function takeSignInAttempt(
  handle: DatabaseHandle,
  who: Who,
  now: Date,
): Promise<{ attempt: SignInAttempt } | { retryAfter: number }> {
  const keys = who.ip === null ? [accountKey(who.email)] : [accountKey(who.email), ipKey(who.ip)];
  const slot = await takeSlot(handle, keys, signInLimit, now);
  if (!slot.taken) return { retryAfter: slot.retryAfter };
  return { attempt: { email: who.email, hitIds: slot.hitIds, ipHitId: who.ip === null ? null : slot.hitIds[1]! } };
}

/**
 * The password was right: the account's failed attempts go, and this attempt stops counting for
 * the IP too; the IP's other failures stay. A wrong password leaves the attempt counted.
 */
export async function signInSucceeded(db: Database, attempt: SignInAttempt): Promise<void> {
  await clearKey(db, accountKey(attempt.email));
  if (attempt.ipHitId !== null) await releaseHits(db, [attempt.ipHitId]);
}

/** The password was never checked (the server was too busy, or failed): the attempt does not count. */
export async function withdrawSignInAttempt(db: Database, attempt: SignInAttempt): Promise<void> {
  await releaseHits(db, attempt.hitIds);
}
