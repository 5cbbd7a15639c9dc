// `npm run bench [-- --duration 10 --connections 10 --warmup 2 --rate 20 --rate-duration 10
//                    --sizes 10000,50000 --dialects sqlite,postgres --baseline REF [--baseline-node NODE]
//                    --out FILE --skip-build --profile]`
//
// Builds Cairn (and with --baseline an older commit beside it, tests/bench/baseline.js), then for each
// database (SQLite in a temporary DATA_DIR; PostgreSQL in a new database on BENCH_DATABASE_URL, by
// default postgres://postgres@127.0.0.1:5432/postgres, skipped when it does not answer) and each size:
// seeds a workspace for each build with its own `node server.js seed` (timed), starts each build's
// production server, signs in over HTTP, attaches a 1 MiB PNG to an issue (to download it too), finds
// the pages' URLs (from the database, not the markup), and measures each page on each build in turn:
// requests per second at saturation (autocannon), and the latency of requests sent at a fixed rate
// (tests/bench/open-loop.js). The headline is a page's requests per second per mille of a fixed
// reference measured in the same run, a bare Node HTTP server answering the floor's HTML gzipped
// (tests/bench/reference-server.js), so that what a page costs shows whatever the machine; beside it
// the floor: the same server answering /login signed out, a page rendered by React Router without
// data or a query. Each server's peak RSS covers its whole run. With --profile, each page is measured
// once more on a server of this checkout run with `--cpu-prof`, and where its main thread's time went
// is printed by package. Prints a table, the same as Markdown, and writes it as JSON
// (bench-results/bench-<time>.json by default).
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
import { baselineBuild, currentBuild } from "./baseline.js";
import { summariseCpuProfile } from "./cpu-profile.js";
import { openLoop } from "./open-loop.js";
import { pngBytes } from "../support/files.js";

/** A word many seeded titles, descriptions and comments contain. */
const searchWord = "error";
const floorPath = "/login";

/**
 * @typedef {import("./baseline.js").Build} Build
 * @typedef {import("./open-loop.js").OpenLoopResult} OpenLoopResult
 * @typedef {{ duration: number, connections: number, warmup: number, rate: number, rateDuration: number, sizes: number[], dialects: ("sqlite" | "postgres")[], baseline: string | null, baselineNode: string | null, out: string, skipBuild: boolean, profile: boolean }} Settings
 * @typedef {{ name: string, path: string, signedIn: boolean, api?: boolean }} Page
 * @typedef {{ status: number, htmlBytes: number, htmlGzipBytes: number, queries: number | null, dbMs: number | null, jsFiles: string[], jsGzipBytes: number, laterJsFiles: string[], laterJsGzipBytes: number }} Probe
 * @typedef {{ requestsPerSecond: number, latencyP50Ms: number, latencyP99Ms: number, requests: number, non2xx: number, errors: number }} Measurement
 * @typedef {{ p50Ms: number, p99Ms: number, maxMs: number }} BystanderLatency
 * @typedef {Page & Probe & Measurement & { perMilleOfReference: number, ratioToFloor: number, bystander: BystanderLatency, openLoop: OpenLoopResult, peakRssMiBSoFar: number | null, profile?: ReturnType<typeof summariseCpuProfile> }} PageResult
 * @typedef {{ build: string, commit: string, node: string, nodeVersion: string, seedSeconds: number, seedOutput: string, peakRssMiB: number | null, serverStderr: { lines: number, distinct: string[] }, pages: PageResult[] }} BuildRun
 * @typedef {{ dialect: string, issues: number, reference: Measurement, referenceRuns: Measurement[], builds: BuildRun[] }} Run
 */

/** @returns {Settings} */
function readSettings() {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "10" },
      warmup: { type: "string", default: "2" },
      rate: { type: "string", default: "20" },
      "rate-duration": { type: "string", default: "10" },
      sizes: { type: "string", default: "10000,50000" },
      dialects: { type: "string", default: "sqlite,postgres" },
      baseline: { type: "string" },
      "baseline-node": { type: "string" },
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
    rate: wholeNumber("rate", values.rate),
    rateDuration: wholeNumber("rate-duration", values["rate-duration"]),
    sizes: values.sizes.split(",").map((size) => wholeNumber("sizes", size.trim())),
    dialects: /** @type {("sqlite" | "postgres")[]} */ (dialects),
    baseline: values.baseline ?? null,
    baselineNode: values["baseline-node"] ? path.resolve(values["baseline-node"]) : null,
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
 * @param {string} html @param {string} root the checkout whose build sent it
 * @returns {{ first: string[], later: string[] }} paths under /assets
 */
