import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { productionNodeFlags } from "../tools/demo-instance.js";
import { createTestDatabase } from "../support/databases";
import { repoRoot } from "../support/paths";
import { freePort, spawnServer, startServer } from "../support/server";

describe("start-up with a bad configuration value", () => {
  it.each([
    ["PORT", "not-a-port", "PORT must be a whole number from 1 to 65535"],
    ["DATABASE_URL", "mysql://localhost/cairn", "DATABASE_URL must be a postgres:// or postgresql:// URL"],
    ["LOG_LEVEL", "chatty", "LOG_LEVEL must be one of"],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318", "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL"],
  ])("%s=%s stops with one clear line and no stack trace", async (variable, value, expected) => {
    const { exited, stderr, logs } = spawnServer({ [variable]: value, DATA_DIR: "/tmp/cairn-never-used" });
    expect(await exited).toBe(1);
    const lines = stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Invalid configuration: ${expected}`);
    expect(lines[0]).toContain(JSON.stringify(value));
    expect(stderr()).not.toMatch(/\bat .*:\d+/);
    expect(logs).toEqual([]);
  });
});

// Issue 30 (8): what start-up tells the person who ran it, and the operator reading its logs.
describe("start-up messages", () => {
  it("logs the address to open as its message, and warns that mail from an IP address is often refused", async () => {
    const database = await createTestDatabase("sqlite");
    const server = await startServer({ ...database.env, SMTP_URL: "smtp://127.0.0.1:9", PUBLIC_URL: "http://127.0.0.1:3000" });
    try {
      expect(server.logs).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: 'Mail will come from cairn@127.0.0.1, an address many mail servers refuse: set MAIL_FROM to a sender of your own domain, such as "Cairn <cairn@example.com>".',
        }),
      );
      await expect.poll(() => server.logs).toContainEqual(expect.objectContaining({ level: 30, msg: `Cairn is listening on ${server.url}`, url: server.url }));
      // Its standard output is no terminal: JSON lines only, for a log collector.
      expect(server.logs.filter((line) => "text" in line)).toEqual([]);
    } finally {
      await server.stop();
      await database.drop();
    }
  });

  it.skipIf(spawnSync("script", ["--version"]).status !== 0)("in a terminal, also prints the address to open as a plain line", async () => {
    const database = await createTestDatabase("sqlite");
    const port = await freePort();
    // util-linux's `script` runs the server on a pseudo-terminal, as `npm start` in a terminal does.
    const command = [process.execPath, ...productionNodeFlags(), "server.js"].join(" ");
    const child = spawn("script", ["--quiet", "--flush", "--return", "--command", command, "/dev/null"], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "info", ...database.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const lines = () => output.split(/\r?\n/);
      const plain = `Cairn is listening on http://127.0.0.1:${port}`;
      await expect.poll(lines, { timeout: 30_000 }).toContain(plain);
      // The JSON line too, for whoever collects the logs.
      await expect.poll(() => lines().some((line) => line.startsWith("{") && JSON.parse(line).msg === plain)).toBe(true);
    } finally {
      child.kill("SIGTERM");
      await exited;
      await database.drop();
    }
  });
});
