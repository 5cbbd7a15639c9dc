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
 * closed, latest update first. Three queries: how many match, by status (the groups' counts), then
 * the page's rows, then their labels. Counting apart costs a query but no window over every
 * matching issue: at 50,000 issues ~1.5 ms instead of ~3.
 */
export async function myIssues(db: Database, { workspaceId, userId, view, page: wanted }: { workspaceId: number; userId: number; view: MyIssuesView; page: number }) {
  const matching = () =>
    db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .where("projects.workspace_id", "=", workspaceId)
      .where("projects.archived_at", "is", null)
      .$if(view === "assigned", (query) => query.where("issues.assignee_id", "=", userId).where("issues.status", "in", openStatuses))
      .$if(view === "reported", (query) => query.where("issues.reporter_id", "=", userId));

  const counts = await matching()
    .select((eb) => ["issues.status", eb.fn.countAll<number>().as("count")])
    .groupBy("issues.status")
    .execute();
  // How many issues of each status (all pages), for the groups' headers.
  const statusTotals: Partial<Record<Status, number>> = {};
  for (const { status, count } of counts) statusTotals[status] = Number(count);
  const total = counts.reduce((sum, { count }) => sum + Number(count), 0);
  const pageCount = Math.max(1, Math.ceil(total / issuePageSize));
  // Past the last page (an old link): the last one.
  const page = Math.min(wanted, pageCount);

  const rows = total
    ? await matching()
        .leftJoin("users as assignee", "assignee.id", "issues.assignee_id")
        .select([
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
        ])
        .$if(view === "assigned", (query) =>
          query
            .orderBy(sql`case issues.status ${sql.join(
              openStatuses.map((status, rank) => sql`when ${status} then ${rank}`),
              sql` `,
            )} end`)
            .orderBy("issues.priority", "desc"),
        )
        .orderBy("issues.updated_at", "desc")
        .orderBy("issues.id", "desc")
        .limit(issuePageSize)
        .offset((page - 1) * issuePageSize)
        .execute()
    : [];
  const labels = await labelsOfIssues(
    db,
    rows.map((row) => row.id),
  );
  const person = peopleOnce();
  const issues = rows.map(({ assigneeId, assigneeName, ...row }) => ({
    ...row,
    priority: priorityOf(row.priority),
    assignee: person(assigneeId, assigneeName),
    labels: labels.get(row.id) ?? [],
  }));
  return { view, issues, statusTotals, total, page, pageCount };
}

export type MyIssuesPage = Awaited<ReturnType<typeof myIssues>>;
