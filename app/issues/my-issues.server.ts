import { sql } from "kysely";
import type { Database } from "~/db/database.server";
import { closedStatuses, priorityOf, type Status, statuses } from "./issue-fields";
import { issuePageSize, labelsOfIssues } from "./issue-list.server";
import { peopleOnce } from "./issue-refs";

const openStatuses = statuses.filter((status) => !closedStatuses.includes(status));

/** The two tabs of "My issues": the open issues assigned to me (the default), and the ones I reported. */
export const myIssuesViews = ["assigned", "reported"] as const;
export type MyIssuesView = (typeof myIssuesViews)[number];

export const parseMyIssuesView = (value: string | null): MyIssuesView => (value === "reported" ? "reported" : "assigned");

/**
 * One page (50, as the list) of "My issues", across the workspace's live projects (an archived
 * project's issues are done with): the open issues assigned to me, by status in the workflow's
 * order, then priority (urgent first), then the latest update; or the issues I reported, open or
 * closed, latest update first. Two queries: the rows, each with the number of matching issues
 * (and for the assigned ones, of its status: the groups' counts), then their labels.
 */
export async function myIssues(db: Database, { workspaceId, userId, view, page: wanted }: { workspaceId: number; userId: number; view: MyIssuesView; page: number }) {
  const pageAt = (page: number) =>
    db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .leftJoin("users as assignee", "assignee.id", "issues.assignee_id")
      .select((eb) => [
        "issues.id",
        "issues.number",
        "issues.title",
        "issues.status",
        "issues.priority",
        "issues.due_date",
        "issues.updated_at",
        "projects.key as projectKey",
        "assignee.id as assigneeId",
        "assignee.name as assigneeName",
        eb.fn.countAll<number>().over().as("total"),
      ])
      .where("projects.workspace_id", "=", workspaceId)
      .where("projects.archived_at", "is", null)
      .$if(view === "assigned", (query) =>
        query
          .select((eb) => eb.fn.countAll<number>().over((over) => over.partitionBy("issues.status")).as("statusTotal"))
          .where("issues.assignee_id", "=", userId)
          .where("issues.status", "in", openStatuses)
          .orderBy(sql`case issues.status ${sql.join(
            openStatuses.map((status, rank) => sql`when ${status} then ${rank}`),
            sql` `,
          )} end`)
          .orderBy("issues.priority", "desc"),
      )
      .$if(view === "reported", (query) => query.where("issues.reporter_id", "=", userId))
      .orderBy("issues.updated_at", "desc")
      .orderBy("issues.id", "desc")
      .limit(issuePageSize)
      .offset((page - 1) * issuePageSize)
      .execute();

  let page = wanted;
  let rows = await pageAt(page);
  if (!rows.length && page > 1) {
    // Past the last page (an old link): the last one, if there is one.
    rows = await pageAt(1);
    const last = rows.length ? Math.ceil(Number(rows[0]!.total) / issuePageSize) : 1;
    page = last;
    if (last > 1) rows = await pageAt(last);
  }
  if (!rows.length) page = 1;
  const total = rows.length ? Number(rows[0]!.total) : 0;
  const labels = await labelsOfIssues(
    db,
    rows.map((row) => row.id),
  );
  const person = peopleOnce();
  const issues = rows.map(({ assigneeId, assigneeName, total: _total, statusTotal: _statusTotal, ...row }) => ({
    ...row,
    priority: priorityOf(row.priority),
    assignee: person(assigneeId, assigneeName),
    labels: labels.get(row.id) ?? [],
  }));
  // How many issues of each status (all pages), for the groups' headers.
  const statusTotals: Partial<Record<Status, number>> = {};
  for (const row of rows) statusTotals[row.status] = Number(row.statusTotal);
  return { view, issues, statusTotals, total, page, pageCount: Math.max(1, Math.ceil(total / issuePageSize)) };
}

export type MyIssuesPage = Awaited<ReturnType<typeof myIssues>>;
