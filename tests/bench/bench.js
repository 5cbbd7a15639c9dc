// `npm run bench [-- --duration 10 --connections 10 --warmup 2 --sizes 10000,50000 --dialects sqlite,postgres
//                    --out FILE --skip-build]`
//
// Builds Cairn, then for each database (SQLite in a temporary DATA_DIR; PostgreSQL in a new database
// on BENCH_DATABASE_URL, by default postgres://postgres@127.0.0.1:5432/postgres, skipped when it does
// not answer) and each size: seeds a workspace (`node server.js seed`, timed), starts the production
// server, signs in over HTTP, finds the pages' URLs, and measures each page with autocannon next to
// the floor: the same server answering /login signed out, a page rendered by React Router without data
// or a query. Prints a table and writes it as JSON (bench-results/bench-<time>.json by default).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import pg from "pg";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const workspace = "demo";
/** The seed's owner (app/seed/demo-content.ts, app/seed/seed.server.ts). */
const owner = { email: `ada@${workspace}.example.com`, password: "cairn-demo-password" };
/** A word many seeded titles, descriptions and comments contain. */
const searchWord = "error";
const floorPath = "/login";

/**
 * @typedef {{ duration: number, connections: number, warmup: number, sizes: number[], dialects: ("sqlite" | "postgres")[], out: string, skipBuild: boolean }} Settings
 * @typedef {{ name: string, path: string, signedIn: boolean }} Page
 * @typedef {{ status: number, htmlBytes: number, queries: number | null, dbMs: number | null, jsFiles: string[], jsGzipBytes: number }} Probe
 * @typedef {{ requestsPerSecond: number, latencyP50Ms: number, latencyP99Ms: number, requests: number, non2xx: number, errors: number }} Measurement
 * @typedef {Page & Probe & Measurement & { ratioToFloor: number }} PageResult
 * @typedef {{ dialect: string, issues: number, seedSeconds: number, seedOutput: string, peakRssMiB: number | null, serverStderr: { lines: number, distinct: string[] }, pages: PageResult[] }} Run
 * @typedef {{ env: Record<string, string>, drop: () => Promise<void> }} BenchDatabase
 */

/** @returns {Settings} */
function readSettings() {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "10" },
      warmup: { type: "string", default: "2" },
      sizes: { type: "string", default: "10000,50000" },
      dialects: { type: "string", default: "sqlite,postgres" },
      out: { type: "string", default: path.join(repoRoot, "bench-results", `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`) },
      "skip-build": { type: "boolean", default: false },
    },
    strict: true,
  });
  /** @param {string} name @param {string} raw @param {number} min */
  const wholeNumber = (name, raw, min = 1) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min) throw new Error(`--${name} must be a whole number from ${min} (got ${JSON.stringify(raw)}).`);
    return value;
  };
  const dialects = values.dialects.split(",").map((d) => d.trim());
  for (const dialect of dialects) if (dialect !== "sqlite" && dialect !== "postgres") throw new Error(`--dialects: sqlite and/or postgres (got ${dialect}).`);
  return {
    duration: wholeNumber("duration", values.duration),
    connections: wholeNumber("connections", values.connections),
    warmup: wholeNumber("warmup", values.warmup, 0),
    sizes: values.sizes.split(",").map((size) => wholeNumber("sizes", size.trim())),
    dialects: /** @type {("sqlite" | "postgres")[]} */ (dialects),
    out: path.resolve(values.out),
    skipBuild: values["skip-build"],
  };
}

/** @param {string} command @param {string[]} args */
function runOrThrow(command, args) {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed with ${result.status}`);
}

/** @param {string} url */
async function postgresAnswers(url) {
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
 * An empty database for one run: a temporary DATA_DIR (SQLite's file, and the session secret for both).
 * @param {"sqlite" | "postgres"} dialect @param {string} adminUrl
 * @returns {Promise<BenchDatabase>}
 */
async function createDatabase(dialect, adminUrl) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "cairn-bench-"));
  const removeDataDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === "sqlite") return { env: { DATA_DIR: dataDir }, drop: removeDataDir };
  const name = `cairn_bench_${randomBytes(6).toString("hex")}`;
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

/** @param {Record<string, string>} env @param {number} issues */
function seed(env, issues) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ["server.js", "seed", "--workspace", workspace, "--issues", String(issues)], {
    cwd: repoRoot,
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

/** The production server as an operator runs it, without per-request logs (they would cost time). */
async function startServer(/** @type {Record<string, string>} */ env) {
  const port = await freePort();
  const child = spawn(process.execPath, ["server.js"], {
    cwd: repoRoot,
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
    if (Date.now() > deadline) throw new Error("The server did not become ready in 60 s");
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

/** The process's peak resident set size so far (Linux), in MiB. @param {number} pid */
function peakRssMiB(pid) {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kib ? Number(kib) / 1024 : null;
  } catch {
    return null;
  }
}

/** Signs the seeded owner in as a form post would, and returns the session cookie. @param {string} url */
async function signIn(url) {
  const response = await fetch(`${url}/login`, {
    method: "POST",
    redirect: "manual",
    // Same-origin, as a browser says it: cross-site posts are refused.
    headers: { origin: url },
    body: new URLSearchParams(owner),
  });
  const cookie = response.headers.getSetCookie().map((header) => header.split(";")[0]).find((pair) => pair?.includes("session="));
  if (response.status !== 302 || !cookie) throw new Error(`Signing in failed with ${response.status}`);
  return cookie;
}

/** @param {string} url @param {string} cookie @param {string} pagePath */
async function getHtml(url, cookie, pagePath) {
  const response = await fetch(`${url}${pagePath}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  return { response, html: await response.text() };
}

