import { spawnSync } from "node:child_process";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { repoRoot } from "../support/paths";
import { type RunningServer, startServer } from "../support/server";

describe("npm run backup", () => {
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer(database.env);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("copies the SQLite database while Cairn runs", async () => {
    const ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password: "correct horse battery" })).status).toBe(302);

    const file = path.join(database.dataDir, "copies", "cairn-backup.sqlite");
    const run = spawnSync(process.execPath, ["server.js", "backup", file], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, DATA_DIR: database.dataDir },
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Backed up \d+ pages to .*cairn-backup\.sqlite/);

    const copy = new SQLite(file, { readonly: true });
    try {
      expect(copy.prepare("select email from users").all()).toEqual([{ email: "ada@example.com" }]);
    } finally {
      copy.close();
    }
    // The server keeps serving.
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it("refuses on PostgreSQL, pointing to pg_dump", () => {
    const run = spawnSync(process.execPath, ["server.js", "backup"], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" },
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("pg_dump");
  });
});
