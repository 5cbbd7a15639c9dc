// Starts Cairn. By default it serves the production build (building it first if there is none), with
// the memory flags of memory-flags.js; with NODE_ENV=development it runs the TypeScript sources
// through Vite with hot reload.
// `node server.js backup [FILE]` makes an online copy of the embedded database instead, and
// `node server.js seed [--workspace SLUG] [--issues COUNT]` fills the database with a demo workspace.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { memoryFlags } from "./memory-flags.js";
import { exitUnlessSupportedNode } from "./node-runtime.js";

// better-sqlite3 crashes on older Node: say so instead.
exitUnlessSupportedNode();

/** The flags Node was started with, here or in NODE_OPTIONS. */
const startFlags = () => [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];

/** A flag's name as V8 reads it (`--max_semi_space_size=8` names the same flag). @param {string} flag */
const flagName = (flag) => flag.split("=")[0]?.replaceAll("_", "-");

/** The memory flags Node was not started with, here or in NODE_OPTIONS: an operator's own values stay. */
function missingMemoryFlags() {
  const given = new Set(startFlags().map(flagName));
  return memoryFlags.filter((flag) => !given.has(flagName(flag)));
}

/**
 * Whether Node resolves packages' `development` export condition. React Router 8's packages resolve
 * to their development build under it, as Vite's development server loads them for the app; the
 * Express adapter, which Node loads itself, must get that same copy, or the two disagree (their
 * request context is not the same object): docs/decisions/033-react-router-8.md.
 */
const resolvesDevelopment = () => /(?:^|\s)(?:--conditions|-C)[=\s]development(?:\s|$)/.test(startFlags().join(" "));

/**
 * Some flags take effect only when Node starts with them: the memory budget's (v8.setFlagsFromString
 * comes too late for the young generation: decision record 015) and the export conditions. The
 * server, started without them, starts again with them, in place: the same process, PID and signals.
 * @param {string[]} flags
 * @returns {never}
 */
function startAgainWith(flags) {
  // Every supported Node has it on Linux and macOS; Windows has none.
  if (!process.execve) throw new Error("Starting again with Node's flags needs process.execve (Node 22.15 or later, not on Windows).");
  return process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)]);
}

if (process.env.NODE_ENV === "development" && !resolvesDevelopment()) {
  startAgainWith(["--conditions=development"]);
} else if (process.env.NODE_ENV === "development") {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { start } = await vite.ssrLoadModule("./app/host/main.server.ts");
  await start({ vite });
} else if (process.argv[2] === undefined && missingMemoryFlags().length > 0) {
  startAgainWith(missingMemoryFlags());
} else {
  process.env.NODE_ENV = "production";
  const entry = new URL("./build/server/index.js", import.meta.url);
  if (!existsSync(entry)) {
    console.log("There is no production build yet: building it (this takes a minute)…");
    const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  const server = await import(entry.href);
  if (process.argv[2] === "backup") await server.backup(process.argv[3]);
  else if (process.argv[2] === "seed") await server.seed(process.argv.slice(3));
  else await server.start({ clientDir: fileURLToPath(new URL("./build/client", import.meta.url)) });
}
