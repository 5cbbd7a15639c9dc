/**
 * PostgreSQL goes away abruptly under write load (`pg_ctl -m immediate stop`: every backend killed
 * mid-query, mid-transaction or idle) and comes back. Cairn must live through it: answer 503
 * "Cairn is unavailable…" meanwhile, and serve writes again once the database is back, without a
 * restart. It runs on a PostgreSQL cluster of its own (tests/support/throwaway-postgres.ts), never
 * on the shared one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unavailableMessage } from "~/errors/route-errors.server";
import { BrowserlessClient } from "../support/browserless-client";
import { type RunningServer, startServer } from "../support/server";
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from "../support/throwaway-postgres";

const binDir = postgresBinDir();
if (!binDir) console.warn("database-outage.test.ts skipped: no PostgreSQL server binaries (initdb, pg_ctl) are installed.");

const password = "correct horse battery";
const newIssuePath = "/w/acme/p/WEB/issues/new";
/** Writers posting at once, each one request after another. */
const writers = 8;
/** A bound on the load, whatever happens: the test fails rather than post more. */
const maxRequests = 5000;

type Phase = "before" | "stopping" | "down" | "starting" | "back";
/** A write's answer: the phase of the outage it was sent in, and the one it was answered in. */
type Answer = {
  phase: Phase;
  answeredIn: Phase;
  title: string;
  status: number | string;
  location: string | null;
  retryAfter: string | null;
  body: string;
  at: number;
};

