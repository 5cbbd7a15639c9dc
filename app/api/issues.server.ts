import type { SelectQueryBuilder } from "kysely";
import { z } from "zod";
import type { Database } from "~/db/database.server";
import type { DB } from "~/db/schema";
import { issueKey, priorityOf } from "~/issues/issue-fields";
import {
  afterIssueCursor,
  applyIssueFilters,
  type IssueCursor,
  issueCursorColumns,
  issueCursorOf,
  type IssueFilters,
  labelsOfIssues,
  orderIssues,
} from "~/issues/issue-list.server";
import type { ApiIssue } from "./schemas.server";

/** Where an issue lives, for its key and its page's address. */
export type IssueHome = { projectId: number; projectKey: string; workspaceSlug: string; baseUrl: string };

export const issuePageUrl = (home: IssueHome, number: number) =>
  `${home.baseUrl}/w/${encodeURIComponent(home.workspaceSlug)}/p/${home.projectKey}/issues/${number}`;

/** The issues' columns the API shows, with their assignee and what a cursor needs. */
function issueColumns<O>(query: SelectQueryBuilder<DB, "issues", O>) {
  return query
    .leftJoin("users as assignee", "assignee.id", "issues.assignee_id")
    .select([
      "issues.id",
      "issues.number",
      "issues.title",
      "issues.description",
      "issues.status",
      "issues.priority",
      "issues.assignee_id",
      "issues.due_date",
      "issues.created_at",
      "issues.updated_at",
      "issues.closed_at",
      "issues.version",
      "assignee.name as assigneeName",
      "assignee.handle as assigneeHandle",
    ])
    .select(issueCursorColumns);
}

type IssueRow = Awaited<ReturnType<ReturnType<typeof issueColumns>["execute"]>>[number];

/** The rows as the API's issues, with their labels (one more query). */
async function asApiIssues(db: Database, home: IssueHome, rows: IssueRow[]): Promise<ApiIssue[]> {
  const labels = await labelsOfIssues(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    key: issueKey(home.projectKey, row.number),
    number: row.number,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: priorityOf(row.priority),
    assignee: row.assignee_id === null ? null : { id: row.assignee_id, name: row.assigneeName ?? "", handle: row.assigneeHandle ?? "" },
    labels: (labels.get(row.id) ?? []).map(({ id, name, color }) => ({ id, name, color: color as ApiIssue["labels"][number]["color"] })),
    dueDate: row.due_date,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    closedAt: row.closed_at,
    version: row.version,
    url: issuePageUrl(home, row.number),
  }));
}

/** The issue of that number in the project, as the API shows it; undefined when there is none. */
export async function findApiIssue(db: Database, home: IssueHome, number: number): Promise<ApiIssue | undefined> {
  const rows = await issueColumns(db.selectFrom("issues").where("issues.project_id", "=", home.projectId).where("issues.number", "=", number)).execute();
  return (await asApiIssues(db, home, rows))[0];
}

/**
 * The issue with this id, as the API shows it, wherever it lives (a webhook's payload, read inside
 * the change's transaction); `baseUrl` "" leaves its `url` a path.
 */
export async function findApiIssueById(db: Database, issueId: number, baseUrl: string): Promise<ApiIssue | undefined> {
  const home = await db
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .innerJoin("workspaces", "workspaces.id", "projects.workspace_id")
    .select(["issues.project_id as projectId", "issues.number", "projects.key as projectKey", "workspaces.slug as workspaceSlug"])
    .where("issues.id", "=", issueId)
    .executeTakeFirst();
  return home && findApiIssue(db, { ...home, baseUrl }, home.number);
}

/**
 * The list an issue cursor pages through (app/api/cursors.server.ts): the project, and the filters
 * and sort as they select — values in one order, `me` as the caller it means, the page number left out.
 */
export function issueListOf(projectId: number, filters: IssueFilters, meId: number): string {
  const { statuses, assignees, labelIds, priorities, q, parent, sort } = filters;
  const set = (values: (string | number)[]) => values.map(String).sort();
  const who = assignees.map((assignee) => (assignee === "me" ? meId : assignee));
  return JSON.stringify({ issuesOfProject: projectId, statuses: set(statuses), assignees: set(who), labelIds: set(labelIds), priorities: set(priorities), q, parent, sort });
}

/** What a page cursor of the issue list holds: where the page ended. */
export const issueListCursor = z.object({
  after: z.object({
    id: z.number().int(),
    number: z.number().int(),
    priority: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    dueDate: z.string().nullable(),
  }),
});

/**
 * A page of the project's issues with the list screen's filters and order, after `after` (keyset
 * pagination, as the CSV export reads): `limit` of them, and where the next page starts (null on
 * the last). Two queries.
 */
export async function listApiIssues(
  db: Database,
  home: IssueHome,
  request: { filters: IssueFilters; meId: number; limit: number; after: IssueCursor | null },
): Promise<{ issues: ApiIssue[]; next: IssueCursor | null }> {
  const { filters, meId, limit, after } = request;
  let query = applyIssueFilters(db.selectFrom("issues"), home.projectId, filters, meId);
  if (after) query = afterIssueCursor(query, filters.sort, after);
  const rows = await issueColumns(orderIssues(query, filters.sort))
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return { issues: await asApiIssues(db, home, page), next: rows.length > limit ? issueCursorOf(page.at(-1)!) : null };
}
