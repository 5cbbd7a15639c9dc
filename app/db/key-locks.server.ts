import { createHash } from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { Dialect } from "./database.server";
import type { DB } from "./schema";

/**
 * Makes transactions that name the same key take turns, on every instance, until they end:
 * PostgreSQL by transaction-scoped advisory locks; SQLite by its single writer (our transactions
 * begin immediate), so there is nothing more to take.
 */
export async function lockKeys(trx: Transaction<DB>, dialect: Dialect, keys: string[]): Promise<void> {
  if (dialect !== "postgres") return;
  // Always in the same order, so that two transactions locking overlapping keys cannot deadlock.
  const ids = [...new Set(keys.map(lockId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const id of ids) await sql`select pg_advisory_xact_lock(${String(id)}::bigint)`.execute(trx);
}

/** A key's 64-bit advisory lock number: the first 8 bytes of its SHA-256. */
function lockId(key: string): bigint {
  return createHash("sha256").update(key).digest().readBigInt64BE(0);
}
