import type { Transaction, Updateable } from "kysely";
import type { Database, Dialect } from "~/db/database.server";
import type { DB, JobsTable } from "~/db/schema";
import type { JobPayloads } from "./job-kinds";

export type JobKind = keyof JobPayloads;

/** A claimed job, as its handler gets it. */
export type ClaimedJob = { id: number; kind: string; payload: unknown; attempts: number };

/** Thrown by a handler when trying again cannot help (a refused address, say): the job fails at once. */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/** Attempts before a job fails for good: with `retryDelayMs` about two hours and a half of trying. */
export const maxAttempts = 10;

/**
 * How long after its `attempt`-th failure a job is tried again: 10 s, doubling each time, at most
 * an hour, each ±20 % (`jitter` in [0, 1)) so that jobs failing together do not retry together.
 */
export function retryDelayMs(attempt: number, jitter: number): number {
  const base = Math.min(10_000 * 2 ** (attempt - 1), 3_600_000);
  return Math.round(base * (0.8 + 0.4 * jitter));
}

/**
 * Writes a job to the outbox. Called inside the transaction of the change it follows from, it is
 * committed (or rolled back) with it; it runs once it is committed and due.
 */
export async function enqueueJob<K extends JobKind>(
  db: Database | Transaction<DB>,
  job: { kind: K; payload: JobPayloads[K]; now: Date; runAt?: Date },
): Promise<number> {
  const { id } = await db
    .insertInto("jobs")
    .values({
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      run_at: (job.runAt ?? job.now).toISOString(),
      locked_by: null,
      locked_until: null,
      last_error: null,
      done_at: null,
      failed_at: null,
      created_at: job.now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Claims up to `limit` due jobs for `instance` until `leaseMs` from now, and counts the attempt:
 * jobs still to do whose time has come and that nobody holds (or whose holder's lease has run out:
 * it died, or stopped renewing it). PostgreSQL skips rows another instance is claiming (`FOR UPDATE SKIP LOCKED`);
 * SQLite's single writer makes each claim whole.
 */
export async function claimDueJobs(
  { db, dialect }: { db: Database; dialect: Dialect },
  claim: { instance: string; now: Date; leaseMs: number; limit: number; kinds: readonly string[] },
): Promise<ClaimedJob[]> {
  const now = claim.now.toISOString();
  const due = db
    .selectFrom("jobs")
    .select("id")
    .where("done_at", "is", null)
    .where("failed_at", "is", null)
    .where("run_at", "<=", now)
    .where("kind", "in", claim.kinds)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
    .orderBy("run_at")
    .orderBy("id");
  // Most polls find nothing due: a read says so without taking SQLite's write lock or writing on PostgreSQL.
  if (!(await due.limit(1).executeTakeFirst())) return [];
  const rows = await db
    .updateTable("jobs")
    .set((eb) => ({
      locked_by: claim.instance,
      locked_until: new Date(claim.now.getTime() + claim.leaseMs).toISOString(),
      attempts: eb("attempts", "+", 1),
    }))
    .where("id", "in", due.limit(claim.limit).$if(dialect === "postgres", (query) => query.forUpdate().skipLocked()))
    .returning(["id", "kind", "payload", "attempts"])
    .execute();
  return rows.sort((a, b) => a.id - b.id).map((row) => ({ ...row, payload: JSON.parse(row.payload) as unknown }));
}

/**
 * Records how a claimed job's attempt ended: done; or failed, to be retried after `retryDelayMs`
 * unless the error is permanent or the attempt was its last. Only while `instance` still holds it:
 * an instance whose lease ran out (and whose job another instance claimed) changes nothing.
 */
export async function finishJob(
  db: Database,
  job: ClaimedJob,
  outcome: { instance: string; now: Date; error?: unknown; jitter?: number },
): Promise<"done" | "retry" | "failed"> {
  const settle = (values: Updateable<JobsTable>) =>
    db
      .updateTable("jobs")
      .set({ locked_by: null, locked_until: null, ...values })
      .where("id", "=", job.id)
      .where("locked_by", "=", outcome.instance)
      .execute();
  const now = outcome.now.toISOString();
  if (outcome.error === undefined) {
    await settle({ done_at: now, last_error: null });
    return "done";
  }
  const lastError = describeError(outcome.error);
  if (outcome.error instanceof PermanentJobError || job.attempts >= maxAttempts) {
    await settle({ failed_at: now, last_error: lastError });
    return "failed";
  }
  const retryAt = new Date(outcome.now.getTime() + retryDelayMs(job.attempts, outcome.jitter ?? Math.random()));
  await settle({ run_at: retryAt.toISOString(), last_error: lastError });
  return "retry";
}

/** Extends the leases of the jobs `instance` still holds: it is running them (decision record 025). */
export async function renewJobs(db: Database, renewal: { ids: number[]; instance: string; now: Date; leaseMs: number }): Promise<void> {
  if (!renewal.ids.length) return;
  await db
    .updateTable("jobs")
    .set({ locked_until: new Date(renewal.now.getTime() + renewal.leaseMs).toISOString() })
    .where("id", "in", renewal.ids)
    .where("locked_by", "=", renewal.instance)
    .where("done_at", "is", null)
    .where("failed_at", "is", null)
    .execute();
}

/** Gives claimed jobs back unrun (the instance is stopping): due again at once, the attempt not counted. */
export async function releaseJobs(db: Database, ids: number[], instance: string): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable("jobs")
    .set((eb) => ({ locked_by: null, locked_until: null, attempts: eb("attempts", "-", 1) }))
    .where("id", "in", ids)
    .where("locked_by", "=", instance)
    .execute();
}

/** Done jobs are kept a week, failed ones a month (for a look at why), then deleted. */
export async function pruneJobs(db: Database, now: Date): Promise<number> {
  const day = 24 * 60 * 60 * 1000;
  const done = await db.deleteFrom("jobs").where("done_at", "<", new Date(now.getTime() - 7 * day).toISOString()).executeTakeFirst();
  const failed = await db.deleteFrom("jobs").where("failed_at", "<", new Date(now.getTime() - 30 * day).toISOString()).executeTakeFirst();
  return Number(done.numDeletedRows) + Number(failed.numDeletedRows);
}

/** An error as the job keeps it: its name and message, on one line, at most 1,000 characters. */
function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/\s+/g, " ").slice(0, 1000);
}
