import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { ApiComment } from "~/api/schemas.server";
import type { DB, WebhookEventType } from "~/db/schema";
import type { IssueEvent } from "~/issues/issue-event-types";
import { findApiIssueById } from "~/api/issues.server";
import { labelsById, people, type WebhookPerson } from "./payload.server";
import { subscribes } from "./webhooks.server";

/**
 * The webhook type of each issue event; a reorder (a card moved within its column) is not sent.
 * Parents, relations and attachments are changes of the issue: `issue.updated` (decision records 021, 024).
 */
export function webhookTypeOf(type: IssueEvent["type"]): WebhookEventType | undefined {
  switch (type) {
    case "issue.created":
    case "issue.updated":
    case "comment.created":
    case "comment.deleted":
      return type;
    case "comment.edited":
      return "comment.updated";
    case "issue.parent_changed":
    case "issue.sub_issue_added":
    case "issue.sub_issue_removed":
    case "issue.relation_added":
    case "issue.relation_removed":
    case "issue.attachments_added":
    case "issue.attachment_removed":
      return "issue.updated";
    default:
      return undefined;
  }
}

/** `msg_` and 24 random base64url characters: the `webhook-id` of one event to one webhook. */
export function newMessageId(): string {
  return `msg_${randomBytes(18).toString("base64url")}`;
}

/** The API's names for the fields an `issue.updated` changed, with people and labels as objects. */
async function describeChanges(trx: Transaction<DB>, event: Extract<IssueEvent, { type: "issue.updated" }>) {
  const { changes } = event;
  const who = await people(trx, [changes.assigneeId?.from, changes.assigneeId?.to]);
  const labels = await labelsById(trx, [...(changes.labelIds?.from ?? []), ...(changes.labelIds?.to ?? [])]);
  const person = (id: number | null | undefined) => (id == null ? null : (who.get(id) ?? { id, name: null, handle: null }));
  const labelList = (ids: number[]) => ids.map((id) => labels.get(id) ?? { id, name: null, color: null });
  const described: Record<string, { from: unknown; to: unknown }> = {};
  if (changes.title) described.title = changes.title;
  if (changes.description) described.description = changes.description;
  if (changes.status) described.status = changes.status;
  if (changes.priority) described.priority = changes.priority;
  if (changes.assigneeId) described.assignee = { from: person(changes.assigneeId.from), to: person(changes.assigneeId.to) };
  if (changes.labelIds) described.labels = { from: labelList(changes.labelIds.from), to: labelList(changes.labelIds.to) };
  if (changes.dueDate) described.dueDate = changes.dueDate;
  return described;
}

/** A parent, relation or attachment change as `changes`: the other issue by key, a file by id and name. */
function linkChanges(event: IssueEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case "issue.parent_changed":
      return { parent: { from: event.parent.from?.key ?? null, to: event.parent.to?.key ?? null } };
    case "issue.sub_issue_added":
      return { subIssues: { added: [event.subIssue.key], removed: [] } };
    case "issue.sub_issue_removed":
      return { subIssues: { added: [], removed: [event.subIssue.key] } };
    case "issue.relation_added":
      return { relations: { added: [{ type: event.relation, issue: event.issue.key }], removed: [] } };
    case "issue.relation_removed":
      return { relations: { added: [], removed: [{ type: event.relation, issue: event.issue.key }] } };
    case "issue.attachments_added":
      return { attachments: { added: event.attachments, removed: [] } };
    case "issue.attachment_removed":
      return { attachments: { added: [], removed: [event.attachment] } };
    default:
      return undefined;
  }
}

/** The comment as the API shows it (its `Comment` schema). */
async function commentOf(trx: Transaction<DB>, commentId: number): Promise<ApiComment> {
  const comment = await trx
    .selectFrom("comments")
    .leftJoin("users", "users.id", "comments.author_id")
    .select(["comments.id", "comments.body", "comments.created_at", "comments.updated_at", "comments.edited_at", "users.id as authorId", "users.name", "users.handle"])
    .where("comments.id", "=", commentId)
    .executeTakeFirstOrThrow();
  const author: WebhookPerson | null = comment.authorId === null ? null : { id: comment.authorId, name: comment.name!, handle: comment.handle! };
  return {
    id: comment.id,
    body: comment.body,
    author,
    createdAt: new Date(comment.created_at).toISOString(),
    updatedAt: new Date(comment.updated_at).toISOString(),
    edited: comment.edited_at !== null,
  };
}

/**
 * Writes the deliveries of an issue event to the webhooks of its workspace that are on and want
 * its type, in the change's transaction (decision record 020): committed with the change, never
 * without it. The payload is made now, from the issue as the change left it, so that it tells what
 * happened even if it is sent later. Nothing is read beyond the webhooks when none wants the event.
 */
export async function enqueueWebhookDeliveries(
  trx: Transaction<DB>,
  scope: { workspaceId: number; issueId: number; eventId: number; actorId: number; now: Date },
  event: IssueEvent,
): Promise<void> {
  const type = webhookTypeOf(event.type);
  if (!type) return;
  const hooks = (await trx.selectFrom("webhooks").select(["id", "events"]).where("workspace_id", "=", scope.workspaceId).where("enabled", "=", 1).execute()).filter(
    (hook) => subscribes(hook.events, type),
  );
  if (!hooks.length) return;

  const actor = (await people(trx, [scope.actorId])).get(scope.actorId) ?? null;
  // The issue as the API shows it, as the change left it; PUBLIC_URL goes before its `url` when sent.
  const data: Record<string, unknown> = { issue: await findApiIssueById(trx, scope.issueId, "") };
  const links = linkChanges(event);
  if (event.type === "issue.updated") data.changes = await describeChanges(trx, event);
  else if (links) data.changes = links;
  if (event.type === "comment.created" || event.type === "comment.edited") data.comment = await commentOf(trx, event.commentId);
  if (event.type === "comment.deleted") data.comment = { id: event.commentId };
  data.actor = actor;
  const now = scope.now.toISOString();
  const payload = JSON.stringify({ type, timestamp: now, data });
  await trx
    .insertInto("webhook_deliveries")
    .values(
      hooks.map((hook) => ({
        webhook_id: hook.id,
        issue_id: scope.issueId,
        event_id: scope.eventId,
        message_id: newMessageId(),
        type,
        payload,
        status: "pending" as const,
        run_at: now,
        locked_by: null,
        locked_until: null,
        finished_at: null,
        created_at: now,
      })),
    )
    .execute();
}
