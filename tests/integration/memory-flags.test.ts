import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryFlags } from "../../memory-flags.js";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { spawnServer, startServer } from "../support/server";

/** A process and its descendants, each with the arguments it runs with (Linux). */
function processTree(pid: number): { pid: number; args: string[] }[] {
  const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return [{ pid, args }, ...children.flatMap(processTree)];
}

/**
 * docs/decisions/015-memory-budget.md: the memory budget holds however Cairn is started — the
 * README's systemd unit runs `node server.js` without flags, which took twice the memory.
 */
describe("node server.js without the memory flags", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("serves with them in place, one process, and stops as it is told: 0 after SIGTERM", async () => {
    const server = await startServer(database.env, { nodeFlags: [] });
    try {
      const pid = server.process.pid!;
      expect(processTree(pid)).toEqual([{ pid, args: expect.arrayContaining(memoryFlags) }]);
      expect((await fetch(`${server.url}/login`)).status).toBe(200);
      server.process.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it("keeps a value the operator gave", async () => {
    const server = await startServer(database.env, { nodeFlags: ["--max_semi_space_size=16"] });
    try {
      const serving = processTree(server.process.pid!).find((entry) => entry.args.includes("--heap-growing-percent=20"));
      expect(serving?.args).toContain("--max_semi_space_size=16");
      expect(serving?.args.filter((arg) => arg.startsWith("--max-semi-space-size"))).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it("ends as the server does: a bad configuration stops it with 1 and one line", async () => {
    const { exited, stderr } = spawnServer({ PORT: "not-a-port", DATA_DIR: "/tmp/cairn-never-used" }, { nodeFlags: [] });
    expect(await exited).toBe(1);
    expect(stderr().trim().split("\n")).toEqual([expect.stringContaining("PORT must be a whole number from 1 to 65535")]);
  });
});
