import type { Priority } from "~/issues/issue-fields";
import { SpriteIcon } from "./icon";

/**
 * The priority glyphs of DESIGN.md §4 (three dots, one to three bars, an urgent mark), Cairn's own
 * 14 px drawings in the icon sprite like the status glyphs; coloured by `.pr-…` (app/styles/shell.css).
 * Decorative: the priority's name is in the control's name.
 */
export function PriorityIcon({ priority, className }: { priority: Priority; className?: string }) {
  const colour = priority === "urgent" || priority === "none" ? `pr-${priority}` : "pr";
  return <SpriteIcon id={`p-${priority}`} className={className ? `${colour} ${className}` : colour} />;
}
