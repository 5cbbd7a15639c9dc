import { randomUUID } from "node:crypto";
import type { DatabaseHandle } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import type { JobPayloads } from "./job-kinds";
import { type ClaimedJob, claimDueJobs, finishJob, type JobKind, pruneJobs, releaseJobs, renewJobs } from "./jobs.server";
import { type Lane, startLaneLoop } from "./lane.server";

/** What runs each kind of job. A handler that throws has its job retried (or failed, see finishJob). */
export type JobHandlers = { [K in JobKind]: (payload: JobPayloads[K], job: ClaimedJob) => Promise<void> };

export type JobRunnerOptions = {
  database: DatabaseHandle;
  /** The kinds this instance runs (mail only when SMTP is configured): each kind is a lane of its own. */
  handlers: Partial<JobHandlers>;
  logger: Logger;
  /** How often a lane looks for due work when its last look found less than it had room for. */
  pollMs?: number;
  /** How long a claim holds unless renewed (JOB_LEASE_SECONDS): renewed every third of it while the work runs. */
  leaseMs?: number;
  /** Jobs of one kind run at once (for mail: connections to the SMTP server). */
  jobConcurrency?: number;
  clock?: () => Date;
  /** Outboxes with tables of their own, each run as a lane beside the jobs' (the webhooks' deliveries, decision record 020). */
  lanes?: (instance: string) => Lane[];
  /**
   * Rows that expire, deleted hourly with the done jobs: each takes the time and answers how many it
   * deleted (old webhook deliveries, uploads no form claimed).
   */
  cleanUps?: ((now: Date) => Promise<number>)[];
};

export type JobRunner = {
  /** Stops claiming, and waits for the work it is running. */
  stop(): Promise<void>;
};

const hourMs = 60 * 60 * 1000;

/** 30 s: a killed instance's claims are free again within half a minute; a live one renews its own. */
export const defaultLeaseMs = 30_000;

/**
 * Runs the outboxes in this process (decision records 017 and 025): one lane per job kind and one
 * per other outbox, each with its own loop and room, so that a mail server that hangs delays no
 * webhook and a webhook that hangs delays no mail. Every instance runs one; their claims never
 * overlap. Only kinds this version has handlers for are claimed, so that an instance of an older
 * version leaves a newer kind to the instances that know it. Hourly, done work is pruned.
 */
export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const { database, handlers, logger } = options;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? defaultLeaseMs;
  const clock = options.clock ?? (() => new Date());
  const instance = randomUUID();
  const kinds = Object.keys(handlers) as JobKind[];
  let stopping = false;

  const jobLane = (kind: JobKind): Lane<ClaimedJob> => ({
    name: kind,
    concurrency: options.jobConcurrency ?? 3,
    claim: (claim) => claimDueJobs(database, { ...claim, instance, kinds: [kind] }),
    async run(job) {
      const handler = handlers[kind] as (payload: unknown, job: ClaimedJob) => Promise<void>;
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
    },
    renew: (renewal) => renewJobs(database.db, { ...renewal, instance }),
    release: (ids) => releaseJobs(database.db, ids, instance),
  });

  const loops = [...kinds.map(jobLane), ...(options.lanes?.(instance) ?? [])].map((lane) =>
    startLaneLoop(lane, { logger, pollMs, leaseMs, clock }),
  );

  // Pruning has a timer of its own: at once, then whenever an hour has passed by the clock.
  let prunedAt = -Infinity;
  let pruning: Promise<void> | undefined;
  async function pruneWhenDue() {
    const now = clock();
    if (now.getTime() - prunedAt < hourMs) return;
    prunedAt = now.getTime();
    await pruneJobs(database.db, now);
    for (const cleanUp of options.cleanUps ?? []) await cleanUp(now);
  }
  const prune = () => {
    if (stopping || pruning) return;
    pruning = pruneWhenDue()
      .catch((error: unknown) => logger.warn({ err: error }, "Could not prune done work"))
      .finally(() => (pruning = undefined));
  };
  prune();
  const pruneTimer = setInterval(prune, pollMs);
  pruneTimer.unref();

  return {
    async stop() {
      stopping = true;
      clearInterval(pruneTimer);
      await Promise.all([pruning, ...loops.map((loop) => loop.stop())]);
    },
  };
}
