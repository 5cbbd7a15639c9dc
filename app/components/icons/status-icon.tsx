import type { Status } from "~/issues/issue-fields";
import { SpriteIcon } from "./icon";

/**
 * The status glyphs of DESIGN.md §4, Cairn's own 14 px drawings in the icon sprite: they encode
 * progress (a circle filling up), which no general icon set draws. Their colour is the status's
 * class (`.st-…`, app/styles/shell.css). Decorative: the status's name is always next to them or in
 * the control's accessible name.
 */
export function StatusIcon({ status, className }: { status: Status; className?: string }) {
  return <SpriteIcon id={`s-${status}`} className={className ? `st-${status} ${className}` : `st-${status}`} />;
}
