// `npm run bench [-- --duration 10 --connections 10 --warmup 2 --sizes 10000,50000 --dialects sqlite,postgres
//                    --out FILE --skip-build]`
//
// Builds Cairn, then for each database (SQLite in a temporary DATA_DIR; PostgreSQL in a new database
// on BENCH_DATABASE_URL, by default postgres://postgres@127.0.0.1:5432/postgres, skipped when it does
// not answer) and each size: seeds a workspace (`node server.js seed`, timed), starts the production
// server, signs in over HTTP, finds the pages' URLs (from the database, not the markup), and measures each page with autocannon next to
// the floor: the same server answering /login signed out, a page rendered by React Router without data
// or a query. Prints a table and writes it as JSON (bench-results/bench-<time>.json by default).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import {
  createDemoDatabase,
  demoWorkspace,
  largestDemoProject,
  postgresAnswers,
  repoRoot,
  runOrThrow,
  seedDemo,
  signIn,
  startDemoServer,
} from "../tools/demo-instance.js";

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

/** The process's peak resident set size so far (Linux), in MiB. @param {number} pid */
function peakRssMiB(pid) {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kib ? Number(kib) / 1024 : null;
  } catch {
    return null;
  }
}

/** @param {string} url @param {string} cookie @param {string} pagePath */
async function getHtml(url, cookie, pagePath) {
  const response = await fetch(`${url}${pagePath}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  return { response, html: await response.text() };
}

/**
 * The pages to measure: the project with the most issues (read from the database, so that a change
 * of markup cannot break the bench), its newest issue, the list filtered to my issues in progress.
 * @param {Record<string, string>} env @returns {Promise<Page[]>}
 */
async function benchedPages(env) {
  const home = `/w/${demoWorkspace}`;
  const largest = await largestDemoProject(env);
  const project = `${home}/p/${largest.key}`;
  return [
    { name: "floor: /login signed out", path: floorPath, signedIn: false },
    { name: "issue list", path: `${project}/issues`, signedIn: true },
    { name: "issue list, filtered", path: `${project}/issues?status=in_progress&assignee=me`, signedIn: true },
    { name: "issue detail", path: `${project}/issues/${largest.newestIssue}`, signedIn: true },
    { name: "board", path: `${project}/board`, signedIn: true },
    { name: "search", path: `${home}/search?q=${searchWord}`, signedIn: true },
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
  const database = await createDemoDatabase(dialect, adminUrl);
  try {
    console.log(`\n${dialect}, ${issues.toLocaleString("en")} issues: seeding…`);
    const seeded = seedDemo(database.env, issues);
    console.log(`${seeded.output}\n(${seeded.seconds.toFixed(1)} s for the whole command)`);
    const server = await startDemoServer(database.env);
    try {
      const cookie = await signIn(server.url);
      const pages = await benchedPages(database.env);
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
