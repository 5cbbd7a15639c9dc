import type { Database } from "~/db/database.server";
import type { Status } from "~/db/schema";
import { maxLabelsPerIssue } from "~/labels/labels.server";
import type { NotificationMail } from "~/notifications/notifications.server";
import { maxBulkIssues } from "./bulk-choice";
import { type IssueFields, issueKey, type Priority } from "./issue-fields";
import { changesSomething, checkReferences, diffIssue, readCurrentIssues, saveIssueDiff } from "./issues.server";
import type { ProjectScope } from "./write-scope.server";

/** What a bulk edit sets on every issue: any of these, at least one. An `assigneeId` of null unassigns. */
export type BulkChanges = { status?: Status; priority?: Priority; assigneeId?: number | null; addLabelId?: number; removeLabelId?: number };

/** A refused bulk edit: which part of the form is at fault, and why. Nothing was changed. */
export type BulkProblem = { field: "issueIds" | "changes" | keyof BulkChanges; message: string };

/** Someone saved one of the issues between our read and our write: nothing was changed. */
export type BulkConflict = { ok: false; status: 409; message: string };

export const bulkNotFoundMessage = "Some of the selected issues are not in this project. Reload the list and try again.";

/** Thrown inside the transaction to roll back every issue already written. */
class BulkRaced extends Error {}

/**
 * Sets the same change on several issues of a project (status, priority, assignee, a label added or
 * removed), in one transaction and all or nothing: any issue that refuses (not in the project, an
 * assignee who may not be assigned, a label of another workspace, more than the labels an issue may
 * have) refuses the whole edit. Each issue that changes is saved as `updateIssue` saves it — its next
 * version and its own event, activity, notifications and webhooks; an issue that already has the
 * values is left as it is. There is no version to check: the edit sets values, whatever they were.
 */
export async function bulkUpdateIssues(
  db: Database,
  edit: { project: ProjectScope & { key: string }; issueIds: readonly number[]; actorId: number; changes: BulkChanges; now: Date; mail?: NotificationMail },
): Promise<{ ok: true; updated: number; unchanged: number } | BulkProblem | BulkConflict> {
  const { project, issueIds, changes } = edit;
  if (!issueIds.length) return { field: "issueIds", message: "Select the issues to change." };
  if (new Set(issueIds).size !== issueIds.length) return { field: "issueIds", message: "Select each issue once." };
  if (issueIds.length > maxBulkIssues) return { field: "issueIds", message: `Select at most ${maxBulkIssues} issues at a time.` };
  if (Object.values(changes).every((value) => value === undefined)) {
    return { field: "changes", message: "Choose a change: a status, a priority, an assignee or a label." };
  }
  if (changes.addLabelId !== undefined && changes.addLabelId === changes.removeLabelId) {
    return { field: "removeLabelId", message: "Choose different labels to add and to remove." };
  }

  try {
    return await db.transaction().execute(async (trx) => {
      // By id: two bulk edits at once then lock their common issues in the same order.
      const issues = (await readCurrentIssues(trx, project.id, issueIds)).sort((a, b) => a.id - b.id);
      // The same answer for an issue of another project or workspace as for none at all.
      if (issues.length !== issueIds.length) return { field: "issueIds", message: bulkNotFoundMessage };

      if (changes.assigneeId && issues.some((issue) => issue.assignee_id !== changes.assigneeId)) {
        const problem = await checkReferences(trx, project.workspace_id, { assigneeId: changes.assigneeId });
        if (problem) return { field: "assigneeId", message: problem.message };
      }
      for (const field of ["addLabelId", "removeLabelId"] as const) {
        const labelId = changes[field];
        if (labelId !== undefined && (await checkReferences(trx, project.workspace_id, { labelIds: [labelId] }))) {
          return { field, message: "Choose a label of this workspace." };
        }
      }

      // Every issue's change is worked out, and checked, before any is written.
      const diffs = [];
      for (const issue of issues) {
        const fields: Partial<IssueFields> = { status: changes.status, priority: changes.priority, assigneeId: changes.assigneeId };
        if (changes.addLabelId !== undefined || changes.removeLabelId !== undefined) {
          const labelIds = issue.labelIds.filter((id) => id !== changes.removeLabelId);
          if (changes.addLabelId !== undefined && !labelIds.includes(changes.addLabelId)) labelIds.push(changes.addLabelId);
          if (labelIds.length > maxLabelsPerIssue) {
            return { field: "addLabelId", message: `${issueKey(project.key, issue.number)} already has ${maxLabelsPerIssue} labels, the most an issue can have.` };
          }
          fields.labelIds = labelIds;
        }
        diffs.push({ issue, diff: diffIssue(issue, fields, edit.now) });
      }

      let updated = 0;
      for (const { issue, diff } of diffs) {
        if (!changesSomething(diff)) continue;
        if (!(await saveIssueDiff(trx, edit, issue, diff))) throw new BulkRaced();
        updated++;
      }
      return { ok: true as const, updated, unchanged: issues.length - updated };
    });
  } catch (error) {
    if (error instanceof BulkRaced) return { ok: false, status: 409, message: "Some of these issues were changed while saving, so none was. Try again." };
    throw error;
  }
}
