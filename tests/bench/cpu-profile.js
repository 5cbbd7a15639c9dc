// Reads a V8 CPU profile (`node --cpu-prof`) and says where the main thread's time went, grouped by
// package: each npm package under node_modules, Cairn's own build, Node's internals, the garbage
// collector, and native code V8 could not attribute. Idle time is left out of the shares.
import { readFileSync } from "node:fs";

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} CpuProfile
 * @typedef {{ group: string, ms: number, share: number }} GroupShare
 */

/** @param {ProfileNode["callFrame"]} frame */
function groupOf(frame) {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === "(idle)") return "(idle)";
    if (functionName === "(garbage collector)") return "garbage collector";
    if (functionName === "(program)") return "V8 and native (unattributed)";
    return "native functions";
  }
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1] ?? url;
  if (url.startsWith("node:")) return "node (internals)";
  if (url.includes("/build/server/")) return "cairn (app code)";
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
