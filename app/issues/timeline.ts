/**
 * The issue's timeline as DESIGN.md §3 reads it: consecutive changes by one person within a few
 * minutes are one line ("Ada changed the status from Todo to Done and the priority from Low to
 * High"). Pure, so that it is tested on its own and the server and the browser agree.
 */

import { type Priority, priorityLabels, type Status, statusLabels } from "./issue-fields";
import { parseRelationValue, relationLabels, relationPhrase } from "./issue-links";

/**
 * One recorded change (an `activities` row). Its values are as stored — status and priority keys,
 * label ids as JSON, an assignee's name — until `namedChange` names them as people read them.
 */
export type Change = {
  type: "activity";
  id: number;
  at: string;
  actorId: number | null;
  actorName: string | null;
  kind: string;
  from: string | null;
  to: string | null;
};

/** Label ids as activity keeps them (`[3,7]`); undefined for a list written before they were. */
function labelIds(value: string): number[] | undefined {
  return /^\[(\d+(,\d+)*)?\]$/.test(value) ? (JSON.parse(value) as number[]) : undefined;
}

/**
 * A change with its values named: "In progress", "High", "Bug, Security" (sorted; a label deleted
 * since reads "a deleted label"). Values that are no key or id (older rows) stay as written.
 */
export function namedChange(change: Change, labelNames: ReadonlyMap<number, string>): Change {
  const name = (value: string | null): string | null => {
    if (value === null) return null;
    if (change.kind === "status") return statusLabels[value as Status] ?? value;
    if (change.kind === "priority") return priorityLabels[value as Priority] ?? value;
    if (change.kind === "labels") {
      const ids = labelIds(value);
      if (!ids) return value;
      const names = ids.map((id) => labelNames.get(id)).filter((n): n is string => n !== undefined);
      const deleted = ids.length - names.length;
      const listed = names.sort((a, b) => a.localeCompare(b));
      if (deleted) listed.push(deleted === 1 ? "a deleted label" : `${deleted} deleted labels`);
      return listed.length ? listed.join(", ") : null;
    }
    return value;
  };
  return { ...change, from: name(change.from), to: name(change.to) };
}

/** A comment or a change, as the timeline lists them. */
export type TimelineEntry =
  | { type: "comment"; id: number; at: string; authorId: number | null; authorName: string | null; body: string; edited: boolean; deleted: boolean }
  | Change;

/** Oldest first; at the same instant the change first (it was written with the save that preceded the comment). */
export function inTimelineOrder(entries: TimelineEntry[]): TimelineEntry[] {
  return entries.sort((a, b) => a.at.localeCompare(b.at) || (a.type === b.type ? a.id - b.id : a.type === "activity" ? -1 : 1));
}

/** Changes shown as one line: by one person, the first at `at`. */
export type ChangeGroup = {
  type: "changes";
  id: number;
  at: string;
  actorId: number | null;
  actorName: string | null;
  changes: Change[];
};

/** How long after a person's first change their next ones still join its line. */
export const groupWindowMs = 5 * 60_000;

/** Changes that always stand on their own line (each mention names its own issue). */
const standalone = new Set(["created", "comment_deleted", "referenced"]);

/** Changes of links: each one is said, none stands for an earlier one of its kind (two sub-issues added are two). */
const eachSaid = new Set(["parent", "sub_issue", "relation", "attachment"]);

function joins(group: ChangeGroup, change: Change): boolean {
  return (
    group.actorId !== null &&
    group.actorId === change.actorId &&
    !standalone.has(change.kind) &&
    !group.changes.some((c) => standalone.has(c.kind)) &&
    Date.parse(change.at) - Date.parse(group.at) <= groupWindowMs
  );
}

/**
 * Comments stay as they are; runs of changes become groups. A field changed twice within one group
 * reads as one change, from its first value to its last.
 */
