import type { Transaction } from "kysely";
import type { Database } from "~/db/database.server";
import type { DB, RelationType, Status } from "~/db/schema";
import type { NotificationMail } from "~/notifications/notifications.server";
import { lockWorkspace } from "~/workspaces/members.server";
import type { IssueLinkRef } from "./issue-event-types";
import { recordIssueEvent } from "./issue-events.server";
import { isClosed, issueKey } from "./issue-fields";
import { maxIssueLevels, maxSubIssues, parseIssueRef, type RelationChoice, relationPhrase, type RelationView, toSideView } from "./issue-links";
import { issueNotFound, type NotFound, type ProjectScope } from "./write-scope.server";

/**
 * Sub-issues and relations (decision record 021). Each change is a change of every issue it
 * touches: in one transaction, each one's version goes up and its event goes through
 * `recordIssueEvent` (activity on both sides, webhooks). Changes of links in one workspace are
 * serialised by a lock on its row, so that two of them cannot make a cycle or pass a limit together.
 */

type Trx = Transaction<DB>;

/** A refused link, at the field that named it: 400 for what cannot be, 404 for a key nobody here can see. */
export type LinkProblem = { field: "parent" | "target"; message: string; status: 400 | 404 };

const problem = (field: LinkProblem["field"], message: string, status: 400 | 404 = 400): LinkProblem => ({ field, message, status });

type LinkActor = { actorId: number; now: Date; mail?: NotificationMail };

/** An issue a link change records an event on: its id, its key and its project. */
type LinkEnd = { id: number; key: string; project: ProjectScope };

/** An issue of the workspace as a link change needs it. */
type LinkIssue = LinkEnd & { parentId: number | null; status: Status; archived: boolean };

const linkIssueQuery = (trx: Trx, workspaceId: number) =>
  trx
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .select(["issues.id", "issues.number", "issues.parent_id", "issues.status", "issues.project_id", "projects.key", "projects.archived_at"])
    .where("projects.workspace_id", "=", workspaceId);

type LinkIssueRow = { id: number; number: number; parent_id: number | null; status: Status; project_id: number; key: string; archived_at: string | null };

const asLinkIssue = (row: LinkIssueRow, workspaceId: number): LinkIssue => ({
  id: row.id,
  key: issueKey(row.key, row.number),
  project: { id: row.project_id, workspace_id: workspaceId },
  parentId: row.parent_id,
  status: row.status,
  archived: row.archived_at !== null,
});

async function issueById(trx: Trx, workspaceId: number, id: number): Promise<LinkIssue | undefined> {
  const row = await linkIssueQuery(trx, workspaceId).where("issues.id", "=", id).executeTakeFirst();
  return row && asLinkIssue(row, workspaceId);
}

/** The issue a form is about: one of the project's, or not found. */
async function issueOfProject(trx: Trx, project: ProjectScope, id: number): Promise<LinkIssue | undefined> {
  const issue = await issueById(trx, project.workspace_id, id);
  return issue?.project.id === project.id ? issue : undefined;
}

/**
 * The issue a typed key names, in the workspace only: a key of another workspace, or of no issue,
 * is the same 404, so that nothing is revealed. The key is checked before anything else.
 */
async function issueByKey(trx: Trx, project: ProjectScope, field: LinkProblem["field"], text: string): Promise<LinkIssue | LinkProblem> {
  const ref = parseIssueRef(text);
  if (!ref) return problem(field, "Enter an issue key like WEB-12.");
  let query = linkIssueQuery(trx, project.workspace_id).where("issues.number", "=", ref.number);
  query = ref.projectKey === null ? query.where("projects.id", "=", project.id) : query.where("projects.key", "=", ref.projectKey);
  const row = await query.executeTakeFirst();
  if (!row) return problem(field, `Issue ${ref.projectKey ? issueKey(ref.projectKey, ref.number) : ref.number} not found.`, 404);
  const issue = asLinkIssue(row, project.workspace_id);
  return issue.archived ? problem(field, `${issue.key} is in an archived project: it is read-only.`) : issue;
}

/** Raises an issue's version (and its updated time), as every change does, and says the new one. */
async function bump(trx: Trx, issueId: number, now: Date): Promise<number> {
  const { version } = await trx
    .updateTable("issues")
    .set((eb) => ({ version: eb("version", "+", 1), updated_at: now.toISOString() }))
    .where("id", "=", issueId)
    .returning("version")
    .executeTakeFirstOrThrow();
  return version;
}

const ref = (issue: LinkEnd): IssueLinkRef => ({ id: issue.id, key: issue.key });

/** Bumps the issue and records one event of it. */
async function record(trx: Trx, issue: LinkEnd, actor: LinkActor, event: Parameters<typeof recordIssueEvent>[2], version?: number) {
  const scope = { project: issue.project, issueId: issue.id, actorId: actor.actorId, now: actor.now, mail: actor.mail };
  await recordIssueEvent(trx, { ...scope, version: version ?? (await bump(trx, issue.id, actor.now)) }, event);
}

