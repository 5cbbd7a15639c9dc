import type { Database, DatabaseHandle } from "~/db/database.server";
import { lockKeys } from "~/db/key-locks.server";

/**
 * Sliding-window limits kept in the database, so that they hold across instances: sign-in attempts,
 * sign-ups, monitoring beacons. Each use is a row (`rate_limit_hits`) that counts against its key
 * until it expires, a window after it was taken; a client waits until the row that blocks it expires.
 */

export type Limit = { uses: number; windowMs: number };

export type Slot = { taken: true; hitIds: number[] } | { taken: false; retryAfter: number };

/**
 * Takes one use under every key at once, or none: atomically, so that concurrent requests on any
 * instance cannot all slip through before one of them is counted. Refused, it answers the whole
 * seconds (at least one) until every key has room again; a refusal does not count.
 */
export async function takeSlot({ db, dialect }: DatabaseHandle, keys: string[], limit: Limit, now: Date): Promise<Slot> {
  const nowIso = now.toISOString();
  const slot = await db.transaction().execute(async (trx): Promise<Slot> => {
    await lockKeys(trx, dialect, keys);
    await trx.deleteFrom("rate_limit_hits").where("key", "in", keys).where("expires_at", "<=", nowIso).execute();
    let blockedUntil: string | null = null;
    for (const key of keys) {
      // The key's latest `uses` hits: while the oldest of them lives, the key is full.
      const oldestOfLatest = await trx
        .selectFrom("rate_limit_hits")
        .select("expires_at")
        .where("key", "=", key)
        .where("expires_at", ">", nowIso)
        .orderBy("expires_at", "desc")
        .limit(1)
        .offset(limit.uses - 1)
        .executeTakeFirst();
      if (oldestOfLatest && (blockedUntil === null || new Date(oldestOfLatest.expires_at) > new Date(blockedUntil))) {
        blockedUntil = oldestOfLatest.expires_at;
      }
    }
    if (blockedUntil !== null) {
      return { taken: false, retryAfter: Math.max(1, Math.ceil((new Date(blockedUntil).getTime() - now.getTime()) / 1000)) };
    }
    const expiresAt = new Date(now.getTime() + limit.windowMs).toISOString();
    const hits = await trx
      .insertInto("rate_limit_hits")
      .values(keys.map((key) => ({ key, expires_at: expiresAt })))
      .returning("id")
      .execute();
    return { taken: true, hitIds: hits.map((hit) => hit.id) };
  });
  // Now and then, the expired hits of clients that have not come back go too (outside the
  // transaction, so that a purge never holds anyone's lock).
  if (Math.random() < 1 / 50) await purgeExpiredHits(db, now).catch(() => {});
  return slot;
}

/** Gives uses back: what they were taken for did not happen, so they do not count. */
export async function releaseHits(db: Database, hitIds: number[]): Promise<void> {
  if (hitIds.length === 0) return;
  await db.deleteFrom("rate_limit_hits").where("id", "in", hitIds).execute();
}

/** Forgets every use of a key. */
export async function clearKey(db: Database, key: string): Promise<void> {
  await db.deleteFrom("rate_limit_hits").where("key", "=", key).execute();
}

export async function purgeExpiredHits(db: Database, now: Date): Promise<void> {
  await db.deleteFrom("rate_limit_hits").where("expires_at", "<=", now.toISOString()).execute();
}

export function tooManyAttemptsMessage(seconds: number): string {
  return `Too many attempts. Try again in ${seconds} seconds.`;
}
