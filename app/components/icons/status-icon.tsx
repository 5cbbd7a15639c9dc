import type { Status } from "~/issues/issue-fields";

/**
 * The status glyphs of DESIGN.md §4, drawn as Cairn's own 14 px SVGs: they encode progress (a circle
 * filling up), which no general icon set draws. Decorative: the status's name is always next to them
 * or in the control's accessible name.
 */
export function StatusIcon({ status, className = "" }: { status: Status; className?: string }) {
  const common = { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": true, focusable: false, className: `shrink-0 ${statusColor[status]} ${className}` } as const;
  switch (status) {
    case "backlog":
      return (
        <svg {...common} fill="none">
          <circle cx="7" cy="7" r="5.5" stroke="currentColor" strokeWidth="1.5" strokeDasharray="2 2.1" />
        </svg>
      );
    case "todo":
      return (
        <svg {...common} fill="none">
          <circle cx="7" cy="7" r="5.5" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      );
    case "in_progress":
      return (
        <svg {...common} fill="none">
          <circle cx="7" cy="7" r="5.5" stroke="currentColor" strokeWidth="1.5" />
          <path d="M7 3.5a3.5 3.5 0 0 1 0 7z" fill="currentColor" />
        </svg>
      );
    case "in_review":
      return (
        <svg {...common} fill="none">
          <circle cx="7" cy="7" r="5.5" stroke="currentColor" strokeWidth="1.5" />
          <path d="M7 3.5a3.5 3.5 0 1 1-3.5 3.5H7z" fill="currentColor" />
        </svg>
      );
    case "done":
      return (
        <svg {...common}>
          <circle cx="7" cy="7" r="6.25" fill="currentColor" />
          <path d="m4.4 7.2 1.8 1.8 3.5-3.7" fill="none" stroke="var(--color-white)" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
    case "canceled":
      return (
        <svg {...common}>
          <circle cx="7" cy="7" r="6.25" fill="currentColor" />
          <path d="m4.9 4.9 4.2 4.2m0-4.2-4.2 4.2" stroke="var(--color-white)" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      );
  }
}

const statusColor: Record<Status, string> = {
  backlog: "text-zinc-500 dark:text-zinc-400",
  todo: "text-zinc-500 dark:text-zinc-400",
  in_progress: "text-amber-500",
  in_review: "text-indigo-500 dark:text-indigo-400",
  done: "text-emerald-600 dark:text-emerald-500",
  canceled: "text-zinc-400 dark:text-zinc-500",
};
