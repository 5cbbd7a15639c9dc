import { sql, type Transaction } from "kysely";
import type { AttachmentSummary } from "~/attachments/attachments.server";
import type { Database } from "~/db/database.server";
import type { ActivityKind, DB, Status } from "~/db/schema";
import { parsePositiveInteger } from "~/forms/fields.server";
import { maxLabelsPerIssue } from "~/labels/labels.server";
import { isClosed, type IssueFields, priorityOf, rankOf } from "./issue-fields";
import type { NotificationMail } from "~/notifications/notifications.server";
import type { FieldChanges } from "./issue-event-types";
import { recordIssueEvent } from "./issue-events.server";
import { linkBranches, linksOf } from "./issue-link-reads.server";
import { type LinkProblem, parentForNewIssue, recordNewSubIssue } from "./issue-links.server";
import { inTimelineOrder, type TimelineEntry } from "./timeline";
import { issueNotFound, type NotFound, type ProjectScope } from "./write-scope.server";

export type FieldProblem = { field: keyof IssueFields; message: string };

/** How the conflict message names a field that someone else changed. */
const changedFieldNames: Partial<Record<ActivityKind, string>> = {
  title: "title",
  description: "description",
  status: "status",
  priority: "priority",
  assignee: "assignee",
  labels: "labels",
  due_date: "due date",
  parent: "parent",
  sub_issue: "sub-issues",
  relation: "relations",
};

export type Trx = Transaction<DB>;

/** The assignee must be a member who may work on issues (not a viewer), the labels the workspace's. */
export async function checkReferences(trx: Trx, workspaceId: number, fields: Partial<IssueFields>): Promise<FieldProblem | undefined> {
  if (fields.assigneeId) {
    const assignee = await trx
      .selectFrom("memberships")
      .select("role")
      .where("workspace_id", "=", workspaceId)
      .where("user_id", "=", fields.assigneeId)
      .executeTakeFirst();
    if (!assignee || assignee.role === "viewer") {
      return { field: "assigneeId", message: "Choose a member of this workspace who can work on issues." };
    }
  }
  if (fields.labelIds?.length) {
    const ids = [...new Set(fields.labelIds)];
    if (ids.length > maxLabelsPerIssue) return { field: "labelIds", message: `An issue can have at most ${maxLabelsPerIssue} labels.` };
    const labels = await trx.selectFrom("labels").select("id").where("workspace_id", "=", workspaceId).where("id", "in", ids).execute();
    if (labels.length !== ids.length) return { field: "labelIds", message: "Choose labels of this workspace." };
  }
  return undefined;
}

/** A set of label ids as events and activity keep it: each once, in order. */
const labelSet = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

/**
 * Files a new issue, under `parentKey` when given (as "Add sub-issue" does). Its number comes from
 * the project's counter, incremented in the same transaction: PostgreSQL's row lock (SQLite's write
 * lock) means two instances filing at the same moment get different numbers, and a number is never reused.
 */