function loadedScripts(html, root) {
  /** @param {string[]} start @param {Set<string>} seen @returns {string[]} the dynamic imports met */
  const follow = (start, seen) => {
    const queue = [...start];
    /** @type {string[]} */
    const dynamic = [];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (seen.has(file)) continue;
      seen.add(file);
      const source = readFileSync(path.join(root, "build/client", file), "utf8");
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

/** What the server sends for these files: the gzip copy the build made of each. @param {string[]} files @param {string} root */
const gzippedSize = (files, root) => files.reduce((sum, file) => sum + readFileSync(path.join(root, "build/client", `${file}.gz`)).length, 0);

/**
 * One plain request: the status, the HTML's size, the SQL queries from Server-Timing, and the
 * JavaScript the page loads, gzipped as the server sends it.
 * @param {string} url @param {Record<string, string>} headers @param {Page} page @param {string} root the checkout whose server answers
 * @returns {Promise<Probe>}
 */
async function probe(url, headers, page, root) {
  const { response, html } = await getHtml(url, headers, page.path);
  const timing = /db;dur=([\d.]+);desc="(\d+) quer/.exec(response.headers.get("server-timing") ?? "");
  // A file (the PNG) is sent as it is, its bytes not text: its size, no scripts.
  const type = response.headers.get("content-type") ?? "";
  const file = !/^(text\/|application\/json)/.test(type);
  const scripts = type.startsWith("text/html") ? loadedScripts(html, root) : { first: [], later: [] };
  const fileBytes = Number(response.headers.get("content-length"));
  return {
    status: response.status,
    htmlBytes: file ? fileBytes : Buffer.byteLength(html),
    htmlGzipBytes: file ? fileBytes : gzipSync(html).length,
    queries: timing ? Number(timing[2]) : null,
    dbMs: timing ? Number(timing[1]) : null,
    jsFiles: scripts.first,
    jsGzipBytes: gzippedSize(scripts.first, root),
    laterJsFiles: scripts.later,
    laterJsGzipBytes: gzippedSize(scripts.later, root),
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

/**
 * One build's server on a database of its own, seeded by its own seed command (an older commit's
 * schema may differ; the seed's content is drawn from a fixed pseudo-random sequence), signed in, its
 * pages found and probed.
 * @typedef {{ build: Build, env: Record<string, string>, seeded: { seconds: number, output: string }, server: import("../tools/demo-instance.js").DemoServer, headersOf: (page: Page) => Record<string, string>, pages: Page[], probes: Probe[] }} Side
 * @param {Build} build @param {"sqlite" | "postgres"} dialect @param {number} issues @param {string} adminUrl
 * @param {(cleanUp: () => Promise<void>) => void} onCleanUp what undoes each step, run last-first when the run ends
 * @returns {Promise<Side>}
 */
async function prepareSide(build, dialect, issues, adminUrl, onCleanUp) {
  const database = await createDemoDatabase(dialect, adminUrl);
  onCleanUp(() => database.drop());
  console.log(`\n${dialect}, ${issues.toLocaleString("en")} issues, ${build.label} (Node ${build.nodeVersion}): seeding…`);
  const env = { ...database.env, ...build.env };
  const seeded = seedDemo(env, issues, { root: build.root, node: build.node });
  console.log(`${seeded.output}\n(${seeded.seconds.toFixed(1)} s for the whole command)`);
  const server = await startDemoServer(benchEnv(env), { root: build.root, node: build.node, memoryFlags: build.nodeFlags });
  onCleanUp(() => server.stop());
  const cookie = await signIn(server.url);
  const headersOf = await requestHeaders(server.url, cookie);
  const pages = await benchedPages(database.env);
  pages.push(await attachBenchFile(server.url, cookie, database.env, /** @type {Page} */ (pages[1]).path.replace(/\/issues$/, "")));
  // Every probe before any load, so that none includes the session's once-a-minute last-seen write.
  /** @type {Probe[]} */
  const probes = [];
  for (const page of pages) {
    const result = await probe(server.url, headersOf(page), page, build.root);
    if (result.status !== 200) throw new Error(`${build.label}: ${page.path} answered ${result.status}`);
    probes.push(result);
  }
  return { build, env, seeded, server, headersOf, pages, probes };
}

/**
 * A page on one build: at saturation (after a warm-up, with the bystander beside it), then at the
 * fixed open-loop rate.
 * @param {Side} side @param {Page} page @param {Settings} settings
 * @returns {Promise<{ measured: Measurement, bystander: BystanderLatency, open: OpenLoopResult, peakRssSoFar: number | null }>}
 */
async function measurePage(side, page, settings) {
  const target = `${side.server.url}${page.path}`;
  const headers = side.headersOf(page);
  if (settings.warmup > 0) await measure(target, headers, settings.warmup, settings.connections);
  const [measured, bystander] = await Promise.all([
    measure(target, headers, settings.duration, settings.connections),
    bystanderLatency(side.server.url, settings.duration),
  ]);
  const open = await openLoop(target, { "accept-encoding": "gzip", ...headers }, { rate: settings.rate, seconds: settings.rateDuration });
  // The server's peak so far, after this page: which page raised the run's peak.
  return { measured, bystander, open, peakRssSoFar: peakRssMiB(side.server.pid) };
}

/** @param {"sqlite" | "postgres"} dialect @param {number} issues @param {Build[]} builds @param {Settings} settings @param {string} adminUrl @returns {Promise<Run>} */
async function benchmarkOne(dialect, issues, builds, settings, adminUrl) {
  /** @type {(() => Promise<void>)[]} */
  const cleanUps = [];
  try {
    /** @type {Side[]} */
    const sides = [];
    for (const build of builds) sides.push(await prepareSide(build, dialect, issues, adminUrl, (cleanUp) => cleanUps.push(cleanUp)));
    const current = /** @type {Side} */ (sides[0]);
    for (const side of sides.slice(1)) {
      const differ = side.pages.filter((page, i) => page.path !== current.pages[i]?.path);
      if (differ.length) console.log(`  Note: ${side.build.label}'s seed gave other addresses: ${differ.map((page) => page.path).join(", ")}`);
    }
    const { html: floorHtml } = await getHtml(current.server.url, {}, floorPath);
    const referenceServer = await startReferenceServer(floorHtml);
    cleanUps.push(async () => referenceServer.stop());
    const measureReference = async () => {
      if (settings.warmup > 0) await measure(referenceServer.url, {}, settings.warmup, settings.connections);
      const reference = await measure(referenceServer.url, {}, settings.duration, settings.connections);
      console.log(`  ${"reference (bare Node)".padEnd(28)} ${reference.requestsPerSecond.toFixed(1).padStart(8)} req/s`);
      return reference;
    };
    // Before and after the pages: a machine whose speed drifts during the run (other work on it)
    // moves the reference too, and the pages are set against the mean.
    const referenceRuns = [await measureReference()];
    /** @type {Awaited<ReturnType<typeof measurePage>>[][]} per side, per page */
    const results = sides.map(() => []);
    const pageCount = Math.min(...sides.map((side) => side.pages.length));
    for (let i = 0; i < pageCount; i++) {
      // Interleaved, each build first every other page, so that neither has the quieter moments.
      const order = sides.map((_, s) => s);
      if (i % 2 === 1) order.reverse();
      for (const s of order) {
        const side = /** @type {Side} */ (sides[s]);
        const page = /** @type {Page} */ (side.pages[i]);
        const result = await measurePage(side, page, settings);
        /** @type {Awaited<ReturnType<typeof measurePage>>[]} */ (results[s])[i] = result;
        const { measured, open } = result;
        const failed = measured.non2xx + measured.errors + open.non2xx + open.errors ? ` (${measured.non2xx + open.non2xx} non-2xx, ${measured.errors + open.errors} errors)` : "";
        console.log(
          `  ${page.name.padEnd(28)} ${side.build.label.padEnd(8)} ${measured.requestsPerSecond.toFixed(1).padStart(8)} req/s, at ${settings.rate}/s p50 ${open.p50Ms} ms p99 ${open.p99Ms} ms${failed}`,
        );
      }
    }
    referenceRuns.push(await measureReference());
    const reference = meanMeasurement(referenceRuns);
    const profiles = settings.profile ? await profilePages(current.env, current.pages, settings) : undefined;
    /** @type {BuildRun[]} */
    const buildRuns = sides.map((side, s) => {
      // Read while the server still runs: its peak since it started, seeding aside (another process).
      const peakRss = peakRssMiB(side.server.pid);
      const serverStderr = side.server.stderrSummary();
      if (serverStderr.lines) console.log(`  ${side.build.label}'s server wrote ${serverStderr.lines} lines to stderr, such as: ${serverStderr.distinct[0]}`);
      const sideResults = /** @type {Awaited<ReturnType<typeof measurePage>>[]} */ (results[s]);
      const floor = /** @type {Awaited<ReturnType<typeof measurePage>>} */ (sideResults[0]).measured;
      return {
        build: side.build.label,
        commit: side.build.commit,
        node: side.build.node,
        nodeVersion: side.build.nodeVersion,
        seedSeconds: side.seeded.seconds,
        seedOutput: side.seeded.output,
        peakRssMiB: peakRss,
        serverStderr,
        pages: sideResults.map(({ measured, bystander, open, peakRssSoFar }, i) => ({
          .../** @type {Page} */ (side.pages[i]),
          .../** @type {Probe} */ (side.probes[i]),
          ...measured,
          perMilleOfReference: (measured.requestsPerSecond / reference.requestsPerSecond) * 1000,
          ratioToFloor: measured.requestsPerSecond / floor.requestsPerSecond,
          bystander,
          openLoop: open,
          peakRssMiBSoFar: peakRssSoFar,
          profile: s === 0 ? profiles?.[i] : undefined,
        })),
      };
    });
    return { dialect, issues, reference, referenceRuns, builds: buildRuns };
  } finally {
    for (const cleanUp of cleanUps.reverse()) await cleanUp();
  }
}

/** The mean of measurements of one target. @param {Measurement[]} runs @returns {Measurement} */
function meanMeasurement(runs) {
  /** @param {(run: Measurement) => number} of */
  const mean = (of) => runs.reduce((sum, run) => sum + of(run), 0) / runs.length;
  const sum = (/** @type {(run: Measurement) => number} */ of) => runs.reduce((total, run) => total + of(run), 0);
  return {
    requestsPerSecond: mean((run) => run.requestsPerSecond),
    latencyP50Ms: mean((run) => run.latencyP50Ms),
    latencyP99Ms: mean((run) => run.latencyP99Ms),
    requests: sum((run) => run.requests),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
  };
}

/** @param {number | null} ms */
const milliseconds = (ms) => (ms === null ? "?" : ms < 10 ? ms.toFixed(1) : ms.toFixed(0));

/**
 * A page's ‰ on the first build (this checkout) over its ‰ on each other, within one run.
 * @param {Run} run @param {number} page the page's index @returns {string}
 */
function newOverOld(run, page) {
  const [current, ...others] = run.builds;
  const mine = current?.pages[page]?.perMilleOfReference;
  if (mine === undefined || others.length === 0) return "";
  return others.map((other) => {
    const theirs = other.pages[page]?.perMilleOfReference;
    return theirs ? `×${(mine / theirs).toFixed(2)}` : "?";
  }).join(" ");
}

/** @param {Run[]} runs @param {Settings} settings */
function printTable(runs, settings) {
  const at = `@${settings.rate}/s`;
  /** Whether the page answers fewer requests a second at saturation than the open loop sends. @param {PageResult} page */
  const overloaded = (page) => page.requestsPerSecond < settings.rate;
  const header = ["page", "database", "issues", "build", "‰ ref", "new/old", "req/s", "× floor", `p50 ms ${at}`, `p99 ms ${at}`, "sat. p99 ms", "others p99 ms", "HTML KiB", "HTML gz KiB", "JS gz KiB", "later JS", "queries"];
  const rows = runs.flatMap((run) =>
    (run.builds[0]?.pages ?? []).flatMap((_, i) =>
      run.builds.map((build, b) => {
        const page = /** @type {PageResult} */ (build.pages[i]);
        return [
          page.name,
          run.dialect,
          run.issues.toLocaleString("en"),
          build.build,
          page.perMilleOfReference.toFixed(2),
          b === 0 ? newOverOld(run, i) : "",
          page.requestsPerSecond.toFixed(1),
          page.ratioToFloor.toFixed(2),
          `${milliseconds(page.openLoop.p50Ms)}${overloaded(page) ? "*" : ""}`,
          `${milliseconds(page.openLoop.p99Ms)}${overloaded(page) ? "*" : ""}`,
          String(page.latencyP99Ms),
          String(page.bystander.p99Ms),
          (page.htmlBytes / 1024).toFixed(1),
          (page.htmlGzipBytes / 1024).toFixed(1),
          (page.jsGzipBytes / 1024).toFixed(1),
          (page.laterJsGzipBytes / 1024).toFixed(1),
          page.queries === null ? "?" : String(page.queries),
        ];
      }),
    ),
  );
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  /** @param {string[]} cells */
  const line = (cells) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
  for (const row of rows) console.log(line(row));
  const overloadNote = `* Fewer than ${settings.rate} requests a second at saturation: at ${settings.rate} a second its requests queue, and their latency (and the server's memory) grows with the open loop's duration.`;
  const anyOverloaded = runs.some((run) => run.builds.some((build) => build.pages.some(overloaded)));
  if (anyOverloaded) console.log(overloadNote);
  console.log("\nThe reference (a bare Node HTTP server answering the floor's HTML, gzipped once; before and after the pages):");
  for (const run of runs) {
    console.log(`  ${run.dialect.padEnd(8)} ${run.issues.toLocaleString("en").padStart(7)} issues: ${run.referenceRuns.map((r) => r.requestsPerSecond.toFixed(0)).join(" and ")} req/s`);
  }
  console.log("\nPeak RSS of each server through its whole run (VmHWM), and seeding (the whole `node server.js seed` command, migrations included):");
  for (const run of runs) {
    for (const build of run.builds) {
      const rss = build.peakRssMiB === null ? "?" : build.peakRssMiB.toFixed(0);
      console.log(
        `  ${run.dialect.padEnd(8)} ${run.issues.toLocaleString("en").padStart(7)} issues, ${build.build.padEnd(8)} (Node ${build.nodeVersion}): ${rss} MiB; seeded in ${build.seedSeconds.toFixed(1)} s`,
      );
    }
  }

  // The same, as Markdown for a README or a closing note.
  const markdown = [
    `| page | database | issues | build | req/s | ‰ ref | new/old | p50 ms ${at} | p99 ms ${at} |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) => `| ${[0, 1, 2, 3, 6, 4, 5, 8, 9].map((column) => row[column]).join(" | ")} |`),
    ...(anyOverloaded ? ["", overloadNote] : []),
    "",
    "| database | issues | build | Node | peak RSS MiB | reference req/s |",
    "| --- | --- | --- | --- | --- | --- |",
    ...runs.flatMap((run) =>
      run.builds.map(
        (build) =>
          `| ${run.dialect} | ${run.issues.toLocaleString("en")} | ${build.build} | ${build.nodeVersion} | ${build.peakRssMiB === null ? "?" : build.peakRssMiB.toFixed(0)} | ${run.reference.requestsPerSecond.toFixed(0)} |`,
      ),
    ),
  ];
  console.log(`\nMarkdown:\n\n${markdown.join("\n")}`);
}

async function main() {
  const settings = readSettings();
  const startedAt = new Date();
  const loadAverageAtStart = os.loadavg();
  if (!settings.skipBuild) runOrThrow("npm", ["run", "build"]);
  /** @type {Build[]} */
  const builds = [currentBuild()];
  if (settings.baseline) builds.push(await baselineBuild(settings.baseline, settings.baselineNode ?? undefined));
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
    for (const issues of settings.sizes) runs.push(await benchmarkOne(dialect, issues, builds, settings, adminUrl));
  }
  if (runs.length) printTable(runs, settings);
  for (const note of notes) console.log(note);
  /** @param {number[]} load */
  const loads = (load) => load.map((value) => value.toFixed(1)).join(", ");
  console.log(`\nLoad average (1, 5, 15 min) on ${os.cpus().length} cores: ${loads(loadAverageAtStart)} at the start, ${loads(os.loadavg())} at the end.`);

  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? null,
      memoryMiB: Math.round(os.totalmem() / 2 ** 20),
      loadAverageAtStart,
      // Other work on the machine moves every figure: a run is comparable with itself, not with another.
      loadAverageAtEnd: os.loadavg(),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    settings: { ...settings, out: undefined },
    builds: builds.map(({ label, commit, root, node, nodeVersion, nodeFlags }) => ({ label, commit, root, node, nodeVersion, nodeFlags })),
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
