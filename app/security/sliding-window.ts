/**
 * Sliding-window limits kept in the database (failed sign-ins, monitoring beacons): a row counts
 * while it is younger than the window, and the client waits until the row that blocks it leaves.
 */

/** The oldest moment a row may have and still count, as the ISO string the tables store. */
export function windowStart(now: Date, windowMs: number): string {
  return new Date(now.getTime() - windowMs).toISOString();
}

/** Whole seconds, at least one, until a row counted at `at` leaves the window: the Retry-After. */
export function secondsUntilOutOfWindow(at: string, windowMs: number, now: Date): number {
  const leavesAt = new Date(at).getTime() + windowMs;
  return Math.max(1, Math.ceil((leavesAt - now.getTime()) / 1000));
}
