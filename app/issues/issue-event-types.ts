import type { IssueFields } from "./issue-fields";
import type { RelationView } from "./issue-links";

/**
 * The events of issues as data: what the writers hand to `recordIssueEvent`
 * (issue-events.server.ts) and what webhooks describe. Types alone, so that webhooks read them
 * without depending on the module that records events, which enqueues webhooks.
 */

/** Each changed field of an issue, its value before and after (labels as sorted ids). */
export type FieldChanges = { [F in keyof IssueFields]?: { from: IssueFields[F]; to: IssueFields[F] } };

/** The other issue of a parent or relation change, by id and by the key people know it by. */
export type IssueLinkRef = { id: number; key: string };

/**
 * A change to an issue as the rest of Cairn hears of it: written with the change, in its
 * transaction, to `events` (for what comes next: live updates), to the webhooks' outbox, and turned
 * into the issue's activity, its watchers and its notifications by `recordIssueEvent`, the one
 * place that does so.
 */
export type IssueEvent =
  | { type: "issue.created"; values: IssueFields & { number: number } }
  | { type: "issue.updated"; changes: FieldChanges }
  /** A card moved within its board column: its order changed, nothing else. */
  | { type: "issue.reordered"; sortOrder: number }
  | { type: "comment.created"; commentId: number; body: string }
  | { type: "comment.edited"; commentId: number; body: { from: string; to: string } }
  | { type: "comment.deleted"; commentId: number }
  /** On a child: its parent set, changed or removed. */
  | { type: "issue.parent_changed"; parent: { from: IssueLinkRef | null; to: IssueLinkRef | null } }
  /** On a parent: a sub-issue came or went. */
  | { type: "issue.sub_issue_added" | "issue.sub_issue_removed"; subIssue: IssueLinkRef }
  /** On each of a relation's two issues, as that issue sees it ("blocked by" on one, "blocks" on the other). */
  | { type: "issue.relation_added" | "issue.relation_removed"; relationId: number; relation: RelationView; issue: IssueLinkRef }
  /** Files attached to the issue itself (not with a comment, which shows its own), or one removed. */
  | { type: "issue.attachments_added"; attachments: AttachmentRef[] }
  | { type: "issue.attachment_removed"; attachment: AttachmentRef };

/** An attached file as events name it. */
export type AttachmentRef = { id: number; filename: string };
