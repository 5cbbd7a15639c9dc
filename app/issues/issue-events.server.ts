import type { Transaction } from "kysely";
import type { ActivityKind, DB, NotificationReason } from "~/db/schema";
import { notify, type NotificationMail } from "~/notifications/notifications.server";
import { reasonRank } from "~/notifications/reasons";
import type { IssueFields } from "./issue-fields";
import type { IssueEvent } from "./issue-event-types";
import { relationValue } from "./issue-links";
import { recordReferences } from "./issue-references.server";
import { mentionedHandles, newlyMentioned } from "./mentions";
import { newlyReferenced, referencedIssues } from "./references";
import { enqueueWebhookDeliveries } from "~/webhooks/enqueue.server";
import { watchIssue } from "./watching.server";
import type { ProjectScope } from "./write-scope.server";

/** Where and when an event happened, and who did it. */
export type EventScope = {
  project: ProjectScope;
  issueId: number;
  actorId: number;
  /** The issue's version after the change (activity rows carry it, for conflict messages). */
  version: number;
  now: Date;
  /** Set when the instance sends mail: notifications are mailed too. */
  mail?: NotificationMail;
};

type Trx = Transaction<DB>;

/** The activity kind each field's change is recorded as, in the order a save lists them. */
const activityKinds: { [F in keyof IssueFields]: ActivityKind } = {
  title: "title",
  description: "description",
  status: "status",
  priority: "priority",
  assigneeId: "assignee",
  dueDate: "due_date",
  labelIds: "labels",
};

const labelValue = (ids: number[]) => (ids.length ? JSON.stringify(ids) : null);

/** The activity rows of an event: values, not display strings (app/issues/timeline.ts names them). */
function activityOf(event: IssueEvent) {
  type Row = { kind: ActivityKind; from_value: string | null; to_value: string | null; from_user_id: number | null; to_user_id: number | null };
  const row = (kind: ActivityKind, values: Partial<Row> = {}): Row => ({ kind, from_value: null, to_value: null, from_user_id: null, to_user_id: null, ...values });
  switch (event.type) {
    case "issue.created":
      return [row("created")];
    case "comment.deleted":
      return [row("comment_deleted")];
    case "issue.parent_changed":
      return [row("parent", { from_value: event.parent.from?.key ?? null, to_value: event.parent.to?.key ?? null })];
    case "issue.sub_issue_added":
      return [row("sub_issue", { to_value: event.subIssue.key })];
    case "issue.sub_issue_removed":
      return [row("sub_issue", { from_value: event.subIssue.key })];
    case "issue.relation_added":
      return [row("relation", { to_value: relationValue(event.relation, event.issue.key) })];
    case "issue.relation_removed":
      return [row("relation", { from_value: relationValue(event.relation, event.issue.key) })];
    case "issue.attachments_added":
      return event.attachments.map((attachment) => row("attachment", { to_value: attachment.filename }));
    case "issue.attachment_removed":
      return [row("attachment", { from_value: event.attachment.filename })];
    case "issue.updated": {
      const rows: Row[] = [];
      const { changes } = event;
      for (const field of Object.keys(activityKinds) as (keyof IssueFields)[]) {
        const change = changes[field];
        if (!change) continue;
        const kind = activityKinds[field];
        if (field === "description") rows.push(row(kind));
        else if (field === "assigneeId") rows.push(row(kind, { from_user_id: changes.assigneeId!.from, to_user_id: changes.assigneeId!.to }));
        else if (field === "labelIds") rows.push(row(kind, { from_value: labelValue(changes.labelIds!.from), to_value: labelValue(changes.labelIds!.to) }));
        else rows.push(row(kind, { from_value: change.from as string | null, to_value: change.to as string | null }));
      }
      return rows;
    }
    default:
      return [];
  }
}

/** Who starts watching because of the event (besides those it mentions). */
function newWatchers(event: IssueEvent, actorId: number): number[] {
  if (event.type === "issue.created") return [actorId, ...(event.values.assigneeId === null ? [] : [event.values.assigneeId])];
  if (event.type === "issue.updated" && event.changes.assigneeId?.to) return [event.changes.assigneeId.to];
  if (event.type === "comment.created") return [actorId];
  return [];
}

/** The handles an event newly mentions: in a new text, or added by an edit. */
function mentionsOf(event: IssueEvent): string[] {
  if (event.type === "issue.created") return mentionedHandles(event.values.description);
  if (event.type === "comment.created") return mentionedHandles(event.body);
  if (event.type === "comment.edited") return newlyMentioned(event.body.from, event.body.to);
  if (event.type === "issue.updated" && event.changes.description) return newlyMentioned(event.changes.description.from, event.changes.description.to);
  return [];
}

