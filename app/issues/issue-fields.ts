import type { Status } from "~/db/schema";

export { statuses, type Status } from "~/db/schema";

export const statusLabels: Record<Status, string> = {
  backlog: "Backlog",
  todo: "Todo",
  in_progress: "In progress",
  in_review: "In review",
  done: "Done",
  canceled: "Canceled",
};

export const closedStatuses: readonly Status[] = ["done", "canceled"];
export const isClosed = (status: Status) => closedStatuses.includes(status);

/** Stored as 0–4 so that sorting by priority uses an index; named everywhere else. */
export const priorities = ["none", "low", "medium", "high", "urgent"] as const;
export type Priority = (typeof priorities)[number];
export const priorityLabels: Record<Priority, string> = {
  none: "No priority",
  low: "Low",
  medium: "Medium",
  high: "High",
  urgent: "Urgent",
};
export const priorityOf = (rank: number): Priority => priorities[rank] ?? "none";
export const rankOf = (priority: Priority): number => priorities.indexOf(priority);

/** Issue keys read like WEB-42. */
export const issueKey = (projectKey: string, number: number) => `${projectKey}-${number}`;

/** The ways the issue list sorts, as `sort=` in its URL. */
export const issueSorts = ["updated", "created", "priority", "due", "number"] as const;
export type IssueSort = (typeof issueSorts)[number];

/** An issue's fields as a person edits them. */
export type IssueFields = {
  title: string;
  description: string;
  status: Status;
  priority: Priority;
  assigneeId: number | null;
  labelIds: number[];
  dueDate: string | null;
};
