/**
 * The key a project's name suggests: the first three letters of a one-word name ("Website" → `WEB`),
 * the initials of a longer one ("Customer support portal" → `CSP`, six at most). Accents are
 * dropped and only the letters A–Z count. The create form fills its key with it as the name is typed
 * (with JavaScript), and the server uses it for a key left empty; either way it is then checked as a
 * typed one.
 */
export function keyFromName(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .split(/[^A-Z]+/)
    .filter(Boolean);
  return words.length === 1 ? words[0]!.slice(0, 3) : words.slice(0, 6).map((word) => word[0]).join("");
}
