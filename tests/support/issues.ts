import type { IssueFields } from "~/issues/issue-fields";

/** An issue's fields for createIssue: the title given, and an empty backlog issue otherwise. */
export function issueFields(fields: Partial<IssueFields> & { title: string }): IssueFields {
  return { description: "", status: "backlog", priority: "none", assigneeId: null, labelIds: [], dueDate: null, ...fields };
}