/** The issue's level: 1 for an issue without a parent, 2 for its sub-issues … and the ids on the way up. */
async function ancestry(trx: Trx, issue: LinkIssue): Promise<number[]> {
  const chain = [issue.id];
  let parentId = issue.parentId;
  // Bounded: the tree is never deeper than the limit, and a stored cycle (none can be made) stops here too.
  while (parentId !== null && chain.length <= maxIssueLevels && !chain.includes(parentId)) {
    chain.push(parentId);
    const parent = await trx.selectFrom("issues").select("parent_id").where("id", "=", parentId).executeTakeFirst();
    parentId = parent?.parent_id ?? null;
  }
  return chain;
}

/** How many levels the issue and its sub-issues take (1: it has none), looked at level by level. */
async function levelsBelow(trx: Trx, issueId: number): Promise<number> {
  let levels = 1;
  let current = [issueId];
  while (levels <= maxIssueLevels) {
    const next = await trx.selectFrom("issues").select("id").where("parent_id", "in", current).execute();
    if (!next.length) break;
    levels++;
    current = next.map((row) => row.id);
  }
  return levels;
}

async function subIssueCount(trx: Trx, parentId: number): Promise<number> {
  const { count } = await trx
    .selectFrom("issues")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("parent_id", "=", parentId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Why `parent` cannot take `child` (with all its sub-issues) under it, if it cannot. */
async function parentProblem(trx: Trx, child: { id: number; key: string; levels: number }, parent: LinkIssue): Promise<LinkProblem | undefined> {
  if (parent.id === child.id) return problem("parent", "An issue cannot be its own parent.");
  const above = await ancestry(trx, parent);
  if (above.includes(child.id)) return problem("parent", `${parent.key} is a sub-issue of ${child.key}: an issue cannot be under its own sub-issue.`);
  if ((await subIssueCount(trx, parent.id)) >= maxSubIssues) {
    return problem("parent", `${parent.key} already has ${maxSubIssues} sub-issues, the most an issue can have.`);
  }
  if (above.length + child.levels > maxIssueLevels) {
    return problem("parent", `Sub-issues go at most ${maxIssueLevels} levels deep: under ${parent.key}, ${child.key} would make ${above.length + child.levels}.`);
  }
  return undefined;
}

/**
 * Sets the issue's parent to the issue `parentKey` names (`WEB-12`, or `12` in the same project),
 * or removes it (`""`). The parent is an issue of the same workspace, not the issue itself nor one
 * of its sub-issues; it has at most 100 sub-issues, and the tree at most 5 levels. Child, new parent
 * and old parent each record the change.
 */
export async function setParent(
  db: Database,
  change: LinkActor & { project: ProjectScope; issueId: number; parentKey: string },
): Promise<{ ok: true; changed: boolean } | LinkProblem | NotFound> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, change.project.workspace_id);
    const child = await issueOfProject(trx, change.project, change.issueId);
    if (!child) return issueNotFound;
    const old = child.parentId === null ? undefined : await issueById(trx, change.project.workspace_id, child.parentId);
    let parent: LinkIssue | undefined;
    if (change.parentKey.trim() !== "") {
      const found = await issueByKey(trx, change.project, "parent", change.parentKey);
      if ("field" in found) return found;
      if (found.id === old?.id) return { ok: true, changed: false };
      const refused = await parentProblem(trx, { id: child.id, key: child.key, levels: await levelsBelow(trx, child.id) }, found);
      if (refused) return refused;
      parent = found;
    } else if (!old) {
      return { ok: true, changed: false };
    }

    await trx
      .updateTable("issues")
      .set({ parent_id: parent?.id ?? null })
      .where("id", "=", child.id)
      .execute();
    await record(trx, child, change, { type: "issue.parent_changed", parent: { from: old ? ref(old) : null, to: parent ? ref(parent) : null } });
    if (parent) await record(trx, parent, change, { type: "issue.sub_issue_added", subIssue: ref(child) });
    if (old) await record(trx, old, change, { type: "issue.sub_issue_removed", subIssue: ref(child) });
    return { ok: true, changed: true };
  });
}

/**
 * The parent a new issue is filed under (intent of "Add sub-issue"), checked before the issue is
 * written: the new issue has no sub-issues, so only the key, the parent's limit and its level matter.
 */
export async function parentForNewIssue(trx: Trx, project: ProjectScope, parentKey: string): Promise<LinkIssue | LinkProblem> {
  await lockWorkspace(trx, project.workspace_id);
  const parent = await issueByKey(trx, project, "parent", parentKey);
  if ("field" in parent) return parent;
  // Id 0 is no issue: a new one is nobody's ancestor.
  const refused = await parentProblem(trx, { id: 0, key: "the new issue", levels: 1 }, parent);
  return refused ?? parent;
}

