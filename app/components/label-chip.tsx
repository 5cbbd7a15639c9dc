import { labelChipClass } from "~/labels/palette";

/** A label as it appears on issues, lists and the board: its name in a small chip of its color. */
export function LabelChip({ name, color }: { name: string; color: string }) {
  return (
    <span className={`inline-block max-w-full truncate rounded-full align-middle px-2 py-0.5 text-xs font-medium ${labelChipClass(color)}`}>
      {name}
    </span>
  );
}
