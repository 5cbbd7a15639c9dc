// A seeded Cairn instance for the scripts that look at the app as people use it (tests/bench/bench.js,
// tests/tools/screenshots.js): an empty database (SQLite in a temporary DATA_DIR, or a new PostgreSQL
// database), `node server.js seed`, the production server on a free 127.0.0.1 port, the seeded
// owner's session, and where the data is — read from the database, so that no script depends on
// how the pages are marked up.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { memoryFlags } from "../../memory-flags.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const demoWorkspace = "demo";
/** The seed's owner (app/seed/demo-content.ts, app/seed/seed.server.ts). */
export const demoOwner = { email: `ada@${demoWorkspace}.example.com`, password: "cairn-demo-password" };
/** The embedded database's file in DATA_DIR (app/db/database.server.ts). */
const sqliteFileName = "cairn.sqlite";
const serverEntry = path.join(repoRoot, "build/server/index.js");

/**
 * @typedef {"sqlite" | "postgres"} DemoDialect
 * @typedef {{ env: Record<string, string>, drop: () => Promise<void> }} DemoDatabase
 * @typedef {{ url: string, pid: number, stderrSummary: () => { lines: number, distinct: string[] }, stop: () => Promise<void> }} DemoServer
 * @typedef {{ key: string, issues: number, newestIssue: number }} DemoProject
 */

/**
 * The memory flags (memory-flags.js, docs/decisions/015-memory-budget.md) that `node server.js` starts
 * itself again with; given here, it starts once.
 * @returns {string[]}
 */
export function productionNodeFlags() {
  return memoryFlags;
}

