import type { Generated } from "kysely";

/**
 * The tables as the application sees them. Timestamps are ISO-8601 strings in UTC on both databases
 * (PostgreSQL's timestamptz is read back as such); flags are 0/1 integers.
 */
export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  workspaces: WorkspacesTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  rate_limit_hits: RateLimitHitsTable;
  projects: ProjectsTable;
  issues: IssuesTable;
  labels: LabelsTable;
  issue_labels: IssueLabelsTable;
  comments: CommentsTable;
  activities: ActivitiesTable;
  monitoring_events: MonitoringEventsTable;
  instance_secrets: InstanceSecretsTable;
  jobs: JobsTable;
  password_resets: PasswordResetsTable;
  watches: WatchesTable;
  events: EventsTable;
  notifications: NotificationsTable;
  api_tokens: ApiTokensTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  issue_relations: IssueRelationsTable;
  saved_views: SavedViewsTable;
  attachments: AttachmentsTable;
  attachment_chunks: AttachmentChunksTable;
}

/**
 * A file uploaded to an issue or with a comment (migrations/0022, app/attachments/, decision record
 * 024), its bytes in `attachment_chunks`. `issue_id` is null while it waits for the form it was
 * dropped into (with JavaScript) to be sent; unclaimed, it is deleted after a day.
 */
export interface AttachmentsTable {
  id: Generated<number>;
  workspace_id: number;
  issue_id: number | null;
  comment_id: number | null;
  uploader_id: number | null;
  /** As uploaded, made safe to show and to send in a header (safeFilename, app/attachments/attachments.server.ts). */
  filename: string;
  /** What Cairn found the bytes to be, never the name's or the browser's claim. */
  content_type: string;
  size: number;
  /** Of an image shown inline, so that the page keeps its place while it loads. */
  width: number | null;
  height: number | null;
  created_at: string;
}

/**
 * A file's bytes, 256 KiB a row (migrations/0025, decision record 026): chunk `position` holds them
 * from position × 256 KiB on, so that a file is stored and served a chunk at a time.
 */
export interface AttachmentChunksTable {
  attachment_id: number;
  position: number;
  content: Buffer;
}

/** A project's list saved under a name (migrations/0021, app/views/): for its owner, or shared with the workspace. */
export interface SavedViewsTable {
  id: Generated<number>;
  workspace_id: number;
  project_id: number;
  owner_id: number;
  name: string;
  /** The list's filters and sort as its canonical query string (`status=todo&assignee=me&sort=priority`), "" for none. */
  query: string;
  /** 1: the whole workspace sees it; 0: only its owner. */
  shared: number;
  created_at: string;
  updated_at: string;
}

export const webhookEventTypes = ["issue.created", "issue.updated", "comment.created", "comment.updated", "comment.deleted"] as const;
/** What a webhook may subscribe to (Cairn cannot delete issues, so there is no `issue.deleted`). */
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** A workspace's webhook (migrations/0018, app/webhooks/). */
export interface WebhooksTable {
  id: Generated<number>;
  workspace_id: number;
  url: string;
  /** The event types it wants, as a JSON array; empty: all of them. */
  events: string;
  /** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
  secret: string;
  /** 1 on, 0 off. */
  enabled: Generated<number>;
  /** Why it is off: `manual`, or `failing` (turned off by Cairn after a day of failures). */
  disabled_reason: "manual" | "failing" | null;
  created_by: number | null;
  /** The first failed attempt since the last success; null while it works. */
  failing_since: string | null;
  last_success_at: string | null;
  created_at: string;
  updated_at: string;
}

export const webhookDeliveryStatuses = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** One event to send to one webhook (migrations/0018): the webhooks' outbox and its log. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  issue_id: number;
  event_id: number | null;
  /** `webhook-id`: the same for every attempt and every redelivery of this event to this webhook. */
  message_id: string;
  type: WebhookEventType;
  /** `{type, timestamp, data}` as JSON, made when the event happened (the issue's `url` is a path until sent). */
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  /** Not before: when it was written, or when a failed attempt is retried. */
  run_at: string;
  locked_by: string | null;
  locked_until: string | null;
  /** When it was delivered or failed for good. */
  finished_at: string | null;
  created_at: string;
}

