// `npm run bench [-- --duration 10 --connections 10 --warmup 2 --sizes 10000,50000 --dialects sqlite,postgres
//                    --out FILE --skip-build --profile]`
//
// Builds Cairn, then for each database (SQLite in a temporary DATA_DIR; PostgreSQL in a new database
// on BENCH_DATABASE_URL, by default postgres://postgres@127.0.0.1:5432/postgres, skipped when it does
// not answer) and each size: seeds a workspace (`node server.js seed`, timed), starts the production
// server, signs in over HTTP, attaches a 1 MiB PNG to an issue (to download it too), finds the pages' URLs (from the database, not the markup), and measures each page with autocannon next to
// the floor: the same server answering /login signed out, a page rendered by React Router without data
// or a query — and next to a fixed reference, a bare Node HTTP server answering the floor's HTML gzipped
// (tests/bench/reference-server.js), so that a faster floor shows as the gain it is. With --profile,
// each page is measured once more on a server run with `--cpu-prof`, and where its main thread's time
// went is printed by package. Prints a table and writes it as JSON (bench-results/bench-<time>.json by default).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  queryDemoDatabase,
  repoRoot,
  runOrThrow,
  seedDemo,
  signIn,
  startDemoServer,
} from "../tools/demo-instance.js";
import { summariseCpuProfile } from "./cpu-profile.js";
import { pngBytes } from "../support/files.js";

/** A word many seeded titles, descriptions and comments contain. */
const searchWord = "error";
const floorPath = "/login";

/**
 * @typedef {{ duration: number, connections: number, warmup: number, sizes: number[], dialects: ("sqlite" | "postgres")[], out: string, skipBuild: boolean, profile: boolean }} Settings
 * @typedef {{ name: string, path: string, signedIn: boolean, api?: boolean }} Page
 * @typedef {{ status: number, htmlBytes: number, htmlGzipBytes: number, queries: number | null, dbMs: number | null, jsFiles: string[], jsGzipBytes: number, laterJsFiles: string[], laterJsGzipBytes: number }} Probe
 * @typedef {{ requestsPerSecond: number, latencyP50Ms: number, latencyP99Ms: number, requests: number, non2xx: number, errors: number }} Measurement
 * @typedef {{ p50Ms: number, p99Ms: number, maxMs: number }} BystanderLatency
 * @typedef {Page & Probe & Measurement & { ratioToFloor: number, ratioToReference: number, bystander: BystanderLatency, profile?: ReturnType<typeof summariseCpuProfile> }} PageResult
 * @typedef {{ dialect: string, issues: number, seedSeconds: number, seedOutput: string, peakRssMiB: number | null, reference: Measurement, serverStderr: { lines: number, distinct: string[] }, pages: PageResult[] }} Run
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
      profile: { type: "boolean", default: false },
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
    profile: values.profile,
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

/** @param {string} url @param {Record<string, string>} headers @param {string} pagePath */
async function getHtml(url, headers, pagePath) {
  const response = await fetch(`${url}${pagePath}`, { redirect: "manual", headers });
  return { response, html: await response.text() };
}

/** The size of the file the bench downloads: a screenshot's, noise so that nothing compresses it. */
const benchFileBytes = 1024 * 1024;

/**
 * Attaches a 1 MiB PNG to the project's first issue through its attach form (multipart, as a
 * browser sends it), for the bench to download: the file's address, from the database.
 * @param {string} url @param {string} cookie @param {Record<string, string>} env @param {string} project the project's path
 * @returns {Promise<Page>}
 */
