import { randomUUID } from "node:crypto";
import type { DatabaseHandle } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import type { JobPayloads } from "./job-kinds";
import { type ClaimedJob, claimDueJobs, finishJob, type JobKind, pruneJobs, releaseJobs } from "./jobs.server";

/** What runs each kind of job. A handler that throws has its job retried (or failed, see finishJob). */
export type JobHandlers = { [K in JobKind]: (payload: JobPayloads[K], job: ClaimedJob) => Promise<void> };

export type JobRunnerOptions = {
  database: DatabaseHandle;
  /** The kinds this instance runs (mail only when SMTP is configured). */
  handlers: Partial<JobHandlers>;
  logger: Logger;
  /** How often to look for due jobs when the last look found none. */
  pollMs?: number;
  /** How long a claim holds: longer than any handler takes (mail gives up after a minute). */
  leaseMs?: number;
  /** Jobs claimed at a time. */
  batch?: number;
  clock?: () => Date;
  /**
   * Outboxes of their own run by the same loop after the jobs (the webhooks' deliveries,
   * decision record 020): each runs a batch (true when it was full) and prunes with the jobs.
   */
  dispatchers?: (instance: string) => Dispatcher[];
  /**
   * Other rows that expire, deleted hourly with the done jobs: each takes the time and answers how
   * many it deleted (uploads no form claimed, app/attachments/).
   */
  cleanUps?: ((now: Date) => Promise<number>)[];
};

/** An outbox with its own table, run by the job runner's loop. */
export type Dispatcher = {
  run(clock: () => Date): Promise<boolean>;
  prune(now: Date): Promise<number>;
};

export type JobRunner = {
  /** Stops claiming, and waits for the jobs it is running. */
  stop(): Promise<void>;
};

const hourMs = 60 * 60 * 1000;

/**
 * Runs due jobs of the outbox in this process, a batch at a time, one after another: it looks again
 * at once after a full batch, otherwise after `pollMs`. Every instance runs one; their claims never
 * overlap (claimDueJobs). Only kinds this version has handlers for are claimed, so that an instance
 * of an older version leaves a newer kind to the instances that know it.
 */
export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const { database, handlers, logger } = options;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 5 * 60 * 1000;
  const batch = options.batch ?? 10;
  const clock = options.clock ?? (() => new Date());
  const instance = randomUUID();
  const kinds = Object.keys(handlers) as JobKind[];
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let prunedAt = 0;
  const dispatchers = options.dispatchers?.(instance) ?? [];

  async function runJob(job: ClaimedJob) {
    const handler = handlers[job.kind as JobKind] as (payload: unknown, job: ClaimedJob) => Promise<void>;
    let error: unknown;
    try {
      await handler(job.payload, job);
    } catch (thrown) {
      // Kept as `undefined` means done: a handler throwing `undefined` still failed.
      error = thrown ?? new Error("The job's handler threw nothing");
    }
    const outcome = await finishJob(database.db, job, { instance, now: clock(), error });
    const line = { jobId: job.id, kind: job.kind, attempts: job.attempts };
    if (outcome === "retry") logger.warn({ ...line, err: error }, "A job failed; it will be tried again");
    else if (outcome === "failed") logger.error({ ...line, err: error }, "A job failed for good");
    else logger.debug(line, "A job ran");
  }

  /** One batch; true when it was full (more may be due). */
  async function runBatch(): Promise<boolean> {
    const now = clock();
    if (now.getTime() - prunedAt >= hourMs) {
      prunedAt = now.getTime();
      await pruneJobs(database.db, now);
      for (const dispatcher of dispatchers) await dispatcher.prune(now);
      for (const cleanUp of options.cleanUps ?? []) await cleanUp(now);
    }
    let full = false;
    if (kinds.length) {
      const jobs = await claimDueJobs(database, { instance, now, leaseMs, limit: batch, kinds });
      for (const [index, job] of jobs.entries()) {
        if (stopping) {
          await releaseJobs(database.db, jobs.slice(index), instance);
          break;
        }
        await runJob(job);
      }
      full = jobs.length === batch;
    }
    for (const dispatcher of dispatchers) {
      if (stopping) break;
      if (await dispatcher.run(clock)) full = true;
    }
    return full;
  }

  function schedule(delayMs: number) {
    if (stopping) return;
    timer = setTimeout(() => {
      running = runBatch().then(
        (full) => schedule(full ? 0 : pollMs),
        (error: unknown) => {
          // The database is down, say: the jobs wait for it.
          logger.warn({ err: error }, "Could not run jobs");
          schedule(pollMs);
        },
      );
    }, delayMs);
    // Waiting for the next look keeps no process alive.
    timer.unref();
  }

  schedule(0);
  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await running;
    },
  };
}
