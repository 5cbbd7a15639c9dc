import { readFileSync } from "node:fs";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { startServer } from "../support/server";

// A request held up by a lock in PostgreSQL is a real request in flight; SQLite readers cannot be
// held up that way, so this runs where TEST_DATABASE_URL names a PostgreSQL server (CI sets it).
describe.runIf(process.env.TEST_DATABASE_URL)("graceful shutdown with a request in flight", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("lets the request finish, refuses new connections, then exits 0", async () => {
    const server = await startServer({ ...database.env, DRAIN_SECONDS: "1" });
    const locker = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query("begin");
      await locker.query("lock table users in access exclusive mode");
      const inFlight = fetch(`${server.url}/`);
      await new Promise((resolve) => setTimeout(resolve, 300));

      server.process.kill("SIGTERM");
      await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status).toBe(503);
      // A request that arrives while draining is told to close its connection.
      expect((await fetch(`${server.url}/readyz`)).headers.get("connection")).toBe("close");
      // After the drain delay the port closes, while the request still waits for the database.
      await expect.poll(() => fetch(`${server.url}/healthz`).then(() => "open", () => "closed"), { timeout: 5000 }).toBe("closed");
      expect(server.process.exitCode).toBeNull();

      await locker.query("rollback");
      const response = await inFlight;
      expect(response.status).toBe(200);
      // It arrived before the signal, but its answer started after it: that closes its connection too.
      expect(response.headers.get("connection")).toBe("close");
      expect(await response.text()).toContain("Issue tracking for teams that ship.");
      expect(await server.exited).toBe(0);
    } finally {
      await locker.end();
      await server.stop();
    }
  });
});

describe("SIGTERM with requests that have just arrived (DRAIN_SECONDS=0)", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });

  afterAll(async () => {
    await database?.drop();
  });

  /**
   * Stops a process and waits until it is stopped (state T in /proc): a process still on its way
   * to stopping may already have collected the connections that arrive meanwhile, and then read
   * their requests before the SIGTERM sent while it was stopped.
   */
  async function stop(pid: number) {
    process.kill(pid, "SIGSTOP");
    for (let i = 0; i < 200; i++) {
      // The state follows the command name in parentheses, which may itself hold spaces.
      if (/\) T /.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) return;
      await sleep(10);
    }
    throw new Error(`process ${pid} did not stop`);
  }

  /** Sends GET `url` on a keep-alive connection of its own; `sent` resolves once the request is written. */
  function send(agent: http.Agent, url: string) {
    let written!: () => void;
    const sent = new Promise<void>((resolve) => (written = resolve));
    const answered = new Promise<{ status: number; connection?: string; body: string } | { error: string }>((resolve) => {
      const request = http.get(url, { agent }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, connection: response.headers.connection, body }));
        response.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      });
      request.on("finish", written);
      request.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    return { sent, answered };
  }

  it("answers every request that reached the server before its port closed", async () => {
    const server = await startServer({ ...database.env, DRAIN_SECONDS: "0" });
    // One connection per request, kept alive as a load balancer keeps them.
    const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    try {
      // Stopped, the server reads nothing, as when it is busy: the kernel completes the connections
      // and holds the requests, so that SIGTERM finds them there, not yet read.
      await stop(server.process.pid!);
      const requests = Array.from({ length: 24 }, () => send(agent, `${server.url}/`));
      await Promise.all(requests.map((request) => request.sent));
      server.process.kill("SIGTERM");
      server.process.kill("SIGCONT");

      const answers = await Promise.all(requests.map((request) => request.answered));
      expect(answers.filter((answer) => "error" in answer)).toEqual([]);
      for (const answer of answers) {
        // Answered. Most say `Connection: close`, but not all need to: on a busy machine the signal
        // can reach the process after it has answered some requests, and those stay kept-alive until
        // the port closes and the server closes its idle connections (which its exit shows).
        expect(answer).toMatchObject({ status: 200, body: expect.stringContaining("Issue tracking for teams that ship.") });
      }
      expect(await server.exited).toBe(0);
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    } finally {
      server.process.kill("SIGCONT");
      agent.destroy();
      await server.stop();
    }
  });
});

describe("a second SIGTERM while draining", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("does not cut the shutdown short: the server still drains, closes and exits 0", async () => {
    // A supervisor or an operator may send the signal again while the server drains.
    const server = await startServer({ ...database.env, DRAIN_SECONDS: "1" });
    try {
      server.process.kill("SIGTERM");
      await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status).toBe(503);
      server.process.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expect(server.logs.map((line) => line.msg)).toContain("Stopped");
    } finally {
      await server.stop();
    }
  });
});

describe.each(testDialects)("SIGTERM under load on %s (DRAIN_SECONDS=0)", (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });

  afterAll(async () => {
    await database?.drop();
  });

  /**
   * One client as a browser or a load generator is: one request at a time on a kept-alive
   * connection, a new connection as soon as an answer says `Connection: close`, until the port
   * refuses it. Resolves to what each request came to: its status, or the client's error.
   */
  async function client(url: string, signalled: () => boolean) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const outcomes: (number | string)[] = [];
    try {
      for (;;) {
        const outcome = await new Promise<number | string>((resolve) => {
          const request = http.get(url, { agent }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode!));
            response.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          });
          request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        });
        outcomes.push(outcome);
        if (outcome === "ECONNREFUSED" && signalled()) return outcomes;
      }
    } finally {
      agent.destroy();
    }
  }

  it("answers or refuses every request, and resets none, while clients keep connecting as it closes its port", async () => {
    const server = await startServer({ ...database.env, DRAIN_SECONDS: "0" });
    let signalled = false;
    try {
      // Every answer after the signal says `Connection: close`, and each client connects again at
      // once: the port closes while clients are connecting. A connection the kernel had completed
      // but the server not taken was reset when the port closed (18 of 20 clients, run after run).
      const clients = Array.from({ length: 20 }, () => client(`${server.url}/login`, () => signalled));
      await expect.poll(() => server.logs.filter((line) => line.msg === "request completed").length, { timeout: 20_000 }).toBeGreaterThan(20);
      signalled = true;
      server.process.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      const outcomes = (await Promise.all(clients)).flat();
      expect(outcomes.filter((outcome) => outcome !== 200 && outcome !== "ECONNREFUSED")).toEqual([]);
    } finally {
      signalled = true;
      await server.stop();
    }
  });
});
