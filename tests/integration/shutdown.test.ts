import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/databases";
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
      // After the drain delay the port closes, while the request still waits for the database.
      await expect.poll(() => fetch(`${server.url}/healthz`).then(() => "open", () => "closed"), { timeout: 5000 }).toBe("closed");
      expect(server.process.exitCode).toBeNull();

      await locker.query("rollback");
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("Issue tracking for teams that ship.");
      expect(await server.exited).toBe(0);
    } finally {
      await locker.end();
      await server.stop();
    }
  });
});
