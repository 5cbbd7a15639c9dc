import { AsyncLocalStorage } from "node:async_hooks";
import type { LogEvent } from "kysely";

/**
 * The SQL queries one request ran, and the time they took in total (overlapping ones each count);
 * how many statements the database had to prepare (parse) for them rather than reuse; and, for a
 * GET, the lookups its loaders share (app/auth/request-memo.server.ts), kept here so that a request
 * has one AsyncLocalStorage: each one more slows down every promise of the process.
 */
export type QueryTally = { count: number; durationMs: number; prepared: number; memo?: Map<string, unknown> };

const currentTally = new AsyncLocalStorage<QueryTally>();

/** The tally of the request being served, if any. */
export const currentQueryTally = (): QueryTally | undefined => currentTally.getStore();

/** Runs `work` (and everything it starts) with queries counted into a new tally. */
export function countingQueries<T>(work: (tally: QueryTally) => T): T {
  const tally: QueryTally = { count: 0, durationMs: 0, prepared: 0 };
  return currentTally.run(tally, () => work(tally));
}

/**
 * Kysely's `log` hook: it runs after every query (failed ones too), in the async context of the
 * code that ran it, so the query lands in that request's tally. Outside a request it does nothing.
 */
export function tallyQuery(event: LogEvent): void {
  const tally = currentTally.getStore();
  if (!tally) return;
  tally.count += 1;
  tally.durationMs += event.queryDurationMillis;
}

/** Told by the database's driver when it prepares a statement, in the async context of the query. */
export function tallyStatementPrepared(): void {
  const tally = currentTally.getStore();
  if (tally) tally.prepared += 1;
}