export async function createIssue(
  db: Database,
  issue: { project: ProjectScope; reporterId: number; fields: IssueFields; parentKey?: string; now: Date; mail?: NotificationMail },
): Promise<{ id: number; number: number } | FieldProblem | LinkProblem> {
  return db.transaction().execute(async (trx) => {
    const problem = await checkReferences(trx, issue.project.workspace_id, issue.fields);
    if (problem) return problem;
    const parent = issue.parentKey?.trim() ? await parentForNewIssue(trx, issue.project, issue.parentKey) : undefined;
    if (parent && "field" in parent) return parent;
    const { next_issue_number } = await trx
      .updateTable("projects")
      .set((eb) => ({ next_issue_number: eb("next_issue_number", "+", 1) }))
      .where("id", "=", issue.project.id)
      .returning("next_issue_number")
      .executeTakeFirstOrThrow();
    const number = next_issue_number - 1;
    const now = issue.now.toISOString();
    const { fields } = issue;
    const last = await trx
      .selectFrom("issues")
      .select((eb) => eb.fn.max("sort_order").as("sort_order"))
      .where("project_id", "=", issue.project.id)
      .where("status", "=", fields.status)
      .executeTakeFirst();
    const { id } = await trx
      .insertInto("issues")
      .values({
        project_id: issue.project.id,
        number,
        title: fields.title,
        description: fields.description,
        status: fields.status,
        priority: rankOf(fields.priority),
        assignee_id: fields.assigneeId,
        reporter_id: issue.reporterId,
        due_date: fields.dueDate,
        closed_at: isClosed(fields.status) ? now : null,
        sort_order: Number(last?.sort_order ?? 0) + 1,
        version: 1,
        parent_id: parent?.id ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const labelIds = labelSet(fields.labelIds);
    if (labelIds.length) {
      await trx
        .insertInto("issue_labels")
        .values(labelIds.map((labelId) => ({ issue_id: id, label_id: labelId })))
        .execute();
    }
    await recordIssueEvent(
      trx,
      { project: issue.project, issueId: id, actorId: issue.reporterId, version: 1, now: issue.now, mail: issue.mail },
      { type: "issue.created", values: { ...fields, labelIds, number } },
    );
    if (parent) await recordNewSubIssue(trx, { id, number, project: issue.project, version: 1 }, parent, { actorId: issue.reporterId, now: issue.now, mail: issue.mail });
    return { id, number };
  });
}

export type Conflict = { conflict: { names: string[]; fields: string[] } };

/** What changed since `version`, and by whom, from the activity each save wrote. */
async function describeConflict(trx: Trx, issueId: number, version: number): Promise<Conflict> {
  const changes = await trx
    .selectFrom("activities")
    .leftJoin("users", "users.id", "activities.actor_id")
    .select(["activities.kind", "users.name"])
    .where("activities.issue_id", "=", issueId)
    .where("activities.issue_version", ">", version)
    // Field changes only: a deleted comment is no conflicting edit.
    .where("activities.kind", "in", Object.keys(changedFieldNames) as ActivityKind[])
    .orderBy("activities.id")
    .execute();
  const names = [...new Set(changes.map((c) => c.name ?? "someone"))];
  const fields = [...new Set(changes.map((c) => changedFieldNames[c.kind]).filter((f): f is string => Boolean(f)))];
  return { conflict: { names: names.length ? names : ["someone"], fields } };
}

export function conflictMessage({ conflict }: Conflict): string {
  const what = conflict.fields.length ? conflict.fields.join(", ") : "its fields";
  return `This issue was changed by ${conflict.names.join(" and ")} since you opened it: ${what}.`;
}

/** An issue as a write reads it before changing it: its fields, its labels (sorted ids) and its version. */
export type CurrentIssue = {
  id: number;
  number: number;
  title: string;
  description: string;
  status: Status;
  priority: number;
  assignee_id: number | null;
  due_date: string | null;
  version: number;
  labelIds: number[];
};

/** The issues of the project among `issueIds` (others are left out), as a write reads them: two queries whatever their number. */
export async function readCurrentIssues(trx: Trx, projectId: number, issueIds: readonly number[]): Promise<CurrentIssue[]> {
  if (!issueIds.length) return [];
  const issues = await trx
    .selectFrom("issues")
    .select(["id", "number", "title", "description", "status", "priority", "assignee_id", "due_date", "version"])
    .where("project_id", "=", projectId)
    .where("id", "in", [...issueIds])
    .execute();
  if (!issues.length) return [];
  const labels = await trx
    .selectFrom("issue_labels")
    .select(["issue_id", "label_id"])
    .where("issue_id", "in", issues.map((issue) => issue.id))
    .execute();
  return issues.map((issue) => ({ ...issue, labelIds: labelSet(labels.filter((row) => row.issue_id === issue.id).map((row) => row.label_id)) }));
}

/** What a write does to one issue: the columns it sets and each field's change, as its event carries them. */
export type IssueDiff = { set: Record<string, unknown>; changed: FieldChanges };

/** The difference between an issue and the fields given (the others stay): a field given with its current value is no change. */
export function diffIssue(current: CurrentIssue, changes: Partial<IssueFields>, now: Date): IssueDiff {
  const set: Record<string, unknown> = {};
  const changed: FieldChanges = {};
  if (changes.title !== undefined && changes.title !== current.title) {
    set.title = changes.title;
    changed.title = { from: current.title, to: changes.title };
  }
  if (changes.description !== undefined && changes.description !== current.description) {
    set.description = changes.description;
    changed.description = { from: current.description, to: changes.description };
  }
  if (changes.status !== undefined && changes.status !== current.status) {
    set.status = changes.status;
    if (isClosed(changes.status) !== isClosed(current.status)) set.closed_at = isClosed(changes.status) ? now.toISOString() : null;
    changed.status = { from: current.status, to: changes.status };
  }
  if (changes.priority !== undefined && rankOf(changes.priority) !== current.priority) {
    set.priority = rankOf(changes.priority);
    changed.priority = { from: priorityOf(current.priority), to: changes.priority };
  }
  if (changes.assigneeId !== undefined && changes.assigneeId !== current.assignee_id) {
    set.assignee_id = changes.assigneeId;
    changed.assigneeId = { from: current.assignee_id, to: changes.assigneeId };
  }
  if (changes.dueDate !== undefined && changes.dueDate !== current.due_date) {
    set.due_date = changes.dueDate;
    changed.dueDate = { from: current.due_date, to: changes.dueDate };
  }
  const wantedLabels = changes.labelIds ? labelSet(changes.labelIds) : undefined;
  if (wantedLabels !== undefined && wantedLabels.join() !== current.labelIds.join()) {
    changed.labelIds = { from: current.labelIds, to: wantedLabels };
  }
  return { set, changed };
}

/** Whether a diff changes anything. */
export const changesSomething = (diff: IssueDiff) => Object.keys(diff.changed).length > 0;

/**
 * Writes one issue's diff, if the issue is still at the version it was read at: the next version,
 * its labels, and its event through the one write path (with its activity, watches, notifications
 * and webhooks). False, and nothing written, when someone saved it since it was read.
 */
export async function saveIssueDiff(
  trx: Trx,
  write: { project: ProjectScope; actorId: number; now: Date; mail?: NotificationMail },
  current: CurrentIssue,
  diff: IssueDiff,
): Promise<boolean> {
  const version = current.version + 1;
  const saved = await trx
    .updateTable("issues")
    .set({ ...diff.set, version, updated_at: write.now.toISOString() })
    .where("id", "=", current.id)
    .where("version", "=", current.version)
    .executeTakeFirst();
  if (Number(saved.numUpdatedRows) === 0) return false;
  const labels = diff.changed.labelIds;
  if (labels) {
    await trx.deleteFrom("issue_labels").where("issue_id", "=", current.id).execute();
    if (labels.to.length) {
      await trx
        .insertInto("issue_labels")
        .values(labels.to.map((labelId) => ({ issue_id: current.id, label_id: labelId })))
        .execute();
    }
  }
  await recordIssueEvent(
    trx,
    { project: write.project, issueId: current.id, actorId: write.actorId, version, now: write.now, mail: write.mail },
    { type: "issue.updated", changes: diff.changed },
  );
  return true;
}

/**
 * Saves the fields given (the others stay), if the issue is still at `version`; otherwise a
 * conflict naming who changed what. The change is one `issue.updated` event with each changed
 * field's values (and one activity row per field). An issue of another project is not found.
 */
export async function updateIssue(
  db: Database,
  update: { project: ProjectScope; issueId: number; actorId: number; version: number; changes: Partial<IssueFields>; now: Date; mail?: NotificationMail },
): Promise<{ ok: true; changed: boolean } | Conflict | FieldProblem | NotFound> {
  return db.transaction().execute(async (trx) => {
    const [current] = await readCurrentIssues(trx, update.project.id, [update.issueId]);
    if (!current) return issueNotFound;
    if (current.version !== update.version) return describeConflict(trx, update.issueId, update.version);

    // An assignee kept as it was is not checked again (they may have become a viewer since).
    const assigneeChanges = update.changes.assigneeId !== undefined && update.changes.assigneeId !== current.assignee_id;
    const problem = await checkReferences(trx, update.project.workspace_id, {
      ...update.changes,
      assigneeId: assigneeChanges ? update.changes.assigneeId : undefined,
    });
    if (problem) return problem;

    const diff = diffIssue(current, update.changes, update.now);
    if (!changesSomething(diff)) return { ok: true, changed: false };
    // Someone saved between our read and our write.
    if (!(await saveIssueDiff(trx, update, current, diff))) return describeConflict(trx, update.issueId, update.version);
    return { ok: true, changed: true };
  });
}

/** The issue as the detail screen shows it, or undefined. */
export async function findIssue(db: Database, projectId: number, number: number) {
  const issue = await db
    .selectFrom("issues")
    .leftJoin("users as assignee", "assignee.id", "issues.assignee_id")
    .leftJoin("users as reporter", "reporter.id", "issues.reporter_id")
    .select([
      "issues.id",
      "issues.number",
      "issues.title",
      "issues.description",
      "issues.status",
      "issues.priority",
      "issues.assignee_id",
      "issues.reporter_id",
      "issues.due_date",
      "issues.closed_at",
      "issues.version",
      "issues.created_at",
      "issues.updated_at",
      "assignee.name as assigneeName",
      "reporter.name as reporterName",
    ])
    .where("issues.project_id", "=", projectId)
    .where("issues.number", "=", number)
    .executeTakeFirst();
  if (!issue) return undefined;
  const labels = await db
    .selectFrom("issue_labels")
    .innerJoin("labels", "labels.id", "issue_labels.label_id")
    .select(["labels.id", "labels.name", "labels.color"])
    .where("issue_labels.issue_id", "=", issue.id)
    .orderBy("labels.name")
    .execute();
  return { ...issue, priority: priorityOf(issue.priority), labels };
}

export type IssueDetail = NonNullable<Awaited<ReturnType<typeof findIssue>>>;

/** Issue numbers in URLs: a positive integer, or the URL names no issue. */
export const parseIssueNumber = (raw: string | undefined): number | null => parsePositiveInteger(raw);

type DetailRow = {
  /** The issue, a label, a comment, an activity, the viewer's watch, their unread notification, an attachment; its parent, a sub-issue, a relation. */
  k: "i" | "l" | "c" | "a" | "w" | "n" | "f" | "p" | "s" | "r";
  id: number;
  n1: number | null;
  n2: number | null;
  n3: number | null;
  n4: number | null;
  n5: number | null;
  s1: string | null;
  s2: string | null;
  s3: string | null;
  s4: string | null;
  s5: string | null;
  s6: string | null;
  t1: string | null;
  t2: string | null;
  t3: string | null;
};

/**
 * The issue as the detail screen shows it, with its labels, its timeline (comments and changes,
 * oldest first) and its links (parent, sub-issues, relations: `linkBranches`), in one query: one
 * row per thing, the same columns in each branch.
 * Undefined when the project has no issue of that number.
 */
export async function findIssueDetail(db: Database, projectId: number, number: number, viewerId: number) {
  const issueId = sql`(select id from issues where project_id = ${projectId} and number = ${number})`;
  const int = sql`cast(null as integer)`;
  const text = sql`cast(null as text)`;
  const time = sql`cast(null as timestamptz)`;
  const { rows } = await sql<DetailRow>`
    select 'i' as k, i.id, i.number as n1, i.priority as n2, i.assignee_id as n3, i.reporter_id as n4, i.version as n5,
        i.title as s1, i.description as s2, i.status as s3, assignee.name as s4, reporter.name as s5, cast(i.due_date as text) as s6,
        i.created_at as t1, i.updated_at as t2, i.closed_at as t3
      from issues i
      left join users assignee on assignee.id = i.assignee_id
      left join users reporter on reporter.id = i.reporter_id
      where i.id = ${issueId}
    union all
    select 'l', l.id, ${int}, ${int}, ${int}, ${int}, ${int}, l.name, l.color, ${text}, ${text}, ${text}, ${text}, ${time}, ${time}, ${time}
      from issue_labels il inner join labels l on l.id = il.label_id
      where il.issue_id = ${issueId}
    union all
    select 'c', c.id, c.author_id, ${int}, ${int}, ${int}, ${int}, u.name, c.body, ${text}, ${text}, ${text}, ${text}, c.created_at, c.edited_at, c.deleted_at
      from comments c left join users u on u.id = c.author_id
      where c.issue_id = ${issueId}
    union all
    select 'a', a.id, a.actor_id, ${int}, ${int}, ${int}, ${int}, u.name, a.kind, a.from_value, a.to_value, fu.name, tu.name, a.created_at, ${time}, ${time}
      from activities a
      left join users u on u.id = a.actor_id
      left join users fu on fu.id = a.from_user_id
      left join users tu on tu.id = a.to_user_id
      where a.issue_id = ${issueId}
    union all
    select 'w', w.user_id, ${int}, ${int}, ${int}, ${int}, ${int}, ${text}, ${text}, ${text}, ${text}, ${text}, ${text}, w.created_at, ${time}, ${time}
      from watches w
      where w.issue_id = ${issueId} and w.user_id = ${viewerId}
    union all
    select 'n', n.id, ${int}, ${int}, ${int}, ${int}, ${int}, ${text}, ${text}, ${text}, ${text}, ${text}, ${text}, n.updated_at, ${time}, ${time}
      from notifications n
      where n.issue_id = ${issueId} and n.user_id = ${viewerId} and n.read_at is null
    union all
    select 'f', f.id, f.uploader_id, f.size, f.width, f.height, f.comment_id, f.filename, f.content_type, u.name, ${text}, ${text}, ${text}, f.created_at, ${time}, ${time}
      from attachments f left join users u on u.id = f.uploader_id
      where f.issue_id = ${issueId}
    ${linkBranches(issueId)}
    order by k, s1, id`.execute(db);
  const row = rows.find((r) => r.k === "i");
  if (!row) return undefined;
  const issue = {
    id: row.id,
    number: row.n1!,
    title: row.s1!,
    description: row.s2!,
    status: row.s3 as Status,
    priority: priorityOf(row.n2!),
    assignee_id: row.n3,
    reporter_id: row.n4,
    due_date: row.s6,
    closed_at: row.t3,
    version: row.n5!,
    created_at: row.t1!,
    updated_at: row.t2!,
    assigneeName: row.s4,
    reporterName: row.s5,
    // By name, as everywhere labels are listed.
    labels: rows.filter((r) => r.k === "l").map((r) => ({ id: r.id, name: r.s1!, color: r.s2! })),
  };
  const entries: TimelineEntry[] = [];
  for (const r of rows) {
    if (r.k === "c") {
      entries.push({ type: "comment", id: r.id, at: r.t1!, authorId: r.n1, authorName: r.s1, body: r.s2!, edited: r.t2 !== null, deleted: r.t3 !== null });
    } else if (r.k === "a") {
      // An assignee is a user (by id) or, before migrations/0016, a name that matched nobody.
      const assignee = r.s2 === "assignee";
      entries.push({ type: "activity", id: r.id, at: r.t1!, actorId: r.n1, actorName: r.s1, kind: r.s2!, from: (assignee && r.s5) || r.s3, to: (assignee && r.s6) || r.s4 });
    }
  }
  const attachments: AttachmentSummary[] = rows
    .filter((r) => r.k === "f")
    .map((r) => ({ id: r.id, filename: r.s1!, contentType: r.s2!, size: r.n2!, width: r.n3, height: r.n4, commentId: r.n5, uploaderId: r.n1, uploaderName: r.s3, createdAt: r.t1! }))
    .sort((a, b) => a.id - b.id);
  return { issue, timeline: inTimelineOrder(entries), links: linksOf(rows), attachments, watching: rows.some((r) => r.k === "w"), unread: rows.some((r) => r.k === "n") };
}
