/**
 * The Server-Timing header (issue 6): every response of the production server says how many SQL
 * queries it ran and how long they took, counted per request even when requests overlap.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

/** The number of queries and their total duration, from `db;dur=3.2;desc="5 queries"`. */
function databaseTiming(response: Response): { queries: number; durationMs: number } {
  const header = response.headers.get("server-timing") ?? "";
  const match = /^db;dur=(\d+\.\d);desc="(\d+) quer(?:y|ies)"$/.exec(header);
  if (!match) throw new Error(`No database timing in Server-Timing: ${JSON.stringify(header)}`);
  return { durationMs: Number(match[1]), queries: Number(match[2]) };
}

describe.each(testDialects)("Server-Timing on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let ada: BrowserlessClient;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password: "correct horse battery" })).status).toBe(302);
    expect((await ada.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("counts the queries a signed-in page runs", async () => {
    const page = await ada.get("/w/acme");
    expect(page.status).toBe(200);
    const timing = databaseTiming(page);
    // The session, the workspace with its sidebar, My issues' page: a handful, never more than the
    // six a page may take (issue 13), and none per row.
    expect(timing.queries).toBeGreaterThanOrEqual(3);
    expect(timing.queries).toBeLessThanOrEqual(6);
    expect(timing.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("says 0 for a page that needs no data, and 1 for the readiness check", async () => {
    const signedOut = await fetch(`${server.url}/login`);
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.get("server-timing")).toBe('db;dur=0.0;desc="0 queries"');
    expect(databaseTiming(await fetch(`${server.url}/readyz`)).queries).toBe(1);
  });

  it("counts each request on its own while requests overlap", async () => {
    const alone = databaseTiming(await ada.get("/w/acme")).queries;
    const together = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? fetch(`${server.url}/login`) : ada.get("/w/acme"))));
    expect(together.map((response) => databaseTiming(response).queries)).toEqual(together.map((_, i) => (i % 2 ? 0 : alone)));
  });
});
