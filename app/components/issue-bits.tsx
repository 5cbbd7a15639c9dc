import { type Priority, priorityLabels, type Status, statusLabels } from "~/issues/issue-fields";

const statusClasses: Record<Status, string> = {
  backlog: "bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100",
  todo: "bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100",
  in_progress: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  in_review: "bg-violet-100 text-violet-900 dark:bg-violet-900 dark:text-violet-100",
  done: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  canceled: "bg-zinc-200 text-zinc-700 line-through dark:bg-zinc-700 dark:text-zinc-200",
};

export function StatusBadge({ status }: { status: Status }) {
  return <span className={`inline-block rounded px-2 py-0.5 text-xs font-medium ${statusClasses[status]}`}>{statusLabels[status]}</span>;
}

export function PriorityText({ priority }: { priority: Priority }) {
  return <span className={priority === "urgent" ? "font-semibold text-red-700 dark:text-red-400" : ""}>{priority === "none" ? "—" : priorityLabels[priority]}</span>;
}