/** React puts `<!-- -->` between adjacent text nodes. @param {string} html */
const text = (html) => html.replaceAll("<!-- -->", "");

/**
 * The pages to measure, found as a person would: the workspace's projects from the sidebar of My
 * issues, the one with the most issues, its newest issue, the list filtered to my issues in progress.
 * @param {string} url @param {string} cookie @returns {Promise<Page[]>}
 */
async function discoverPages(url, cookie) {
  const home = `/w/${workspace}`;
  const { html } = await getHtml(url, cookie, home);
  const keys = [...new Set([...html.matchAll(new RegExp(`href="/w/${workspace}/p/([A-Z]{2,6})(?:/issues)?"`, "g"))].map((m) => /** @type {string} */ (m[1])))];
  if (!keys.length) throw new Error(`No project links on ${home}`);
  let largest = { key: "", total: -1, html: "" };
  for (const key of keys) {
    const list = await getHtml(url, cookie, `/w/${workspace}/p/${key}/issues`);
    const total = Number(/>Issues <span[^>]*>\((\d+)\)<\/span>/.exec(text(list.html))?.[1] ?? -1);
    if (total > largest.total) largest = { key, total, html: list.html };
  }
  const project = `/w/${workspace}/p/${largest.key}`;
  const newest = new RegExp(`href="${project}/issues/(\\d+)"`).exec(largest.html)?.[1];
  if (!newest) throw new Error(`No issue links on ${project}/issues`);
  return [
    { name: "floor: /login signed out", path: floorPath, signedIn: false },
    { name: "issue list", path: `${project}/issues`, signedIn: true },
    { name: "issue list, filtered", path: `${project}/issues?status=in_progress&assignee=me`, signedIn: true },
    { name: "issue detail", path: `${project}/issues/${newest}`, signedIn: true },
    { name: "board", path: `${project}/board`, signedIn: true },
    { name: "search", path: `/w/${workspace}/search?q=${searchWord}`, signedIn: true },
    { name: "My issues", path: home, signedIn: true },
  ];
}

/**
 * The JavaScript a document makes the browser load: its module scripts and modulepreload links, and
 * what those import in turn, statically or later (web-vitals, say), by a literal path.
 * @param {string} html @returns {string[]} paths under /assets
 */