/** One attempt at a delivery (migrations/0018): its answer or error, and how long it took. */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  /** The receiver's HTTP status; null when there was none (refused, timed out, connection failed). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
}

export const apiTokenScopes = ["read", "write"] as const;
/** What an API token may do: read, or read and write (within its user's roles). */
export type ApiTokenScope = (typeof apiTokenScopes)[number];

/** A personal access token (migrations/0017): `cairn_pat_…`, stored hashed. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  scope: ApiTokenScope;
  /** SHA-256 of the token. */
  token_hash: string;
  /** Null: it never expires. */
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
  /** The minute (since the epoch) its rate limit counts in, and the requests made in it (migrations/0019). */
  rate_window: Generated<number>;
  rate_used: Generated<number>;
}

/** A change to an issue as a typed domain event (migrations/0016, app/issues/issue-events.server.ts). */
export interface EventsTable {
  id: Generated<number>;
  workspace_id: number;
  project_id: number;
  issue_id: number;
  /** `issue.created`, `issue.updated`, `comment.created`, … */
  type: string;
  actor_id: number | null;
  /** The event's values, as JSON. */
  payload: string;
  created_at: string;
}

export const notificationReasons = ["assigned", "mentioned", "commented", "status", "reassigned", "webhook_disabled"] as const;
export type NotificationReason = (typeof notificationReasons)[number];

/**
 * One person's inbox row for one issue (migrations/0016): its latest reason; unread until read_at.
 * A webhook's notice (`webhook_disabled`, migrations/0018) has a webhook and no issue.
 */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  workspace_id: number;
  issue_id: number | null;
  webhook_id: number | null;
  reason: NotificationReason;
  actor_id: number | null;
  read_at: string | null;
  created_at: string;
  updated_at: string;
}

export const notificationEmails = ["all", "direct", "none"] as const;
/** Which notifications are mailed: all, those of being assigned or mentioned, none. */
export type NotificationEmail = (typeof notificationEmails)[number];

/** Someone watching an issue (migrations/0015): they hear of its comments, status and assignment. */
export interface WatchesTable {
  issue_id: number;
  user_id: number;
  created_at: string;
}

/** A "Forgot password?" link (migrations/0013): one hour, one use. */
export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the link's token. */
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/**
 * The outbox (migrations/0012, app/jobs/): a job is written with the change that makes it, and run
 * once it commits, by whichever instance claims it.
 */
export interface JobsTable {
  id: Generated<number>;
  /** What to do, e.g. `mail`; its handler is chosen by it. */
  kind: string;
  /** The handler's input, as JSON. */
  payload: string;
  /** Not before: when it was written, or when a failed attempt may be retried. */
  run_at: string;
  /** Attempts started (a claim counts one). */
  attempts: Generated<number>;
  /** The instance running it, until `locked_until`; after that any instance may claim it again. */
  locked_by: string | null;
  locked_until: string | null;
  /** The last failed attempt's error. */
  last_error: string | null;
  done_at: string | null;
  /** Set when it failed for good (a permanent error, or its last attempt). */
  failed_at: string | null;
  created_at: string;
}

/** A secret shared by every instance on one database, e.g. `session` (migrations/0006). */
export interface InstanceSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/**
 * One use of a sliding-window limit (app/security/sliding-window.server.ts): a sign-in attempt, a sign-up,
 * a monitoring beacon. It counts against its key until it expires (migrations/0008).
 */
export interface RateLimitHitsTable {
  id: Generated<number>;
  /** `sign-in:account:<email>`, `sign-in:ip:<address>`, `sign-up:<address>`, `beacon:<address>`. */
  key: string;
  expires_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  /** Unique, 3–39 of a–z, 0–9 and single hyphens: `@ada` in mentions (migrations/0014). */
  handle: string;
  password_hash: string;
  is_instance_admin: number;
  last_workspace_id: number | null;
  /** An IANA time zone (`Europe/Paris`) that times are shown in; null until set (migrations/0010). */
  time_zone: string | null;
  /** Which notifications are mailed (migrations/0016). */
  notification_email: Generated<NotificationEmail>;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 of the cookie's random token: a copy of the database signs nobody in. */
  token_hash: string;
  user_id: number;
  expires_at: string;
  last_seen_at: string;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
}

