import { spawnSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFileName } from "~/db/database.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { pngBytes } from "../support/files.js";
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

  it("copies the SQLite database while Cairn runs, attachments and all", async () => {
    const ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password: "correct horse battery" })).status).toBe(302);
    expect((await ada.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    expect((await ada.post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" })).status).toBe(302);
    // A new issue with a screenshot, as a browser without JavaScript sends it.
    const screenshot = pngBytes(320, 200);
    const form = new FormData();
    form.append("title", "Login page is blank");
    form.append("file", new Blob([new Uint8Array(screenshot)], { type: "image/png" }), "screenshot.png");
    const filed = await fetch(`${server.url}/w/acme/p/WEB/issues/new`, { method: "POST", body: form, redirect: "manual", headers: { cookie: ada.cookieHeader(), origin: server.url } });
    expect(filed.status).toBe(302);

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

    // Restored as an operator would (the copy as the database of a new DATA_DIR), Cairn serves the file.
    const restored = await createTestDatabase("sqlite");
    copyFileSync(file, path.join(restored.dataDir, sqliteFileName));
    const second = await startServer(restored.env);
    try {
      const again = new BrowserlessClient(second.url);
      expect((await again.post("/login", { email: "ada@example.com", password: "correct horse battery" })).status).toBe(302);
      const issue = await (await again.get("/w/acme/p/WEB/issues/1")).text();
      const href = /href="(\/w\/acme\/attachments\/\d+\/screenshot\.png)"/.exec(issue)?.[1];
      expect(href).toBeDefined();
      const served = await again.get(href!);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), screenshot)).toBe(0);
    } finally {
      await second.stop();
      await restored.drop();
    }
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
