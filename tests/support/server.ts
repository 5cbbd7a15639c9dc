import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { repoRoot } from "./paths";
import { productionNodeFlags } from "../tools/demo-instance.js";

export type RunningServer = {
  url: string;
  process: ChildProcess;
  /** Every JSON log line the server has written so far. */
  logs: Record<string, unknown>[];
  stderr: () => string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Spawns the production server (`node server.js`) as an operator would, with its memory flags given
 * (so that it starts once, not again with them) or with `nodeFlags` instead.
 */
export function spawnServer(env: Record<string, string | undefined>, { nodeFlags = productionNodeFlags() }: { nodeFlags?: string[] } = {}) {
  if (!existsSync(path.join(repoRoot, "build/server/index.js"))) {
    throw new Error("No production build: run `npm run build` before these tests (npm test does).");
  }
  const child = spawn(process.execPath, [...nodeFlags, "server.js"], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: Record<string, unknown>[] = [];
  let stdoutBuffer = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdoutBuffer += chunk.toString();
    const lines = stdoutBuffer.split("\n");
    stdoutBuffer = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line));
      } catch {
        logs.push({ text: line });
      }
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, logs, stderr: () => stderr, exited };
}

/** Starts a server on a free port and waits until /readyz answers 200. */
export async function startServer(env: Record<string, string | undefined>, options?: { nodeFlags?: string[] }): Promise<RunningServer> {
  const port = await freePort();
  const { child, logs, stderr, exited } = spawnServer({ ...env, PORT: String(port) }, options);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  for (;;) {
    if (exitCode !== undefined) throw new Error(`Server exited with ${exitCode}: ${stderr()}${JSON.stringify(logs.slice(-3))}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Server did not become ready: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    process: child,
    logs,
    stderr,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