export interface WorkspacesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export const roles = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof roles)[number];

export interface MembershipsTable {
  id: Generated<number>;
  workspace_id: number;
  user_id: number;
  role: Role;
  created_at: string;
  updated_at: string;
}

export interface InvitationsTable {
  id: Generated<number>;
  workspace_id: number;
  email: string;
  role: Role;
  token_hash: string;
  invited_by: number | null;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface ProjectsTable {
  id: Generated<number>;
  workspace_id: number;
  key: string;
  name: string;
  description: Generated<string>;
  archived_at: string | null;
  next_issue_number: Generated<number>;
  created_at: string;
  updated_at: string;
}

export const statuses = ["backlog", "todo", "in_progress", "in_review", "done", "canceled"] as const;
export type Status = (typeof statuses)[number];

export interface IssuesTable {
  id: Generated<number>;
  project_id: number;
  number: number;
  title: string;
  description: Generated<string>;
  status: Status;
  /** 0 none, 1 low, 2 medium, 3 high, 4 urgent. */
  priority: Generated<number>;
  assignee_id: number | null;
  reporter_id: number | null;
  /** `YYYY-MM-DD`. */
  due_date: string | null;
  closed_at: string | null;
  sort_order: Generated<number>;
  version: Generated<number>;
  /** Its parent issue, in the same workspace (migrations/0020); at most 5 levels, 100 children each. */
  parent_id: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

export const relationTypes = ["blocks", "relates_to", "duplicate_of"] as const;
/** How a relation is stored: one direction only ("blocked by" is `blocks` the other way round). */
export type RelationType = (typeof relationTypes)[number];

/** A relation between two issues of one workspace (migrations/0020, app/issues/issue-links.server.ts). */
export interface IssueRelationsTable {
  id: Generated<number>;
  from_id: number;
  to_id: number;
  type: RelationType;
  creator_id: number | null;
  created_at: string;
}

export interface LabelsTable {
  id: Generated<number>;
  workspace_id: number;
  name: string;
  color: string;
  created_at: string;
  updated_at: string;
}

export interface IssueLabelsTable {
  issue_id: number;
  label_id: number;
}

export interface CommentsTable {
  id: Generated<number>;
  issue_id: number;
  author_id: number | null;
  body: string;
  edited_at: string | null;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export const activityKinds = [
  "created", "title", "description", "status", "priority", "assignee", "labels", "due_date", "comment_deleted",
  "parent", "sub_issue", "relation",
  // Another issue's description or comment mentions this one; `to_value` is that issue's key (WEB-7).
  "referenced",
  // A file attached to the issue (`to_value`: its name) or removed from it (`from_value`).
  "attachment",
] as const;
export type ActivityKind = (typeof activityKinds)[number];

export interface ActivitiesTable {
  id: Generated<number>;
  issue_id: number;
  actor_id: number | null;
  kind: ActivityKind;
  issue_version: number;
  /**
   * The values, not their display: a title, a status or priority key, label ids as JSON (`[3,7]`),
   * a due date. An assignee is `from_user_id`/`to_user_id`; rows older than migrations/0016 whose
   * names matched nobody keep the name here. Links name the other issue by key: `parent` and
   * `sub_issue` as `WEB-12`, `relation` as its view and key (`blocked_by WEB-12`).
   */
  from_value: string | null;
  to_value: string | null;
  from_user_id: number | null;
  to_user_id: number | null;
  created_at: string;
}

export type MonitoringEventKind = "server_error" | "client_error" | "web_vital";

export interface MonitoringEventsTable {
  id: Generated<number>;
  kind: MonitoringEventKind;
  /** Groups errors: the server's digest, or a hash of message and route for client errors. */
  digest: string | null;
  route: string | null;
  url: string | null;
  method: string | null;
  message: string | null;
  stack: string | null;
  user_id: number | null;
  user_agent: string | null;
  request_id: string | null;
  name: string | null;
  value: number | null;
  rating: string | null;
  count: number;
  first_seen: string;
  last_seen: string;
}
