/** How many avatar colours there are (`.av0`–`.av7` in app/styles/shell.css; white on each is at least 4.5:1). */
const avatarColorCount = 8;

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
  const md = size === "md" ? " av-md" : "";
  if (!user) {
    return (
      <span
        role={decorative ? undefined : "img"}
        aria-label={decorative ? undefined : "Unassigned"}
        aria-hidden={decorative || undefined}
        className={`av-none${md}`}
      />
    );
  }
  return (
    <span
      role={decorative ? undefined : "img"}
      aria-label={decorative ? undefined : user.name}
      aria-hidden={decorative || undefined}
      title={user.name}
      className={`av av${user.id % avatarColorCount}${md}`}
    >
      {initials(user.name)}
    </span>
  );
}
