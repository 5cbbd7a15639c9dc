import type { Transaction } from "kysely";
import type { Database } from "~/db/database.server";
import type { DB, Status } from "~/db/schema";
import { issueKey, type Priority, priorityOf } from "~/issues/issue-fields";

type Reader = Database | Transaction<DB>;

export type WebhookPerson = { id: number; name: string; handle: string };
export type WebhookLabel = { id: number; name: string; color: string };

/**
 * An issue as the API shows it (issue 15). `url` is the issue page's path here; the dispatcher puts
 * PUBLIC_URL before it when it sends (see `withPublicUrl`).
 */
export type WebhookIssue = {
  id: number;
  key: string;
  number: number;
  title: string;
  description: string;
  status: Status;
  priority: Priority;
  assignee: WebhookPerson | null;
  labels: WebhookLabel[];
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  version: number;
  url: string;
};

export async function people(db: Reader, ids: (number | null | undefined)[]): Promise<Map<number, WebhookPerson>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === "number"))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom("users").select(["id", "name", "handle"]).where("id", "in", wanted).execute();
  return new Map(rows.map((row) => [row.id, { id: row.id, name: row.name, handle: row.handle }]));
}

export async function labelsById(db: Reader, ids: number[]): Promise<Map<number, WebhookLabel>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom("labels").select(["id", "name", "color"]).where("id", "in", [...new Set(ids)]).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The issue as it is now (inside the change's transaction: as the change left it). */
export async function webhookIssue(db: Reader, issueId: number): Promise<WebhookIssue> {
  const issue = await db
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .innerJoin("workspaces", "workspaces.id", "projects.workspace_id")
    .leftJoin("users as assignee", "assignee.id", "issues.assignee_id")
    .select([
      "issues.id",
      "issues.number",
      "issues.title",
      "issues.description",
      "issues.status",
      "issues.priority",
      "issues.due_date",
      "issues.created_at",
      "issues.updated_at",
      "issues.closed_at",
      "issues.version",
      "projects.key",
      "workspaces.slug",
      "assignee.id as assigneeId",
      "assignee.name as assigneeName",
      "assignee.handle as assigneeHandle",
    ])
    .where("issues.id", "=", issueId)
    .executeTakeFirstOrThrow();
  const labels = await db
    .selectFrom("issue_labels")
    .innerJoin("labels", "labels.id", "issue_labels.label_id")
    .select(["labels.id", "labels.name", "labels.color"])
    .where("issue_labels.issue_id", "=", issueId)
    .orderBy("labels.name")
    .execute();
  return {
    id: issue.id,
    key: issueKey(issue.key, issue.number),
    number: issue.number,
    title: issue.title,
    description: issue.description,
    status: issue.status,
    priority: priorityOf(issue.priority),
    assignee: issue.assigneeId === null ? null : { id: issue.assigneeId, name: issue.assigneeName!, handle: issue.assigneeHandle! },
    labels,
    dueDate: dateOnly(issue.due_date),
    createdAt: iso(issue.created_at),
    updatedAt: iso(issue.updated_at),
    closedAt: issue.closed_at === null ? null : iso(issue.closed_at),
    version: issue.version,
    url: `/w/${encodeURIComponent(issue.slug)}/p/${issue.key}/issues/${issue.number}`,
  };
}

/** Timestamps as ISO-8601 in UTC, whichever database read them. */
function iso(value: string | Date): string {
  return new Date(value).toISOString();
}

function dateOnly(value: string | Date | null): string | null {
  if (value === null) return null;
  return typeof value === "string" ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

/** The message as sent: the issue's `url` made absolute with PUBLIC_URL (kept a path without it). */
export function withPublicUrl(payload: string, publicUrl: string | undefined): string {
  if (!publicUrl) return payload;
  const message = JSON.parse(payload) as { data?: { issue?: { url?: unknown } } };
  const issue = message.data?.issue;
  if (issue && typeof issue.url === "string" && issue.url.startsWith("/")) issue.url = publicUrl + issue.url;
  return JSON.stringify(message);
}