/** @param {string} command @param {string[]} args */
export function runOrThrow(command, args) {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed with ${result.status}`);
}

/** The newest modification time of a file or of any file under a folder. @param {string} file @returns {number} */
function newestChange(file) {
  const stats = statSync(file);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(file).map((entry) => newestChange(path.join(file, entry))));
}

/** Builds the app when there is no production build, or when a source changed after the last one. */
export function buildIfStale() {
  const sources = ["app", "public", "package.json", "vite.config.ts", "react-router.config.ts"].map((name) => path.join(repoRoot, name));
  const why = !existsSync(serverEntry)
    ? "There is no production build yet"
    : Math.max(...sources.map(newestChange)) > statSync(serverEntry).mtimeMs ? "The sources changed after the last build" : null;
  if (!why) return;
  console.log(`${why}: building it…`);
  runOrThrow("npm", ["run", "build"]);
}

/** @param {string} url */
export async function postgresAnswers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** @param {string} adminUrl @param {string} statement */
async function onAdminConnection(adminUrl, statement) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * An empty database: a temporary DATA_DIR (SQLite's file, and the session secret for both), and on
 * PostgreSQL a new database on the server `adminUrl` points at.
 * @param {DemoDialect} dialect @param {string} [adminUrl]
 * @returns {Promise<DemoDatabase>}
 */
export async function createDemoDatabase(dialect, adminUrl) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "cairn-demo-"));
  const removeDataDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === "sqlite") return { env: { DATA_DIR: dataDir }, drop: removeDataDir };
  if (!adminUrl) throw new Error("A PostgreSQL demo database needs the server's URL.");
  const name = `cairn_demo_${randomBytes(6).toString("hex")}`;
  await onAdminConnection(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      await onAdminConnection(adminUrl, `drop database if exists ${name} with (force)`);
      await removeDataDir();
    },
  };
}

/**
 * `node server.js seed` into the database `env` names, timed.
 * @param {Record<string, string>} env @param {number} issues
 * @param {{ root?: string, node?: string }} [options] the checkout whose seed runs, and on which Node
 *   (an older commit's, on the Node it was installed for)
 */
export function seedDemo(env, issues, options = {}) {
  const started = performance.now();
  const result = spawnSync(options.node ?? process.execPath, ["server.js", "seed", "--workspace", demoWorkspace, "--issues", String(issues)], {
    cwd: options.root ?? repoRoot,
    env: { PATH: process.env.PATH, ...env },
    encoding: "utf8",
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`Seeding failed: ${result.stderr}`);
  return { seconds, output: result.stdout.trim() };
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The production server as an operator runs it, on a free port, without per-request logs (they
 * would cost time).
 * @param {Record<string, string>} env
 * @param {{ nodeOptions?: string[], root?: string, node?: string, memoryFlags?: string[] }} [options] Node's
 *   own flags (`--cpu-prof`, say); to compare two commits in one run, the checkout (built) whose server
 *   runs, the Node it runs on and the memory flags its `npm start` gives
 * @returns {Promise<DemoServer>}
 */
export async function startDemoServer(env, options = {}) {
  const port = await freePort();
  const flags = [...(options.memoryFlags ?? productionNodeFlags()), ...(options.nodeOptions ?? [])];
  const child = spawn(options.node ?? process.execPath, [...flags, "server.js"], {
    cwd: options.root ?? repoRoot,
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  // Kept and summarised rather than passed through: a warning per request would drown the progress.
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${url}/readyz`).then((response) => response.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error("The server did not become ready in 60 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: /** @type {number} */ (child.pid),
    /** What the server wrote to stderr: how many lines, and the distinct ones (process ids left out). */
    stderrSummary() {
      const lines = stderr.split("\n").filter((line) => line.trim() !== "");
      return { lines: lines.length, distinct: [...new Set(lines.map((line) => line.replace(/^\(node:\d+\) /, "")))].slice(0, 10) };
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The sign-in form's post, as a browser sends it (same-origin: cross-site posts are refused). @param {string} url */
export function signInRequest(url) {
  return { url: `${url}/login`, headers: { origin: url }, form: demoOwner };
}

/** Signs the seeded owner in over HTTP, and returns the session cookie (`name=value`). @param {string} url */
export async function signIn(url) {
  const request = signInRequest(url);
  const response = await fetch(request.url, { method: "POST", redirect: "manual", headers: request.headers, body: new URLSearchParams(request.form) });
  const cookie = response.headers.getSetCookie().map((header) => header.split(";")[0]).find((pair) => pair?.includes("session="));
  if (response.status !== 302 || !cookie) throw new Error(`Signing in failed with ${response.status}`);
  return cookie;
}

/**
 * Runs one read-only query on the instance's database. Parameters are written `?`; on PostgreSQL
 * they become `$1`, `$2`….
 * @param {Record<string, string>} env @param {string} sql @param {unknown[]} [parameters]
 * @returns {Promise<Record<string, unknown>[]>}
 */
export async function queryDemoDatabase(env, sql, parameters = []) {
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      let position = 0;
      return (await client.query(sql.replace(/\?/g, () => `$${++position}`), parameters)).rows;
    } finally {
      await client.end();
    }
  }
  const database = new Database(path.join(/** @type {string} */ (env.DATA_DIR), sqliteFileName), { readonly: true, fileMustExist: true });
  try {
    return /** @type {Record<string, unknown>[]} */ (database.prepare(sql).all(...parameters));
  } finally {
    database.close();
  }
}

/**
 * The seeded workspace's project with the most issues: its key, how many issues it has and its
 * newest issue's number.
 * @param {Record<string, string>} env @returns {Promise<DemoProject>}
 */
export async function largestDemoProject(env) {
  const [row] = await queryDemoDatabase(
    env,
    `select p.key as key, count(i.id) as issues, max(i.number) as newest
       from projects p join workspaces w on w.id = p.workspace_id join issues i on i.project_id = p.id
      where w.slug = ? and p.archived_at is null
      group by p.id, p.key
      order by count(i.id) desc, p.key
      limit 1`,
    [demoWorkspace],
  );
  if (!row) throw new Error(`The workspace ${demoWorkspace} has no project with issues.`);
  // PostgreSQL's count is a bigint, which pg hands over as a string.
  return { key: String(row.key), issues: Number(row.issues), newestIssue: Number(row.newest) };
}
