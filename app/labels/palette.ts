/** The fixed palette of label colors (docs/product.md, What is stored); a label stores one of these names. */
export const labelColors = ["gray", "red", "orange", "amber", "green", "teal", "blue", "indigo", "purple", "pink"] as const;
export type LabelColor = (typeof labelColors)[number];

export const labelColorLabels: Record<LabelColor, string> = {
  gray: "Gray",
  red: "Red",
  orange: "Orange",
  amber: "Amber",
  green: "Green",
  teal: "Teal",
  blue: "Blue",
  indigo: "Indigo",
  purple: "Purple",
  pink: "Pink",
};

/**
 * A chip's text and background: shade 900 on 100 in light mode and 100 on 900 in dark mode, at
 * least 8:1 for every color (WCAG AA asks 4.5:1). Written out in full so that Tailwind finds them.
 */
const chipClasses: Record<LabelColor, string> = {
  gray: "bg-gray-100 text-gray-900 dark:bg-gray-900 dark:text-gray-100",
  red: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
  orange: "bg-orange-100 text-orange-900 dark:bg-orange-900 dark:text-orange-100",
  amber: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  green: "bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100",
  teal: "bg-teal-100 text-teal-900 dark:bg-teal-900 dark:text-teal-100",
  blue: "bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-100",
  indigo: "bg-indigo-100 text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100",
  purple: "bg-purple-100 text-purple-900 dark:bg-purple-900 dark:text-purple-100",
  pink: "bg-pink-100 text-pink-900 dark:bg-pink-900 dark:text-pink-100",
};

function isLabelColor(value: string): value is LabelColor {
  return (labelColors as readonly string[]).includes(value);
}

/** The chip classes of a stored color; a name no longer in the palette shows as gray rather than unreadable. */
export function labelChipClass(color: string): string {
  return isLabelColor(color) ? chipClasses[color] : chipClasses.gray;
}
