import type { Database } from "~/db/database.server";
import { closedStatuses, statuses } from "./issue-fields";
import { asIssueRows, workspaceIssueRows } from "./issue-list.server";

const openStatuses = statuses.filter((status) => !closedStatuses.includes(status));

/** At most this many issues in each part of "My issues". */
export const myIssuesLimit = 100;

/** Issues of the workspace's live projects (an archived project's are done with). */
const liveIssueRows = (db: Database, workspaceId: number) => workspaceIssueRows(db, workspaceId).where("projects.archived_at", "is", null);

/** The workspace home: open issues assigned to me across projects, by status, and the ones I reported. */
export async function myIssues(db: Database, workspaceId: number, userId: number) {
  const [assigned, reported] = await Promise.all([
    liveIssueRows(db, workspaceId)
      .where("issues.assignee_id", "=", userId)
      .where("issues.status", "in", openStatuses)
      .orderBy("issues.priority", "desc")
      .orderBy("issues.updated_at", "desc")
      .limit(myIssuesLimit)
      .execute()
      .then((rows) => asIssueRows(db, rows)),
    liveIssueRows(db, workspaceId)
      .where("issues.reporter_id", "=", userId)
      .orderBy("issues.updated_at", "desc")
      .limit(myIssuesLimit)
      .execute()
      .then((rows) => asIssueRows(db, rows)),
  ]);
  return {
    assigned: openStatuses
      .map((status) => ({ status, issues: assigned.filter((issue) => issue.status === status) }))
      .filter((group) => group.issues.length > 0),
    reported,
  };
}
