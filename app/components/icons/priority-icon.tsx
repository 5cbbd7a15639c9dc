import type { Priority } from "~/issues/issue-fields";

/**
 * The priority glyphs of DESIGN.md §4 (three dots, one to three bars, an urgent mark), Cairn's own
 * 14 px drawings like the status glyphs: one class draws and colours each (`.pr-…`,
 * app/styles/glyphs.css and shell.css). Decorative: the priority's name is in the control's name.
 */
export function PriorityIcon({ priority, className }: { priority: Priority; className?: string }) {
  return <i className={className ? `pr-${priority} ${className}` : `pr-${priority}`} />;
}