export function groupTimeline<Comment extends { type: "comment" }>(entries: readonly (Comment | Change)[]): (Comment | ChangeGroup)[] {
  const items: (Comment | ChangeGroup)[] = [];
  for (const entry of entries) {
    if (entry.type !== "activity") {
      items.push(entry);
      continue;
    }
    const last = items.at(-1);
    if (last?.type === "changes" && joins(last, entry)) {
      const same = eachSaid.has(entry.kind) ? -1 : last.changes.findIndex((c) => c.kind === entry.kind);
      if (same === -1) last.changes.push(entry);
      else last.changes[same] = { ...last.changes[same]!, to: entry.to };
      continue;
    }
    items.push({ type: "changes", id: entry.id, at: entry.at, actorId: entry.actorId, actorName: entry.actorName, changes: [entry] });
  }
  return items;
}

type Clause = { verb: string; rest: string };

function clauseOf({ kind, from, to }: Change): Clause {
  switch (kind) {
    case "created":
      return { verb: "created", rest: "the issue" };
    case "title":
      return { verb: "renamed", rest: `it to “${to}”` };
    case "description":
      return { verb: "changed", rest: "the description" };
    case "status":
      return { verb: "changed", rest: `the status from ${from} to ${to}` };
    case "priority":
      return { verb: "changed", rest: `the priority from ${from} to ${to}` };
    case "assignee":
      return to ? { verb: "assigned", rest: `it to ${to}` } : { verb: "unassigned", rest: "it" };
    case "labels":
      return to ? { verb: "set", rest: `the labels to ${to}` } : { verb: "removed", rest: "the labels" };
    case "due_date":
      return to ? { verb: "set", rest: `the due date to ${to}` } : { verb: "removed", rest: "the due date" };
    case "comment_deleted":
      return { verb: "deleted", rest: "a comment" };
    case "referenced":
      return { verb: "mentioned", rest: `it in ${to}` };
    case "parent":
      if (!to) return { verb: "removed", rest: `parent ${from}` };
      return from ? { verb: "changed", rest: `parent from ${from} to ${to}` } : { verb: "set", rest: `parent ${to}` };
    case "sub_issue":
      return to ? { verb: "added", rest: `sub-issue ${to}` } : { verb: "removed", rest: `sub-issue ${from}` };
    case "attachment":
      return to ? { verb: "attached", rest: to } : { verb: "removed", rest: `the attachment ${from}` };
    case "relation": {
      const added = to ? parseRelationValue(to) : undefined;
      if (added) return { verb: "marked it", rest: `as ${relationPhrase(added.view, added.key)}` };
      const removed = from ? parseRelationValue(from) : undefined;
      if (removed) return { verb: "removed", rest: `“${relationLabels[removed.view]} ${removed.key}”` };
      return { verb: "changed", rest: "the relations" };
    }
    default:
      return { verb: "changed", rest: "the issue" };
  }
}

/** The issue keys a change's sentence names (a mention elsewhere, a parent, a sub-issue, a related issue): the page links them. */
export function issueKeysOf({ kind, from, to }: Change): string[] {
  const values = [from, to].filter((value): value is string => value !== null);
  if (kind === "referenced" || kind === "parent" || kind === "sub_issue") return values;
  if (kind === "relation") return values.flatMap((value) => parseRelationValue(value)?.key ?? []);
  return [];
}

/** "a", "a and b", "a, b and c". */
const listOf = (parts: string[]) => (parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`);

/**
 * What a group of changes did, after the person's name: "changed the status from Todo to Done and
 * the priority from Low to High, assigned it to Ada and set the due date to 2026-03-15". A verb is
 * said once for a run of clauses that share it.
 */
export function describeChanges(changes: readonly Change[]): string {
  const runs: { verb: string; rests: string[] }[] = [];
  for (const { verb, rest } of changes.map(clauseOf)) {
    const last = runs.at(-1);
    if (last?.verb === verb) last.rests.push(rest);
    else runs.push({ verb, rests: [rest] });
  }
  return listOf(runs.map((run) => `${run.verb} ${listOf(run.rests)}`));
}