function loadedScripts(html) {
  const queue = [...html.matchAll(/["'](\/assets\/[^"']+\.js)["']/g)].map((m) => /** @type {string} */ (m[1]));
  const seen = new Set();
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(path.join(repoRoot, "build/client", file), "utf8");
    for (const m of source.matchAll(/(?:from|import)\s*\(?\s*[`"']\.\/([\w.-]+\.js)[`"']/g)) queue.push(`/assets/${m[1]}`);
  }
  return [...seen];
}

/**
 * One plain request: the status, the HTML's size, the SQL queries from Server-Timing, and the
 * JavaScript the page loads, gzipped as the server sends it.
 * @param {string} url @param {string} cookie @param {Page} page @returns {Promise<Probe>}
 */
async function probe(url, cookie, page) {
  const { response, html } = await getHtml(url, page.signedIn ? cookie : "", page.path);
  const timing = /db;dur=([\d.]+);desc="(\d+) quer/.exec(response.headers.get("server-timing") ?? "");
  const jsFiles = loadedScripts(html);
  const jsGzipBytes = jsFiles.reduce((sum, file) => sum + gzipSync(readFileSync(path.join(repoRoot, "build/client", file))).length, 0);
  return {
    status: response.status,
    htmlBytes: Buffer.byteLength(html),
    queries: timing ? Number(timing[2]) : null,
    dbMs: timing ? Number(timing[1]) : null,
    jsFiles,
    jsGzipBytes,
  };
}

/**
 * autocannon on one URL; browsers' Accept-Encoding, so pages are compressed as in real use.
 * @param {string} target @param {Record<string, string>} headers @param {number} duration @param {number} connections
 * @returns {Promise<Measurement>}
 */
async function measure(target, headers, duration, connections) {
  const result = await autocannon({ url: target, duration, connections, headers: { "accept-encoding": "gzip", ...headers } });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** @param {"sqlite" | "postgres"} dialect @param {number} issues @param {Settings} settings @param {string} adminUrl @returns {Promise<Run>} */
async function benchmarkOne(dialect, issues, settings, adminUrl) {
  const database = await createDatabase(dialect, adminUrl);
  try {
    console.log(`\n${dialect}, ${issues.toLocaleString("en")} issues: seeding…`);
    const seeded = seed(database.env, issues);
    console.log(`${seeded.output}\n(${seeded.seconds.toFixed(1)} s for the whole command)`);
    const server = await startServer(database.env);
    try {
      const cookie = await signIn(server.url);
      const pages = await discoverPages(server.url, cookie);
      // Every probe before any load, so that none includes the session's once-a-minute last-seen write.
      /** @type {Probe[]} */
      const probes = [];
      for (const page of pages) {
        const result = await probe(server.url, cookie, page);
        if (result.status !== 200) throw new Error(`${page.path} answered ${result.status}`);
        probes.push(result);
      }
      /** @type {Measurement[]} */
      const measurements = [];
      for (const page of pages) {
        /** @type {Record<string, string>} */
        const headers = page.signedIn ? { cookie } : {};
        if (settings.warmup > 0) await measure(`${server.url}${page.path}`, headers, settings.warmup, settings.connections);
        const measured = await measure(`${server.url}${page.path}`, headers, settings.duration, settings.connections);
        measurements.push(measured);
        const failed = measured.non2xx + measured.errors ? ` (${measured.non2xx} non-2xx, ${measured.errors} errors)` : "";
        console.log(`  ${page.name.padEnd(26)} ${measured.requestsPerSecond.toFixed(1).padStart(8)} req/s${failed}`);
      }
      const floor = /** @type {Measurement} */ (measurements[0]);
      const serverStderr = server.stderrSummary();
      if (serverStderr.lines) console.log(`  The server wrote ${serverStderr.lines} lines to stderr, such as: ${serverStderr.distinct[0]}`);
      return {
        dialect,
        issues,
        seedSeconds: seeded.seconds,
        seedOutput: seeded.output,
        peakRssMiB: peakRssMiB(server.pid),
        serverStderr,
        pages: pages.map((page, i) => {
          const measured = /** @type {Measurement} */ (measurements[i]);
          return { ...page, .../** @type {Probe} */ (probes[i]), ...measured, ratioToFloor: measured.requestsPerSecond / floor.requestsPerSecond };
        }),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

/** @param {Run[]} runs */
function printTable(runs) {
  const header = ["page", "database", "issues", "req/s", "p50 ms", "p99 ms", "× floor", "HTML KiB", "JS gz KiB", "queries", "peak RSS MiB"];
  const rows = runs.flatMap((run) =>
    run.pages.map((page) => [
      page.name,
      run.dialect,
      run.issues.toLocaleString("en"),
      page.requestsPerSecond.toFixed(1),
      String(page.latencyP50Ms),
      String(page.latencyP99Ms),
      page.ratioToFloor.toFixed(2),
      (page.htmlBytes / 1024).toFixed(1),
      (page.jsGzipBytes / 1024).toFixed(1),
      page.queries === null ? "?" : String(page.queries),
      run.peakRssMiB === null ? "?" : run.peakRssMiB.toFixed(0),
    ]),
  );
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  /** @param {string[]} cells */
  const line = (cells) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
  for (const row of rows) console.log(line(row));
  console.log("\nSeeding (the whole `node server.js seed` command, migrations included):");
  for (const run of runs) {
    console.log(`  ${run.dialect.padEnd(8)} ${run.issues.toLocaleString("en").padStart(7)} issues: ${run.seedSeconds.toFixed(1)} s (${((run.seedSeconds * 10_000) / run.issues).toFixed(1)} s per 10,000)`);
  }
}

async function main() {
  const settings = readSettings();
  const startedAt = new Date();
  if (!settings.skipBuild) runOrThrow("npm", ["run", "build"]);
  const adminUrl = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  /** @type {Run[]} */
  const runs = [];
  /** @type {string[]} */
  const notes = [];
  for (const dialect of settings.dialects) {
    if (dialect === "postgres" && !(await postgresAnswers(adminUrl))) {
      notes.push(`PostgreSQL skipped: nothing answers at ${new URL(adminUrl).host} (set BENCH_DATABASE_URL).`);
      console.log(notes.at(-1));
      continue;
    }
    for (const issues of settings.sizes) runs.push(await benchmarkOne(dialect, issues, settings, adminUrl));
  }
  if (runs.length) printTable(runs);
  for (const note of notes) console.log(note);

  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      memoryMiB: Math.round(os.totalmem() / 2 ** 20),
      loadAverageAtStart: os.loadavg(),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    settings: { ...settings, out: undefined },
    floor: `${floorPath} signed out: rendered by React Router with the root layout and no database query`,
    notes,
    runs,
  };
  mkdirSync(path.dirname(settings.out), { recursive: true });
  writeFileSync(settings.out, `${JSON.stringify(report, null, 2)}\n`);
  const shown = path.relative(process.cwd(), settings.out);
  console.log(`\nWritten to ${shown.startsWith("..") ? settings.out : shown}`);
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
