// The builds the bench measures side by side: this checkout, run on the Node npm's scripts use, and
// with `--baseline REF` an older commit built beside it, run on the Node its own install used. An
// older commit may support only an older Node (before issue 31: Node 20, whose better-sqlite3 its
// `npm ci` compiled for that Node), so it is installed and run with npm's additions to the
// environment left out: the machine's own `node`, not node_modules/.bin/node of this checkout.
import { execFileSync, spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { productionNodeFlags, repoRoot } from "../tools/demo-instance.js";

/**
 * @typedef {{ label: string, commit: string, root: string, node: string, nodeVersion: string, nodeFlags: string[], env: Record<string, string> }} Build
 */

/** @param {string[]} args @param {string} [cwd] */
const git = (args, cwd = repoRoot) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/** The version a Node binary says it is. @param {string} binary */
const versionOf = (binary) => execFileSync(binary, ["-p", "process.version"], { encoding: "utf8" }).trim();

/** The PATH without the folders npm put first for its scripts (every node_modules/.bin). */
export function pathOutsideNpm() {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((folder) => folder !== "" && !folder.split(path.sep).includes("node_modules"))
    .join(path.delimiter);
}

/** The environment without what npm adds for its scripts: its PATH folders and its npm_* variables. */
function environmentOutsideNpm() {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !/^npm_/i.test(name)) env[name] = value;
  env.PATH = pathOutsideNpm();
  return env;
}

/** The first `node` on the PATH outside npm: the machine's own. */
export function machineNode() {
  for (const folder of pathOutsideNpm().split(path.delimiter)) {
    const candidate = path.join(folder, "node");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  throw new Error("No node on the PATH outside npm's folders: give the baseline's with --baseline-node.");
}

/**
 * The flags a checkout's server is started with: those of its `npm start` when that is
 * `node [flags] server.js` (before memory-flags.js), else those of its memory-flags.js.
 * @param {string} root @returns {Promise<string[]>}
 */
async function serverFlags(root) {
  const start = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  const words = start.split(/\s+/);
  if (words[0] !== "node" || words.at(-1) !== "server.js") throw new Error(`${root}: npm start is not "node [flags] server.js": ${start}`);
  if (words.length > 2) return words.slice(1, -1);
  const flagsFile = path.join(root, "memory-flags.js");
  return existsSync(flagsFile) ? (await import(pathToFileURL(flagsFile).href)).memoryFlags : [];
}

/** This checkout, on the Node that runs the bench (npm's). @returns {Build} */
export function currentBuild() {
  const commit = git(["rev-parse", "HEAD"]);
  const changed = git(["status", "--porcelain", "--", "app", "public", "server.js", "package.json", "package-lock.json"]) !== "";
  return {
    label: `${commit.slice(0, 7)}${changed ? "+" : ""}`,
    commit,
    root: repoRoot,
    node: process.execPath,
    nodeVersion: process.version,
    nodeFlags: productionNodeFlags(),
    env: { PATH: process.env.PATH ?? "" },
  };
}

/** @param {string} command @param {string[]} args @param {string} cwd @param {Record<string, string>} env */
function runIn(command, args, cwd, env) {
  const result = spawnSync(command, args, { cwd, env, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} in ${cwd} failed with ${result.status}`);
}

/**
 * The commit `ref` names, exported (`git archive`) to a folder of its own in the temporary directory,
 * installed (`npm ci`) and built with the environment outside npm. The folder is kept, keyed by
 * the commit, and reused by later runs once it is complete (an install that compiles better-sqlite3
 * takes minutes); delete it to start again.
 * @param {string} ref @param {string} [chosenNode] the Node to run it on; by default the one its install
 *   linked as node_modules/.bin/node (a commit that brings its own), else the machine's
 * @returns {Promise<Build>}
 */
export async function baselineBuild(ref, chosenNode) {
  const installNode = chosenNode ?? machineNode();
  const commit = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const root = path.join(os.tmpdir(), `cairn-bench-baseline-${commit}`);
  const ready = path.join(root, ".bench-ready");
  const env = environmentOutsideNpm();
  // The chosen Node first on the PATH, so that npm's scripts there (install, build) run on it too.
  env.PATH = [path.dirname(installNode), env.PATH].join(path.delimiter);
  if (!existsSync(ready)) {
    console.log(`Baseline ${ref} (${commit.slice(0, 7)}): exporting, installing and building it in ${root} on Node ${versionOf(installNode)}…`);
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const archive = spawnSync("git", ["archive", "--format=tar", commit], { cwd: repoRoot, maxBuffer: 1024 ** 3 });
    if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
    const untar = spawnSync("tar", ["-x", "-C", root], { input: archive.stdout });
    if (untar.status !== 0) throw new Error(`Unpacking ${commit} failed: ${untar.stderr}`);
    runIn("npm", ["ci", "--no-audit", "--no-fund"], root, env);
    runIn("npm", ["run", "build"], root, env);
    writeFileSync(ready, `${commit}\n`);
  }
  const broughtNode = path.join(root, "node_modules", ".bin", "node");
  const node = chosenNode ?? (existsSync(broughtNode) ? broughtNode : installNode);
  return {
    label: commit.slice(0, 7),
    commit,
    root,
    node,
    nodeVersion: versionOf(node),
    nodeFlags: await serverFlags(root),
    env: { PATH: [path.dirname(node), pathOutsideNpm()].join(path.delimiter) },
  };
}