/** The issues an event newly references (`WEB-42`): in a new text, or added by an edit. */
function referencesOf(event: IssueEvent) {
  if (event.type === "issue.created") return referencedIssues(event.values.description);
  if (event.type === "comment.created") return referencedIssues(event.body);
  if (event.type === "comment.edited") return newlyReferenced(event.body.from, event.body.to);
  if (event.type === "issue.updated" && event.changes.description) return newlyReferenced(event.changes.description.from, event.changes.description.to);
  return [];
}

/** What the issue's watchers hear of: comments, status changes, assignment. */
function watcherReason(event: IssueEvent): NotificationReason | undefined {
  if (event.type === "comment.created") return "commented";
  if (event.type === "issue.updated" && event.changes.status) return "status";
  if (event.type === "issue.updated" && event.changes.assigneeId) return "reassigned";
  return undefined;
}

/** Members of the workspace with these handles: only they are mentioned. */
async function membersByHandle(trx: Trx, workspaceId: number, handles: string[]): Promise<number[]> {
  if (!handles.length) return [];
  const rows = await trx
    .selectFrom("users")
    .innerJoin("memberships", "memberships.user_id", "users.id")
    .select("users.id")
    .where("memberships.workspace_id", "=", workspaceId)
    .where("users.handle", "in", handles)
    .execute();
  return rows.map((row) => row.id);
}

/** Watchers who are still members of the workspace. */
async function watchersOf(trx: Trx, scope: EventScope): Promise<number[]> {
  const rows = await trx
    .selectFrom("watches")
    .innerJoin("memberships", "memberships.user_id", "watches.user_id")
    .select("watches.user_id")
    .where("watches.issue_id", "=", scope.issueId)
    .where("memberships.workspace_id", "=", scope.project.workspace_id)
    .execute();
  return rows.map((row) => row.user_id);
}

/**
 * Records an event of an issue write, inside its transaction: the event, its webhook deliveries
 * (decision record 020), its activity, the issues its text newly references, who now watches the
 * issue, and who is notified (never the actor) — in the inbox, and by mail through the outbox
 * when `scope.mail` is set.
 */
export async function recordIssueEvent(trx: Trx, scope: EventScope, event: IssueEvent): Promise<void> {
  const now = scope.now.toISOString();
  const { type, ...payload } = event;
  const { id: eventId } = await trx
    .insertInto("events")
    .values({
      workspace_id: scope.project.workspace_id,
      project_id: scope.project.id,
      issue_id: scope.issueId,
      type,
      actor_id: scope.actorId,
      payload: JSON.stringify(payload),
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await enqueueWebhookDeliveries(trx, { workspaceId: scope.project.workspace_id, issueId: scope.issueId, eventId, actorId: scope.actorId, now: scope.now }, event);
  const activity = activityOf(event);
  if (activity.length) {
    await trx
      .insertInto("activities")
      .values(activity.map((row) => ({ ...row, issue_id: scope.issueId, actor_id: scope.actorId, issue_version: scope.version, created_at: now })))
      .execute();
  }
  await recordReferences(trx, { workspaceId: scope.project.workspace_id, issueId: scope.issueId, actorId: scope.actorId, now: scope.now }, referencesOf(event));

  const mentioned = await membersByHandle(trx, scope.project.workspace_id, mentionsOf(event));
  for (const userId of new Set([...newWatchers(event, scope.actorId), ...mentioned])) {
    await watchIssue(trx, { project: scope.project, issueId: scope.issueId, userId, now: scope.now });
  }

  const reasons = new Map<number, NotificationReason>();
  const give = (userId: number, reason: NotificationReason) => {
    const held = reasons.get(userId);
    if (userId !== scope.actorId && (!held || reasonRank[reason] > reasonRank[held])) reasons.set(userId, reason);
  };
  const forWatchers = watcherReason(event);
  if (forWatchers) for (const userId of await watchersOf(trx, scope)) give(userId, forWatchers);
  for (const userId of mentioned) give(userId, "mentioned");
  const assignee = event.type === "issue.created" ? event.values.assigneeId : event.type === "issue.updated" ? event.changes.assigneeId?.to : null;
  if (assignee) give(assignee, "assigned");
  if (!reasons.size) return;

  const status = event.type === "issue.updated" ? event.changes.status?.to : undefined;
  const comment = event.type === "comment.created" ? event.body : event.type === "comment.edited" ? event.body.to : undefined;
  await notify(trx, {
    workspaceId: scope.project.workspace_id,
    issueId: scope.issueId,
    actorId: scope.actorId,
    now: scope.now,
    mail: scope.mail,
    reasons,
    details: { status, comment },
  });
}
