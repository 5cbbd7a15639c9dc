/** The Assignee menu's "No change" in a bulk edit: an empty `assigneeId` unassigns, as everywhere. */
export const keepAssignee = "keep";

/** Issues one bulk edit changes at most: a page of the list (docs/product.md, Limits). */
export const maxBulkIssues = 50;

/** The change fields of a bulk edit (SPEC.md, list `intent=bulk`). */
export const bulkChangeFields = ["status", "priority", "assigneeId", "addLabelId", "removeLabelId"] as const;

/**
 * A bulk edit as the list's form sent it, in its own words: a refusal brings it back so that the
 * list shows the same selection and the same choices (nothing chosen is lost, JavaScript or not).
 */
export type BulkChoice = { issueIds: string[]; status: string; priority: string; assigneeId: string; addLabelId: string; removeLabelId: string };

/** The bulk edit in a submitted form's fields (any other form: undefined). */
export function bulkChoiceOf(payload: Record<string, unknown>): BulkChoice | undefined {
  if (payload.intent !== "bulk") return undefined;
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const choice = { issueIds: [payload.issueIds ?? []].flat().filter((id): id is string => typeof id === "string") } as BulkChoice;
  for (const field of bulkChangeFields) choice[field] = text(payload[field]);
  if (payload.assigneeId === undefined) choice.assigneeId = keepAssignee;
  return choice;
}
