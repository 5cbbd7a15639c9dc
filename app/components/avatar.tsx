/** Written out in full so that Tailwind finds them; each pair is at least 4.5:1 (white on 600/700). */
const avatarColors = [
  "bg-indigo-600",
  "bg-emerald-700",
  "bg-amber-700",
  "bg-rose-600",
  "bg-sky-700",
  "bg-violet-600",
  "bg-teal-700",
  "bg-fuchsia-700",
];

/** "Ada Lovelace" → "AL", "grace" → "G". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  return letters.map((word) => Array.from(word)[0]!.toUpperCase()).join("") || "?";
}

/**
 * A person as DESIGN.md §4 draws them: initials in a circle whose colour comes from their id, so it is
 * the same on every screen. The name is the accessible name unless the caller names it otherwise.
 */
export function Avatar({ user, size = "sm", decorative = false }: { user: { id: number; name: string } | null; size?: "sm" | "md"; decorative?: boolean }) {
  const box = size === "md" ? "size-6 text-[11px]" : "size-5 text-[10px]";
  if (!user) {
    return (
      <span
        role={decorative ? undefined : "img"}
        aria-label={decorative ? undefined : "Unassigned"}
        aria-hidden={decorative || undefined}
        className={`inline-block shrink-0 rounded-full border border-dashed border-zinc-400 dark:border-zinc-500 ${box}`}
      />
    );
  }
  return (
    <span
      role={decorative ? undefined : "img"}
      aria-label={decorative ? undefined : user.name}
      aria-hidden={decorative || undefined}
      title={user.name}
      className={`inline-flex shrink-0 items-center justify-center rounded-full font-semibold text-white select-none ${box} ${avatarColors[user.id % avatarColors.length]}`}
    >
      {initials(user.name)}
    </span>
  );
}
