import type { RequestHandler } from "express";
import { countingQueries, type QueryTally } from "~/db/query-tally.server";
import { beforeResponseHead } from "./response-head.server";

/** `db;dur=3.2;desc="5 queries"`: what browsers' developer tools show under Timing. */
export function serverTimingValue(tally: QueryTally): string {
  return `db;dur=${tally.durationMs.toFixed(1)};desc="${tally.count} ${tally.count === 1 ? "query" : "queries"}"`;
}

/**
 * Counts the SQL queries each request runs and says so in a `Server-Timing` header, for operators
 * (developer tools) and the benchmark. The header is written with the status line, so it covers
 * the queries run before the response starts — all of them, for pages, whose loaders finish first.
 */
export const serverTiming: RequestHandler = (_req, res, next) => {
  countingQueries((tally) => {
    beforeResponseHead(res, (response) => response.setHeader("Server-Timing", serverTimingValue(tally)));
    next();
  });
};
