import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { repoRoot } from "../support/paths";
import { freePort } from "../support/server";

/**
 * `npm run dev` (`NODE_ENV=development node server.js`): under React Router 8 the server needs Node's
 * `development` condition, which it gives itself by starting again (docs/decisions/033-react-router-8.md);
 * without it every page failed with a 500.
 */
describe("the development server", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("serves a page, in one process started again with the development condition", { timeout: 120_000 }, async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["server.js"], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOST: "127.0.0.1", NODE_ENV: "development", PORT: String(port), ...database.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      // Vite optimises the browser's dependencies on its first start, which takes a while.
      const deadline = Date.now() + 90_000;
      let response: Response | undefined;
      while (!response) {
        if (child.exitCode !== null) throw new Error(`The development server exited with ${child.exitCode}: ${output}`);
        if (Date.now() > deadline) throw new Error(`The development server did not answer: ${output}`);
        response = await fetch(`http://127.0.0.1:${port}/login`).catch(() => undefined);
        if (!response) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(response.status, output).toBe(200);
      expect(await response.text()).toContain("<title>Sign in · Cairn</title>");
      const args = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0");
      expect(args).toContain("--conditions=development");
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });
});
