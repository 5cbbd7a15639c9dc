import type { Database } from "~/db/database.server";
import { closedStatuses, priorityOf, statuses } from "./issue-fields";

const openStatuses = statuses.filter((status) => !closedStatuses.includes(status));

/** At most this many issues in each part of "My issues". */
export const myIssuesLimit = 100;

function issuesOfWorkspace(db: Database, workspaceId: number) {
  return db
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .select([
      "issues.id",
      "issues.number",
      "issues.title",
      "issues.status",
      "issues.priority",
      "issues.due_date",
      "issues.updated_at",
      "projects.key as projectKey",
    ])
    .where("projects.workspace_id", "=", workspaceId)
    .where("projects.archived_at", "is", null);
}

/** The workspace home: open issues assigned to me across projects, by status, and the ones I reported. */
export async function myIssues(db: Database, workspaceId: number, userId: number) {
  const [assigned, reported] = await Promise.all([
    issuesOfWorkspace(db, workspaceId)
      .where("issues.assignee_id", "=", userId)
      .where("issues.status", "in", openStatuses)
      .orderBy("issues.priority", "desc")
      .orderBy("issues.updated_at", "desc")
      .limit(myIssuesLimit)
      .execute(),
    issuesOfWorkspace(db, workspaceId)
      .where("issues.reporter_id", "=", userId)
      .orderBy("issues.updated_at", "desc")
      .limit(myIssuesLimit)
      .execute(),
  ]);
  const named = <T extends { priority: number }>(rows: T[]) => rows.map((row) => ({ ...row, priority: priorityOf(row.priority) }));
  return {
    assigned: openStatuses
      .map((status) => ({ status, issues: named(assigned.filter((issue) => issue.status === status)) }))
      .filter((group) => group.issues.length > 0),
    reported: named(reported),
  };
}
