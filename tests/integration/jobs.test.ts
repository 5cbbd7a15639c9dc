import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { type JobRunner, startJobRunner } from "~/jobs/job-runner.server";
import { claimDueJobs, enqueueJob, finishJob, maxAttempts, PermanentJobError, pruneJobs, renewJobs, retryDelayMs } from "~/jobs/jobs.server";
import { createLogger } from "~/logging/logger.server";
import type { OutgoingMail } from "~/mail/outgoing-mail";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";

const t0 = new Date(Date.UTC(2026, 10, 24, 9, 0, 0));
const later = (ms: number) => new Date(t0.getTime() + ms);
const mail = (to: string): OutgoingMail => ({ to, subject: "Hello", text: "Hi." });
const silent = createLogger("silent");

/** Waits (a few seconds at most) until `check` holds. */
async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("retryDelayMs", () => {
  it("doubles from 10 s up to an hour, within ±20 %", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 0.5))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(20, 0.5)).toBe(3_600_000);
    expect(retryDelayMs(1, 0)).toBe(8_000);
    expect(retryDelayMs(1, 0.999_999)).toBe(12_000);
  });
});

describe.each(testDialects)("the outbox on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  /** A second connection to the same database, as another instance has. */
  let other: DatabaseHandle;
  let db: Database;
  const runners: JobRunner[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
    other = database.open();
  });

  afterAll(async () => {
    await other?.db.destroy();
    await handle?.db.destroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await db.deleteFrom("jobs").execute();
  });

  const jobRow = (id: number) => db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const claim = (on: DatabaseHandle, instance: string, now: Date, limit = 10) =>
    claimDueJobs(on, { instance, now, leaseMs: 60_000, limit, kinds: ["mail"] });

  it("keeps a job only when the transaction that wrote it commits", async () => {
    await db
      .transaction()
      .execute(async (trx) => {
        await enqueueJob(trx, { kind: "mail", payload: mail("rolled@back.example"), now: t0 });
        throw new Error("the change failed");
      })
      .catch(() => {});
    const id = await db.transaction().execute((trx) => enqueueJob(trx, { kind: "mail", payload: mail("a@example.com"), now: t0 }));
    expect(await db.selectFrom("jobs").select("id").execute()).toEqual([{ id }]);
    expect(await jobRow(id)).toMatchObject({ kind: "mail", payload: JSON.stringify(mail("a@example.com")), attempts: 0, run_at: t0.toISOString(), done_at: null });
  });

  it("runs each job once, the payload as written, and marks it done", async () => {
    const ids = [];
    for (const to of ["a@example.com", "b@example.com", "c@example.com"]) ids.push(await enqueueJob(db, { kind: "mail", payload: mail(to), now: t0 }));
    const sent: string[] = [];
    runners.push(startJobRunner({ database: handle, logger: silent, pollMs: 20, jobConcurrency: 2, clock: () => t0, handlers: { mail: async (m) => void sent.push(m.to) } }));
    await until(async () => (await db.selectFrom("jobs").select("id").where("done_at", "is", null).execute()).length === 0, "the jobs to be done");
    expect(sent).toEqual(["a@example.com", "b@example.com", "c@example.com"]);
    for (const id of ids) expect(await jobRow(id)).toMatchObject({ attempts: 1, done_at: t0.toISOString(), locked_by: null, locked_until: null, last_error: null });
  });

  it("does not claim a job before its time, nor a kind it has no handler for", async () => {
    await enqueueJob(db, { kind: "mail", payload: mail("later@example.com"), now: t0, runAt: later(60_000) });
    await db.insertInto("jobs").values({ kind: "webhook", payload: "{}", run_at: t0.toISOString(), locked_by: null, locked_until: null, last_error: null, done_at: null, failed_at: null, created_at: t0.toISOString() }).execute();
    expect(await claim(handle, "a", t0)).toEqual([]);
    expect((await claim(handle, "a", later(60_000))).map((job) => job.payload)).toEqual([mail("later@example.com")]);
  });

  it("retries a failed attempt later and later, keeps its error, and gives up after the last attempt", async () => {
    const id = await enqueueJob(db, { kind: "mail", payload: mail("a@example.com"), now: t0 });
    let now = t0;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const [job] = await claim(handle, "a", now);
      expect(job).toMatchObject({ id, attempts: attempt });
      const outcome = await finishJob(db, job!, { instance: "a", now, error: new Error(`421 try later (${attempt})`), jitter: 0.5 });
      const row = await jobRow(id);
      expect(row.last_error).toBe(`Error: 421 try later (${attempt})`);
      expect(row.locked_by).toBeNull();
      if (attempt < maxAttempts) {
        expect(outcome).toBe("retry");
        expect(row.run_at).toBe(new Date(now.getTime() + retryDelayMs(attempt, 0.5)).toISOString());
        // Not a moment before its time.
        expect(await claim(handle, "a", new Date(new Date(row.run_at).getTime() - 1))).toEqual([]);
        now = new Date(row.run_at);
      } else {
        expect(outcome).toBe("failed");
        expect(row.failed_at).toBe(now.toISOString());
      }
    }
    expect(await claim(handle, "a", later(365 * 24 * 3_600_000))).toEqual([]);
  });

  it("fails at once on a permanent error", async () => {
    const id = await enqueueJob(db, { kind: "mail", payload: mail("nobody@example.com"), now: t0 });
    const [job] = await claim(handle, "a", t0);
    expect(await finishJob(db, job!, { instance: "a", now: t0, error: new PermanentJobError("550 no such mailbox") })).toBe("failed");
    expect(await jobRow(id)).toMatchObject({ attempts: 1, failed_at: t0.toISOString(), last_error: "PermanentJobError: 550 no such mailbox" });
  });

  it("gives two instances claiming at once disjoint jobs, every job to one of them", async () => {
    const ids = [];
    for (let i = 0; i < 40; i++) ids.push(await enqueueJob(db, { kind: "mail", payload: mail(`p${i}@example.com`), now: t0 }));
    const claimedBy = async (on: DatabaseHandle, instance: string) => {
      const claimed: number[] = [];
      for (;;) {
        const jobs = await claim(on, instance, t0, 3);
        if (!jobs.length) return claimed;
        claimed.push(...jobs.map((job) => job.id));
      }
    };
    const [a, b] = await Promise.all([claimedBy(handle, "a"), claimedBy(other, "b")]);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(ids);
    expect(a.length + b.length).toBe(40);
  });

  it("claims again a job whose claimer died once its lease is over, and ignores the dead claimer afterwards", async () => {
    const id = await enqueueJob(db, { kind: "mail", payload: mail("a@example.com"), now: t0 });
    const [dying] = await claim(handle, "dead", t0);
    expect(await claim(other, "alive", later(59_999))).toEqual([]);
    const [job] = await claim(other, "alive", later(60_000));
    expect(job).toMatchObject({ id, attempts: 2 });
    // The first claimer comes back to life and reports: its lease is gone, so nothing changes.
    await finishJob(db, dying!, { instance: "dead", now: later(60_001), error: new Error("late") });
    expect(await jobRow(id)).toMatchObject({ locked_by: "alive", last_error: null, done_at: null });
    await finishJob(other.db, job!, { instance: "alive", now: later(60_002) });
    expect(await jobRow(id)).toMatchObject({ done_at: later(60_002).toISOString(), locked_by: null });
  });

  it("runs a failed job again once it is due, through the runner", async () => {
    const id = await enqueueJob(db, { kind: "mail", payload: mail("a@example.com"), now: t0 });
    let now = t0;
    let calls = 0;
    runners.push(
      startJobRunner({
        database: handle,
        logger: silent,
        pollMs: 20,
        clock: () => now,
        handlers: {
          mail: async () => {
            calls += 1;
            if (calls === 1) throw new Error("421 busy");
          },
        },
      }),
    );
    await until(async () => (await jobRow(id)).last_error !== null, "the first attempt to fail");
    expect(await jobRow(id)).toMatchObject({ attempts: 1, done_at: null, last_error: "Error: 421 busy" });
    now = later(13_000);
    await until(async () => (await jobRow(id)).done_at !== null, "the second attempt");
    expect(calls).toBe(2);
    expect(await jobRow(id)).toMatchObject({ attempts: 2, last_error: null });
  });

  it("claims only the jobs it has room to start, and finishes the one it runs when it stops", async () => {
    const ids = [];
    for (const to of ["a@example.com", "b@example.com", "c@example.com"]) ids.push(await enqueueJob(db, { kind: "mail", payload: mail(to), now: t0 }));
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      const runner = startJobRunner({
        database: handle,
        logger: silent,
        pollMs: 20,
        jobConcurrency: 1,
        clock: () => t0,
        handlers: {
          mail: () => {
            resolve();
            return new Promise<void>((done) => (release = done));
          },
        },
      });
      runners.push(runner);
    });
    await started;
    // The first is being sent; the others wait unclaimed, free for any instance to take.
    expect(await jobRow(ids[0]!)).toMatchObject({ attempts: 1, done_at: null });
    expect((await jobRow(ids[0]!)).locked_by).not.toBeNull();
    for (const id of ids.slice(1)) expect(await jobRow(id)).toMatchObject({ attempts: 0, locked_by: null, locked_until: null });
    const stopped = runners[0]!.stop();
    release();
    await stopped;
    expect(await jobRow(ids[0]!)).toMatchObject({ attempts: 1, done_at: t0.toISOString() });
    for (const id of ids.slice(1)) expect(await jobRow(id)).toMatchObject({ attempts: 0, locked_by: null, locked_until: null, done_at: null });
  });

  it("renews the lease of a job while it runs, so that no other instance takes it", async () => {
    const id = await enqueueJob(db, { kind: "mail", payload: mail("slow@example.com"), now: t0 });
    let now = t0;
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      runners.push(
        startJobRunner({
          database: handle,
          logger: silent,
          pollMs: 20,
          leaseMs: 300,
          clock: () => now,
          handlers: {
            mail: () => {
              resolve();
              return new Promise<void>((done) => (release = done));
            },
          },
        }),
      );
    });
    await started;
    expect(await jobRow(id)).toMatchObject({ locked_until: later(300).toISOString() });
    now = later(250);
    await until(async () => (await jobRow(id)).locked_until === later(550).toISOString(), "the lease to be renewed");
    // Past the first lease, the job is still held.
    expect(await claim(other, "b", later(400))).toEqual([]);
    release();
    await until(async () => (await jobRow(id)).done_at !== null, "the job to be done");
  });

  it("renews only the leases the instance holds, of jobs not finished", async () => {
    const [held, taken, done] = [
      await enqueueJob(db, { kind: "mail", payload: mail("a@example.com"), now: t0 }),
      await enqueueJob(db, { kind: "mail", payload: mail("b@example.com"), now: t0 }),
      await enqueueJob(db, { kind: "mail", payload: mail("c@example.com"), now: t0 }),
    ];
    const [heldJob, , doneJob] = await claim(handle, "a", t0);
    await db.updateTable("jobs").set({ locked_by: "b" }).where("id", "=", taken).execute();
    await finishJob(db, doneJob!, { instance: "a", now: t0 });
    await renewJobs(db, { ids: [held, taken, done], instance: "a", now: later(50_000), leaseMs: 60_000 });
    expect(heldJob!.id).toBe(held);
    expect((await jobRow(held)).locked_until).toBe(later(110_000).toISOString());
    expect((await jobRow(taken)).locked_until).toBe(later(60_000).toISOString());
    expect(await jobRow(done)).toMatchObject({ locked_until: null, locked_by: null });
  });

  it("runs its clean-ups on its first look, then once an hour", async () => {
    let now = t0;
    const cleaned: string[] = [];
    const sent: string[] = [];
    runners.push(
      startJobRunner({
        database: handle,
        logger: silent,
        pollMs: 20,
        clock: () => now,
        handlers: { mail: async (m) => void sent.push(m.to) },
        cleanUps: [async (at) => cleaned.push(at.toISOString())],
      }),
    );
    await until(async () => cleaned.length === 1, "the first clean-up");
    // Half an hour on, the runner looks (it runs a job) but does not clean up again.
    now = later(30 * 60_000);
    await enqueueJob(db, { kind: "mail", payload: mail("a@example.com"), now });
    await until(async () => sent.length === 1, "a look half an hour on");
    expect(cleaned).toEqual([t0.toISOString()]);
    now = later(60 * 60_000);
    await until(async () => cleaned.length === 2, "the clean-up an hour on");
    expect(cleaned[1]).toBe(later(60 * 60_000).toISOString());
  });

  it("deletes done jobs after a week and failed ones after a month", async () => {
    const day = 24 * 3_600_000;
    const done = await enqueueJob(db, { kind: "mail", payload: mail("a@example.com"), now: t0 });
    const failed = await enqueueJob(db, { kind: "mail", payload: mail("b@example.com"), now: t0 });
    const waiting = await enqueueJob(db, { kind: "mail", payload: mail("c@example.com"), now: t0, runAt: later(400 * day) });
    await db.updateTable("jobs").set({ done_at: t0.toISOString() }).where("id", "=", done).execute();
    await db.updateTable("jobs").set({ failed_at: t0.toISOString() }).where("id", "=", failed).execute();
    expect(await pruneJobs(db, later(7 * day))).toBe(0);
    expect(await pruneJobs(db, later(7 * day + 1))).toBe(1);
    expect(await pruneJobs(db, later(30 * day + 1))).toBe(1);
    expect((await db.selectFrom("jobs").select("id").execute()).map((row) => row.id)).toEqual([waiting]);
  });
});
