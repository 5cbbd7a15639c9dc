import { type ChildProcess, spawn } from "node:child_process";
import type { TestDatabase } from "./databases";
import { repoRoot } from "./paths";

/**
 * What one instance does: call `exportName` of the app module `module` (a path from the repository
 * root) as `fn(db, { ...call, now })` for every call, all at once.
 */
export type InstanceWork = { module: string; exportName: string; now: Date };

/** A call that threw, by its error's code or message. */
export type CallError = { error: string };

/**
 * One Cairn instance in its own Node process: it loads the app's modules through Vite (as
 * `NODE_ENV=development node server.js` does), opens the database the way the server does, says
 * "ready", and on "go" makes its calls all at once, answering with their results as JSON.
 *
 * Tests of concurrency on SQLite need this: better-sqlite3 is synchronous, so two connections in
 * one process would block each other's event loop in SQLite's busy handler — a deadlock of the
 * test, not of Cairn. Two processes on one file are what two instances are.
 */
const instanceScript = `
import { createServer } from "vite";
const config = JSON.parse(process.env.CAIRN_TEST_INSTANCE);
const vite = await createServer({
  root: config.root,
  configFile: false,
  logLevel: "error",
  appType: "custom",
  resolve: { alias: { "~": config.root + "app" } },
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const { openDatabase } = await vite.ssrLoadModule("/app/db/database.server.ts");
  const fn = (await vite.ssrLoadModule(config.module))[config.exportName];
  const handle = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  process.stdout.write("ready\\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  process.stdin.destroy();
  const results = await Promise.all(
    config.calls.map(async (call) => {
      try {
        return await fn(handle.db, { ...call, now: new Date(config.now) });
      } catch (error) {
        return { error: String(error?.code ?? error?.message ?? error) };
      }
    }),
  );
  process.stdout.write(JSON.stringify(results) + "\\n");
  await handle.db.destroy();
} finally {
  await vite.close();
}
`;

type Instance<Result> = { ready: Promise<void>; go(): void; results: Promise<(Result | CallError)[]>; process: ChildProcess };

function startInstance<Result>(database: TestDatabase, work: InstanceWork, calls: object[]): Instance<Result> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", instanceScript], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      CAIRN_TEST_INSTANCE: JSON.stringify({
        ...work,
        now: work.now.toISOString(),
        calls,
        root: repoRoot,
        databaseUrl: database.env.DATABASE_URL,
        dataDir: database.dataDir,
      }),
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.startsWith("ready\n")) resolve();
    });
    void exited.then((code) => reject(new Error(`instance exited with ${code} before it was ready: ${stderr}`)));
  });
  const results = exited.then((code) => {
    const line = stdout.split("\n")[1];
    if (code !== 0 || !line) throw new Error(`instance exited with ${code}: ${stderr}\n${stdout}`);
    return JSON.parse(line) as (Result | CallError)[];
  });
  return { ready, go: () => child.stdin.write("go\n"), results, process: child };
}

/**
 * Starts one instance per list of calls; once every one is ready, all make their calls at the same
 * moment. Returns every result, in the order of the lists. Each process is pushed to `children`
 * as it starts, for the test's afterEach to kill should the test end first.
 */
export async function callFromInstances<Result>(
  database: TestDatabase,
  work: InstanceWork,
  callsPerInstance: object[][],
  children: ChildProcess[],
): Promise<(Result | CallError)[]> {
  const instances = callsPerInstance.map((calls) => startInstance<Result>(database, work, calls));
  children.push(...instances.map((i) => i.process));
  await Promise.all(instances.map((i) => i.ready));
  for (const instance of instances) instance.go();
  return (await Promise.all(instances.map((i) => i.results))).flat();
}