async function attachBenchFile(url, cookie, env, project) {
  const side = Math.ceil(Math.sqrt(benchFileBytes / 3));
  const form = new FormData();
  form.append("intent", "attach");
  form.append("file", new Blob([new Uint8Array(pngBytes(side, side, "noise"))], { type: "image/png" }), "screenshot.png");
  const response = await fetch(`${url}${project}/issues/1`, { method: "POST", body: form, redirect: "manual", headers: { cookie, origin: url } });
  if (response.status !== 302) throw new Error(`Attaching the bench's file failed with ${response.status}`);
  const [row] = await queryDemoDatabase(env, "select id, size from attachments order by id desc limit 1");
  const id = Number(row?.id);
  return { name: `file: ${(Number(row?.size) / 1024 / 1024).toFixed(1)} MiB PNG`, path: `/w/${demoWorkspace}/attachments/${id}/screenshot.png`, signedIn: true };
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
    // Every column asked for 500 cards: the board's cap (600 cards, decision record 027) is what it renders.
    { name: "board, every column at 500", path: `${project}/board?${["backlog", "todo", "in_progress", "in_review", "done", "canceled"].map((status) => `show.${status}=500`).join("&")}`, signedIn: true },
    { name: "search", path: `${home}/search?q=${searchWord}`, signedIn: true },
    { name: "My issues", path: home, signedIn: true },
    // The JSON API, with a bearer token of the same person: a page of 50 issues, and one issue.
    { name: "API: GET issues", path: `/api/v1/workspaces/${demoWorkspace}/projects/${largest.key}/issues`, signedIn: true, api: true },
    { name: "API: GET issues?assignee=me", path: `/api/v1/workspaces/${demoWorkspace}/projects/${largest.key}/issues?status=in_progress&assignee=me`, signedIn: true, api: true },
    { name: "API: GET issue", path: `/api/v1/workspaces/${demoWorkspace}/projects/${largest.key}/issues/${largest.newestIssue}`, signedIn: true, api: true },
  ];
}

/**
 * The API is measured, not its rate limit: the bench's token may make a million requests a minute.
 * @param {Record<string, string>} env @returns {Record<string, string>}
 */
const benchEnv = (env) => ({ ...env, API_RATE_LIMIT: "1000000" });

/**
 * The headers a page is asked with: the session cookie, or for the API a bearer token made at
 * /settings/tokens with that session.
 * @param {string} url @param {string} cookie @returns {Promise<(page: Page) => Record<string, string>>}
 */
async function requestHeaders(url, cookie) {
  const response = await fetch(`${url}/settings/tokens`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: url },
    body: new URLSearchParams({ intent: "create", name: `bench ${Date.now()}`, scope: "read", expiresInDays: "30" }),
  });
  const token = /value="(cairn_pat_[0-9A-Za-z]+)"/.exec(await response.text())?.[1];
  if (!token) throw new Error(`Making an API token failed with ${response.status}`);
  return (page) => {
    /** @type {Record<string, string>} */
    const headers = page.api ? { authorization: `Bearer ${token}` } : page.signedIn ? { cookie } : {};
    return headers;
  };
}

/**
 * The JavaScript a document makes the browser load: first, its module scripts, modulepreload links and
 * inline module imports, and what those import statically — everything the page needs before it is interactive; later, what
 * any of them imports dynamically (`import("./x.js")`, web-vitals say) and what that imports in turn.
 * @param {string} html @returns {{ first: string[], later: string[] }} paths under /assets
 */
