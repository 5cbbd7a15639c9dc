import type { Priority } from "~/issues/issue-fields";

const barCount: Record<Exclude<Priority, "none" | "urgent">, number> = { low: 1, medium: 2, high: 3 };

/**
 * The priority glyphs of DESIGN.md §4 (three dots, one to three bars, an urgent mark), Cairn's own
 * 14 px SVGs like the status glyphs. Decorative: the priority's name is in the control's name.
 */
export function PriorityIcon({ priority, className = "" }: { priority: Priority; className?: string }) {
  const common = { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": true, focusable: false } as const;
  if (priority === "urgent") {
    return (
      <svg {...common} className={`shrink-0 text-orange-600 dark:text-orange-500 ${className}`}>
        <rect x="1" y="1" width="12" height="12" rx="3" fill="currentColor" />
        <path d="M7 3.8v4" stroke="var(--color-white)" strokeWidth="1.6" strokeLinecap="round" />
        <circle cx="7" cy="10.1" r="0.9" fill="var(--color-white)" />
      </svg>
    );
  }
  if (priority === "none") {
    return (
      <svg {...common} className={`shrink-0 text-zinc-400 dark:text-zinc-500 ${className}`} fill="currentColor">
        <circle cx="3" cy="7" r="1.1" />
        <circle cx="7" cy="7" r="1.1" />
        <circle cx="11" cy="7" r="1.1" />
      </svg>
    );
  }
  const filled = barCount[priority];
  return (
    <svg {...common} className={`shrink-0 text-zinc-600 dark:text-zinc-300 ${className}`} fill="currentColor">
      {[0, 1, 2].map((bar) => (
        <rect key={bar} x={1.5 + bar * 4} y={8 - bar * 3} width="3" height={4.5 + bar * 3} rx="0.8" opacity={bar < filled ? 1 : 0.25} />
      ))}
    </svg>
  );
}
