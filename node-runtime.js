// The Node that Cairn runs on (docs/decisions/030-a-supported-node-for-every-script.md).
// Imported, it tells whether a Node version is one that package.json's `engines` allows. Run as npm's
// postinstall (`node node-runtime.js`), it brings a supported Node from the npm registry when the
// Node that runs npm is older, and links it as node_modules/.bin/node: npm puts that folder first on
// the PATH of every script it runs, so `node`, and every tool started through its `#!/usr/bin/env
// node` line, is then the brought one. Where the machine's Node is supported it brings nothing.
// It runs on the machine's Node, whichever that is, so it uses nothing newer than Node 20 has.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));

/** The Node brought where the machine's is unsupported: one exact version of the `node` package. */
export const broughtNodeVersion = "26.10.0";

/** package.json's `engines.node`: caret ranges, `^22.22.0 || ^24.0.0 || ^26.0.0`. */
export const supportedNodeRange = /** @type {{ engines: { node: string } }} */ (
  JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))
).engines.node;

/** @param {string} version `26.10.0` @returns {number[]} */
const parts = (version) => version.replace(/^[\^v]/, "").split(".").map(Number);

/** Whether `version` (`process.versions.node`'s form) is within one of the caret ranges. @param {string} version */
export function supportsNode(version) {
  const [major = 0, minor = 0, patch = 0] = parts(version);
  return supportedNodeRange.split("||").some((range) => {
    const [least = 0, leastMinor = 0, leastPatch = 0] = parts(range.trim());
    return major === least && (minor > leastMinor || (minor === leastMinor && patch >= leastPatch));
  });
}

/** Ends the process, saying why, when it runs on a Node that Cairn does not support. */
export function exitUnlessSupportedNode() {
  if (supportsNode(process.versions.node)) return;
  console.error(
    `Cairn runs on Node ${supportedNodeRange}, not on this Node ${process.versions.node} (${process.execPath}). ` +
      "Run it through npm (`npm start`, `npm test`): after `npm ci` npm's scripts run on a supported Node, " +
      "the machine's own or one brought from the npm registry (README, \"Quick start\").",
  );
  process.exit(1);
}

const broughtDir = path.join(root, "node_modules", ".node");
const broughtBinary = path.join(broughtDir, "node_modules", "node", "bin", "node");
const binLink = path.join(root, "node_modules", ".bin", "node");
const binLinkTarget = path.relative(path.dirname(binLink), broughtBinary);

/** The version a Node binary says it is. @param {string} binary */
const versionOf = (binary) => execFileSync(binary, ["-p", "process.versions.node"], { encoding: "utf8" }).trim();

function bringNodeWhereNeeded() {
  // The Node that runs npm, not the `node` this script was started as: after an earlier install
  // that is node_modules/.bin/node, the brought one.
  const machineNode = process.env.npm_node_execpath ?? process.execPath;
  const machineVersion = machineNode === process.execPath ? process.versions.node : versionOf(machineNode);
  const linked = existsSync(binLink) && lstatSync(binLink).isSymbolicLink() && readlinkSync(binLink) === binLinkTarget;

  if (supportsNode(machineVersion)) {
    if (linked) rmSync(binLink);
    rmSync(broughtDir, { recursive: true, force: true });
    return;
  }
  if (!(existsSync(broughtBinary) && versionOf(broughtBinary) === broughtNodeVersion)) {
    console.log(`This machine's Node is ${machineVersion}; Cairn needs ${supportedNodeRange}: bringing Node ${broughtNodeVersion} from the npm registry…`);
    rmSync(broughtDir, { recursive: true, force: true });
    // The npm that runs this install, on the Node it runs on.
    const npm = process.env.npm_execpath ? [machineNode, process.env.npm_execpath] : ["npm"];
    const [command = "npm", ...npmArgs] = npm;
    execFileSync(
      command,
      [...npmArgs, "install", "--prefix", broughtDir, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `node@${broughtNodeVersion}`],
      { stdio: "inherit" },
    );
    if (!existsSync(broughtBinary) || versionOf(broughtBinary) !== broughtNodeVersion) {
      throw new Error(`The node@${broughtNodeVersion} package installed no Node ${broughtNodeVersion} at ${broughtBinary} (are install scripts off?).`);
    }
  }
  if (!linked) {
    rmSync(binLink, { force: true });
    symlinkSync(binLinkTarget, binLink);
  }
  console.log(`npm's scripts here run on Node ${broughtNodeVersion} (node_modules/.bin/node), not on this machine's ${machineVersion}.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) bringNodeWhereNeeded();