function loadedScripts(html) {
  /** @param {string[]} start @param {Set<string>} seen @returns {string[]} the dynamic imports met */
  const follow = (start, seen) => {
    const queue = [...start];
    /** @type {string[]} */
    const dynamic = [];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (seen.has(file)) continue;
      seen.add(file);
      const source = readFileSync(path.join(repoRoot, "build/client", file), "utf8");
      for (const m of source.matchAll(/(?:from|import)\s*(\(?)\s*[`"']\.\/([\w.-]+\.js)[`"']/g)) (m[1] ? dynamic : queue).push(`/assets/${m[2]}`);
    }
    return dynamic;
  };
  // What the document itself loads: modulepreload links, module scripts, and the inline module
  // script's imports — not every path in it (its route manifest names routes the page never loads).
  const loadedByDocument = [
    ...html.matchAll(/<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/g),
    ...html.matchAll(/<script[^>]* src="(\/assets\/[^"]+\.js)"/g),
    ...html.matchAll(/import (?:[\w*\s{},]+ from )?"(\/assets\/[^"]+\.js)"/g),
  ].map((m) => /** @type {string} */ (m[1]));
  const first = new Set();
  let pending = follow(loadedByDocument, first);
  // Seen before a later chunk is followed, so that what the first load has is not counted again.
  const later = new Set(first);
  while (pending.length) pending = follow(pending, later);
  for (const file of first) later.delete(file);
  return { first: [...first], later: [...later] };
}

/** What the server sends for these files: the gzip copy the build made of each. @param {string[]} files */
const gzippedSize = (files) => files.reduce((sum, file) => sum + readFileSync(path.join(repoRoot, "build/client", `${file}.gz`)).length, 0);

/**
 * One plain request: the status, the HTML's size, the SQL queries from Server-Timing, and the
 * JavaScript the page loads, gzipped as the server sends it.
 * @param {string} url @param {Record<string, string>} headers @param {Page} page @returns {Promise<Probe>}
 */
async function probe(url, headers, page) {
  const { response, html } = await getHtml(url, headers, page.path);
  const timing = /db;dur=([\d.]+);desc="(\d+) quer/.exec(response.headers.get("server-timing") ?? "");
  // A file (the PNG) is sent as it is, its bytes not text: its size, no scripts.
  const type = response.headers.get("content-type") ?? "";
  const file = !/^(text\/|application\/json)/.test(type);
  const scripts = type.startsWith("text/html") ? loadedScripts(html) : { first: [], later: [] };
  const fileBytes = Number(response.headers.get("content-length"));
  return {
    status: response.status,
    htmlBytes: file ? fileBytes : Buffer.byteLength(html),
    htmlGzipBytes: file ? fileBytes : gzipSync(html).length,
    queries: timing ? Number(timing[2]) : null,
    dbMs: timing ? Number(timing[1]) : null,
    jsFiles: scripts.first,
    jsGzipBytes: gzippedSize(scripts.first),
    laterJsFiles: scripts.later,
    laterJsGzipBytes: gzippedSize(scripts.later),
  };
}

/**
 * What a page under load does to everyone else: while it is measured, /healthz (answered by the
 * host, before React Router, without the database) is asked 20 times a second on a connection of
 * its own. Its latency is the time it waited for the event loop — a long render blocks it.
 * @param {string} url @param {number} duration @returns {Promise<BystanderLatency>}
 */
async function bystanderLatency(url, duration) {
  const result = await autocannon({ url: `${url}/healthz`, duration, connections: 1, overallRate: 20 });
  return { p50Ms: result.latency.p50, p99Ms: result.latency.p99, maxMs: result.latency.max };
}

/**
 * Starts the reference server on a copy of `html`. @param {string} html
 * @returns {Promise<{ url: string, stop: () => void }>}
 */
async function startReferenceServer(html) {
  const folder = mkdtempSync(path.join(os.tmpdir(), "cairn-reference-"));
  const file = path.join(folder, "floor.html");
  writeFileSync(file, html);
  const child = spawn(process.execPath, [path.join(repoRoot, "tests/bench/reference-server.js"), file], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once("data", (chunk) => resolve(String(chunk).trim()));
    child.once("exit", (code) => reject(new Error(`The reference server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop() {
      child.kill("SIGTERM");
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Each page under load again, each on its own server started with `--cpu-prof`: where the main
 * thread's time went, by package. @param {Record<string, string>} env @param {Page[]} pages @param {Settings} settings
 */
async function profilePages(env, pages, settings) {
  /** @type {ReturnType<typeof summariseCpuProfile>[]} */
  const profiles = [];
  for (const page of pages) {
    const folder = mkdtempSync(path.join(os.tmpdir(), "cairn-profile-"));
    const server = await startDemoServer(benchEnv(env), { nodeOptions: ["--cpu-prof", `--cpu-prof-dir=${folder}`] });
    try {
      const headers = (await requestHeaders(server.url, await signIn(server.url)))(page);
      await measure(`${server.url}${page.path}`, headers, settings.duration, settings.connections);
    } finally {
      await server.stop();
    }
    const [file] = readdirSync(folder).filter((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error(`No CPU profile was written for ${page.name}`);
    const profile = summariseCpuProfile(path.join(folder, file));
    rmSync(folder, { recursive: true, force: true });
    profiles.push(profile);
    const top = profile.groups.slice(0, 8).map((group) => `${group.group} ${(group.share * 100).toFixed(1)} %`).join(", ");
    console.log(`  profile of ${page.name}: ${top}`);
  }
  return profiles;
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
    const server = await startDemoServer(benchEnv(database.env));
    try {
      const cookie = await signIn(server.url);
      const headersOf = await requestHeaders(server.url, cookie);
      const pages = await benchedPages(database.env);
      pages.push(await attachBenchFile(server.url, cookie, database.env, /** @type {Page} */ (pages[1]).path.replace(/\/issues$/, "")));
      // Every probe before any load, so that none includes the session's once-a-minute last-seen write.
      /** @type {Probe[]} */
      const probes = [];
      for (const page of pages) {
        const result = await probe(server.url, headersOf(page), page);
        if (result.status !== 200) throw new Error(`${page.path} answered ${result.status}`);
        probes.push(result);
      }
      /** @type {Measurement[]} */
      const measurements = [];
      /** @type {BystanderLatency[]} */
      const bystanders = [];
      for (const page of pages) {
        const headers = headersOf(page);
        if (settings.warmup > 0) await measure(`${server.url}${page.path}`, headers, settings.warmup, settings.connections);
        const [measured, bystander] = await Promise.all([
          measure(`${server.url}${page.path}`, headers, settings.duration, settings.connections),
          bystanderLatency(server.url, settings.duration),
        ]);
        measurements.push(measured);
        bystanders.push(bystander);
        const failed = measured.non2xx + measured.errors ? ` (${measured.non2xx} non-2xx, ${measured.errors} errors)` : "";
        console.log(`  ${page.name.padEnd(26)} ${measured.requestsPerSecond.toFixed(1).padStart(8)} req/s${failed}`);
      }
      const floor = /** @type {Measurement} */ (measurements[0]);
      const { html: floorHtml } = await getHtml(server.url, {}, floorPath);
      const referenceServer = await startReferenceServer(floorHtml);
      /** @type {Measurement} */
      let reference;
      try {
        if (settings.warmup > 0) await measure(referenceServer.url, {}, settings.warmup, settings.connections);
        reference = await measure(referenceServer.url, {}, settings.duration, settings.connections);
      } finally {
        referenceServer.stop();
      }
      console.log(`  ${"reference (bare Node)".padEnd(26)} ${reference.requestsPerSecond.toFixed(1).padStart(8)} req/s`);
      const peakRss = peakRssMiB(server.pid);
      const serverStderr = server.stderrSummary();
      const profiles = settings.profile ? await profilePages(database.env, pages, settings) : undefined;
      if (serverStderr.lines) console.log(`  The server wrote ${serverStderr.lines} lines to stderr, such as: ${serverStderr.distinct[0]}`);
      return {
        dialect,
        issues,
        seedSeconds: seeded.seconds,
        seedOutput: seeded.output,
        peakRssMiB: peakRss,
        reference,
        serverStderr,
        pages: pages.map((page, i) => {
          const measured = /** @type {Measurement} */ (measurements[i]);
          return {
            ...page,
            .../** @type {Probe} */ (probes[i]),
            ...measured,
            ratioToFloor: measured.requestsPerSecond / floor.requestsPerSecond,
            ratioToReference: measured.requestsPerSecond / reference.requestsPerSecond,
            bystander: /** @type {BystanderLatency} */ (bystanders[i]),
            profile: profiles?.[i],
          };
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
  const header = ["page", "database", "issues", "req/s", "p50 ms", "p99 ms", "× floor", "× ref", "others p99 ms", "HTML KiB", "HTML gz KiB", "JS gz KiB", "later JS", "queries", "peak RSS MiB"];
  const rows = runs.flatMap((run) =>
    run.pages.map((page) => [
      page.name,
      run.dialect,
      run.issues.toLocaleString("en"),
      page.requestsPerSecond.toFixed(1),
      String(page.latencyP50Ms),
      String(page.latencyP99Ms),
      page.ratioToFloor.toFixed(2),
      page.ratioToReference.toFixed(3),
      String(page.bystander.p99Ms),
      (page.htmlBytes / 1024).toFixed(1),
      (page.htmlGzipBytes / 1024).toFixed(1),
      (page.jsGzipBytes / 1024).toFixed(1),
      (page.laterJsGzipBytes / 1024).toFixed(1),
      page.queries === null ? "?" : String(page.queries),
      run.peakRssMiB === null ? "?" : run.peakRssMiB.toFixed(0),
    ]),
  );
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  /** @param {string[]} cells */
  const line = (cells) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
  for (const row of rows) console.log(line(row));
  console.log("\nThe reference (a bare Node HTTP server answering the floor's HTML, gzipped once):");
  for (const run of runs) console.log(`  ${run.dialect.padEnd(8)} ${run.issues.toLocaleString("en").padStart(7)} issues: ${run.reference.requestsPerSecond.toFixed(1)} req/s`);
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
