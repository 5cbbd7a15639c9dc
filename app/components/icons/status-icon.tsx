import type { Status } from "~/issues/issue-fields";

/**
 * The status glyphs of DESIGN.md §4, Cairn's own 14 px drawings: they encode progress (a circle
 * filling up), which no general icon set draws. One class draws and colours each (`.st-…`,
 * app/styles/glyphs.css and shell.css), so the glyph a row repeats is an empty element. Decorative:
 * the status's name is always next to them or in the control's accessible name.
 */
export function StatusIcon({ status, className }: { status: Status; className?: string }) {
  return <i className={className ? `st-${status} ${className}` : `st-${status}`} />;
}
