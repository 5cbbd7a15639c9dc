import { labelColors } from "~/labels/palette";

/** A label as it appears on issues, lists and the board: its name in a small chip of its color (`.chip-…`, shell.css). */
export function LabelChip({ name, color }: { name: string; color: string }) {
  // A color no longer in the palette shows as gray rather than unreadable.
  return <span className={`chip chip-${(labelColors as readonly string[]).includes(color) ? color : "gray"}`}>{name}</span>;
}