describe.skipIf(!binDir)("PostgreSQL stopped abruptly under write load", () => {
  let postgres: ThrowawayPostgres;
  let dataDir: string;
  let server: RunningServer;
  let client: BrowserlessClient;

  beforeAll(async () => {
    postgres = await startThrowawayPostgres(binDir!);
    dataDir = mkdtempSync(path.join(tmpdir(), "cairn-test-"));
    server = await startServer({ DATABASE_URL: postgres.url, DATA_DIR: dataDir });
    client = new BrowserlessClient(server.url);
    expect((await client.post("/signup", { name: "Ada", email: "ada@example.com", password })).status).toBe(302);
    expect((await client.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    expect((await client.post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" })).status).toBe(302);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await postgres?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("lives, answers 503 while the database is down, and serves writes again once it is back", { timeout: 300_000 }, async () => {
    let phase: Phase = "before";
    let sent = 0;
    let stopLoad = false;
    const answers: Answer[] = [];
    const count = (wanted: (answer: Answer) => boolean) => answers.filter(wanted).length;

    async function writer(id: number) {
      while (!stopLoad && sent < maxRequests) {
        const sentIn = phase;
        const title = `Writer ${id} issue ${++sent}`;
        const fields = { title, description: "", status: "backlog", priority: "none", assigneeId: "", dueDate: "" };
        try {
          const response = await client.post(newIssuePath, fields);
          const body = response.status === 302 ? "" : await response.text();
          const { headers } = response;
          answers.push({ phase: sentIn, answeredIn: phase, title, status: response.status, location: headers.get("location"), retryAfter: headers.get("retry-after"), body, at: performance.now() });
        } catch (error) {
          const cause = (error as { cause?: { code?: string } }).cause;
          answers.push({ phase: sentIn, answeredIn: phase, title, status: `network error ${cause?.code ?? String(error)}`, location: null, retryAfter: null, body: "", at: performance.now() });
          // The server is gone (the failure this test is about): no point hammering a closed port.
          if (server.process.exitCode !== null || server.process.signalCode !== null) return;
        }
      }
    }

    /** Waits, within a generous bound, until `done` holds of the answers so far. */
    async function until(what: string, done: () => boolean) {
      const deadline = Date.now() + 120_000;
      while (!done()) {
        if (server.process.exitCode !== null || server.process.signalCode !== null) {
          throw new Error(`Cairn exited (${server.process.exitCode ?? server.process.signalCode}) waiting for ${what}: ${server.stderr().slice(-2000)}`);
        }
        if (Date.now() > deadline || sent >= maxRequests) throw new Error(`Gave up waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    const load = Promise.all(Array.from({ length: writers }, (_, i) => writer(i + 1)));
    try {
      await until("writes to succeed before the outage", () => count((a) => a.status === 302) >= 20);

      phase = "stopping";
      const stoppedAt = performance.now();
      await postgres.stopAbruptly();
      phase = "down";
      const downThroughout = (a: Answer) => a.phase === "down" && a.answeredIn === "down";
      await until("503s while PostgreSQL is down", () => count(downThroughout) >= 20);
      const readiness = await fetch(`${server.url}/readyz`);
      expect(readiness.status).toBe(503);
      expect(await readiness.json()).toEqual({ status: "database unreachable" });

      phase = "starting";
      const restartedAt = performance.now();
      await postgres.start();
      phase = "back";
      const backAt = performance.now();
      await until("writes to succeed after PostgreSQL is back", () => count((a) => a.phase === "back" && a.status === 302) >= 20);
      stopLoad = true;
      await load;

      const byPhase = (wanted: Phase) => answers.filter((a) => a.phase === wanted);
      const statuses = (list: Answer[]) => Object.fromEntries([...new Set(list.map((a) => a.status))].map((s) => [s, list.filter((a) => a.status === s).length]));
      const firstWriteAfter = (since: number) => Math.round(answers.find((a) => a.at > since && a.status === 302)!.at - since);
      console.log(
        "database outage figures:",
        JSON.stringify({
          requests: answers.length,
          before: statuses(byPhase("before")),
          stopping: statuses(byPhase("stopping")),
          down: statuses(byPhase("down")),
          starting: statuses(byPhase("starting")),
          back: statuses(byPhase("back")),
          msPostgresDown: Math.round(restartedAt - stoppedAt),
          msFromRestartToFirstWrite: firstWriteAfter(restartedAt),
          msFromPostgresReadyToFirstWrite: firstWriteAfter(backAt),
        }),
      );

      // The process lived, and answered every request: a write, or 503 with the message.
      expect(server.process.exitCode).toBeNull();
      expect(answers.filter((a) => typeof a.status === "string")).toEqual([]);
      for (const answer of answers) expect([302, 503], JSON.stringify(answer).slice(0, 500)).toContain(answer.status);
      const unavailable = answers.filter((a) => a.status === 503);
      for (const answer of unavailable) expect(answer.body).toContain(unavailableMessage);
      expect(unavailable.filter((a) => !/^[1-9]\d*$/.test(a.retryAfter ?? "")).map((a) => `${a.phase}/${a.answeredIn}: ${a.retryAfter} ${a.body.slice(0, 200)}`)).toEqual([]);
      // While the database was down, nothing but 503.
      const down = answers.filter(downThroughout);
      expect(statuses(down)).toEqual({ 503: down.length });
      // Once it was back, every write succeeded: no broken connection was handed out again.
      expect(statuses(byPhase("back"))).toEqual({ 302: byPhase("back").length });
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

      // The lost connections were warnings, not unexpected errors with a digest.
      expect(server.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
      expect(server.logs.some((line) => line.msg === "PostgreSQL connection lost")).toBe(true);

      // Every write that was answered 302 is in the database, under the number its answer named.
      const direct = new pg.Client({ connectionString: postgres.url });
      await direct.connect();
      try {
        const { rows } = await direct.query<{ number: number; title: string }>("select number, title from issues");
        const stored = new Map(rows.map((row) => [row.title, Number(row.number)]));
        for (const answer of answers.filter((a) => a.status === 302)) {
          expect(stored.get(answer.title), answer.title).toBe(Number(answer.location!.split("/").pop()));
        }
      } finally {
        await direct.end();
      }
    } finally {
      stopLoad = true;
      await load;
    }
  });
});
