// Reads a V8 CPU profile (`node --cpu-prof`) and says where the main thread's time went, grouped by
// package: each npm package under node_modules, Cairn's own code, Node's internals, the garbage
// collector, and native code V8 could not attribute. Idle time is left out of the shares. The server
// is one bundle (docs/decisions/015-memory-budget.md): a function in it is traced back through the
// bundle's source map to the file it came from.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number, columnNumber: number }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} CpuProfile
 * @typedef {{ group: string, ms: number, share: number }} GroupShare
 */

/** @type {Map<string, SourceMap | null>} */
const sourceMaps = new Map();

/** The source map beside a bundled file of the build, if it has one. @param {string} url */
function sourceMapOf(url) {
  if (!sourceMaps.has(url)) {
    const mapFile = `${fileURLToPath(url)}.map`;
    sourceMaps.set(url, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, "utf8"))) : null);
  }
  return sourceMaps.get(url) ?? null;
}

/** The file a frame's function was written in: through the source map for the server bundle. @param {ProfileNode["callFrame"]} frame */
function sourceOf(frame) {
  if (!frame.url.startsWith("file:") || !frame.url.includes("/build/server/")) return frame.url;
  const entry = sourceMapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  return entry && "originalSource" in entry ? entry.originalSource : frame.url;
}

/** @param {ProfileNode["callFrame"]} frame */
function groupOf(frame) {
  const { functionName } = frame;
  const url = sourceOf(frame);
  if (!url) {
    if (functionName === "(idle)") return "(idle)";
    if (functionName === "(garbage collector)") return "garbage collector";
    if (functionName === "(program)") return "V8 and native (unattributed)";
    return "native functions";
  }
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1] ?? url;
  if (url.startsWith("node:")) return "node (internals)";
  if (url.includes("/build/server/") || url.includes("/app/")) return "cairn (app code)";
  return url;
}

/** @param {string} file @returns {{ totalMs: number, idleMs: number, groups: GroupShare[] }} */
export function summariseCpuProfile(file) {
  /** @type {CpuProfile} */
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const groupById = new Map(profile.nodes.map((node) => [node.id, groupOf(node.callFrame)]));
  /** @type {Map<string, number>} */
  const microseconds = new Map();
  profile.samples.forEach((id, i) => {
    const group = groupById.get(id) ?? "?";
    microseconds.set(group, (microseconds.get(group) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const idleMs = (microseconds.get("(idle)") ?? 0) / 1000;
  microseconds.delete("(idle)");
  const busyMs = [...microseconds.values()].reduce((sum, us) => sum + us, 0) / 1000;
  const groups = [...microseconds]
    .map(([group, us]) => ({ group, ms: us / 1000, share: us / 1000 / busyMs }))
    .sort((a, b) => b.ms - a.ms);
  return { totalMs: busyMs, idleMs, groups };
}