/** Records a new issue's parent on both sides (the issue is written with its `parent_id`). */
export async function recordNewSubIssue(trx: Trx, child: { id: number; number: number; project: ProjectScope; version: number }, parent: LinkIssue, actor: LinkActor) {
  const { key } = await trx.selectFrom("projects").select("key").where("id", "=", child.project.id).executeTakeFirstOrThrow();
  const created: LinkEnd = { id: child.id, key: issueKey(key, child.number), project: child.project };
  await record(trx, created, actor, { type: "issue.parent_changed", parent: { from: null, to: ref(parent) } }, child.version);
  await record(trx, parent, actor, { type: "issue.sub_issue_added", subIssue: ref(created) });
}

/** How a choice is stored: `blocked_by` is the other issue blocking this one. */
function stored(choice: RelationChoice, issueId: number, targetId: number): { from_id: number; to_id: number; type: RelationType } {
  if (choice === "blocked_by") return { from_id: targetId, to_id: issueId, type: "blocks" };
  return { from_id: issueId, to_id: targetId, type: choice };
}

/** A stored relation as one of its issues sees it. */
const viewOf = (relation: { from_id: number; type: RelationType }, issueId: number): RelationView =>
  relation.from_id === issueId ? relation.type : toSideView[relation.type];

/**
 * Relates the issue to the issue `targetKey` names, in the same workspace: it blocks it, is blocked
 * by it, relates to it, or duplicates it. Two issues have at most one relation (either way round).
 * Marking an open issue a duplicate closes it as canceled. Both issues record the relation.
 */
export async function addRelation(
  db: Database,
  change: LinkActor & { project: ProjectScope; issueId: number; type: RelationChoice; targetKey: string },
): Promise<{ ok: true; relationId: number } | LinkProblem | NotFound> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, change.project.workspace_id);
    const issue = await issueOfProject(trx, change.project, change.issueId);
    if (!issue) return issueNotFound;
    const target = await issueByKey(trx, change.project, "target", change.targetKey);
    if ("field" in target) return target;
    if (target.id === issue.id) return problem("target", "An issue cannot be related to itself.");
    const existing = await trx
      .selectFrom("issue_relations")
      .select(["from_id", "type"])
      .where((eb) =>
        eb.or([eb.and([eb("from_id", "=", issue.id), eb("to_id", "=", target.id)]), eb.and([eb("from_id", "=", target.id), eb("to_id", "=", issue.id)])]),
      )
      .executeTakeFirst();
    if (existing) return problem("target", `${issue.key} is already ${relationPhrase(viewOf(existing, issue.id), target.key)}. Remove that relation first.`);

    const row = stored(change.type, issue.id, target.id);
    const { id } = await trx
      .insertInto("issue_relations")
      .values({ ...row, creator_id: change.actorId, created_at: change.now.toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const version = await bump(trx, issue.id, change.now);
    await record(trx, issue, change, { type: "issue.relation_added", relationId: id, relation: viewOf(row, issue.id), issue: ref(target) }, version);
    await record(trx, target, change, { type: "issue.relation_added", relationId: id, relation: viewOf(row, target.id), issue: ref(issue) });
    if (change.type === "duplicate_of" && !isClosed(issue.status)) {
      // A duplicate is closed as canceled: a status change like any other (watchers hear of it).
      await trx.updateTable("issues").set({ status: "canceled", closed_at: change.now.toISOString() }).where("id", "=", issue.id).execute();
      await record(trx, issue, change, { type: "issue.updated", changes: { status: { from: issue.status, to: "canceled" } } }, version);
    }
    return { ok: true, relationId: id };
  });
}

/** Removes one of the issue's relations (either way round); both issues record it. */
export async function removeRelation(
  db: Database,
  change: LinkActor & { project: ProjectScope; issueId: number; relationId: number },
): Promise<{ ok: true } | NotFound> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, change.project.workspace_id);
    const issue = await issueOfProject(trx, change.project, change.issueId);
    if (!issue) return issueNotFound;
    const relation = await trx
      .selectFrom("issue_relations")
      .select(["id", "from_id", "to_id", "type"])
      .where("id", "=", change.relationId)
      .where((eb) => eb.or([eb("from_id", "=", issue.id), eb("to_id", "=", issue.id)]))
      .executeTakeFirst();
    if (!relation) return { ok: false, status: 404, message: "Relation not found." };
    const other = await issueById(trx, change.project.workspace_id, relation.from_id === issue.id ? relation.to_id : relation.from_id);
    await trx.deleteFrom("issue_relations").where("id", "=", relation.id).execute();
    await record(trx, issue, change, { type: "issue.relation_removed", relationId: relation.id, relation: viewOf(relation, issue.id), issue: other ? ref(other) : { id: 0, key: "an issue" } });
    if (other) await record(trx, other, change, { type: "issue.relation_removed", relationId: relation.id, relation: viewOf(relation, other.id), issue: ref(issue) });
    return { ok: true };
  });
}
