import type { IssueFilters } from "./issue-list.server";

/** The parameters a list's URL has for its filters (the list, the board and the CSV export share them). */
export type FilterName = "status" | "assignee" | "label" | "priority" | "parent";

/** The filters as URL parameters, several values repeated (`status=todo&status=done`). */
export function filterParams(filters: Pick<IssueFilters, "statuses" | "assignees" | "labelIds" | "priorities" | "q"> & { parent?: string | null }, extra: Record<string, string | number | null | undefined> = {}) {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  for (const status of filters.statuses) params.append("status", status);
  for (const assignee of filters.assignees) params.append("assignee", String(assignee));
  for (const labelId of filters.labelIds) params.append("label", String(labelId));
  for (const priority of filters.priorities) params.append("priority", priority);
  if (filters.parent) params.set("parent", filters.parent);
  for (const [name, value] of Object.entries(extra)) if (value !== null && value !== undefined && value !== "") params.set(name, String(value));
  return params;
}

/** `?…` of those parameters, or "" for none. */
export const searchOf = (params: URLSearchParams) => (params.size ? `?${params}` : "");

/** The same parameters with one filter value taken away (an active filter chip's "×"). */
export function withoutValue(params: URLSearchParams, name: FilterName, value: string) {
  const next = new URLSearchParams(params);
  next.delete(name, value);
  next.delete("page");
  return next;
}

/** Whether any filter (or search text) narrows the list. */
export const isFiltered = (filters: Pick<IssueFilters, "statuses" | "assignees" | "labelIds" | "priorities" | "q"> & { parent?: string | null }) =>
  Boolean(filters.q || filters.statuses.length || filters.assignees.length || filters.labelIds.length || filters.priorities.length || filters.parent);
