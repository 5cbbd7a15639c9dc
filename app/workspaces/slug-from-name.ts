/** A workspace slug's rules that the browser needs too (the rest are in workspaces.server.ts). */
export const maxSlugLength = 40;

/**
 * The slug a workspace's name suggests: "Acme Corp." → `acme-corp`, "Café Olé" → `cafe-ole`. Accents
 * are dropped, every run of other characters becomes one hyphen, none at either end, at most 40
 * characters. The create form fills its slug with it as the name is typed (with JavaScript), and the
 * server uses it for a slug left empty; either way it is then checked as a typed one.
 */
export function slugFromName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, maxSlugLength)
    .replace(/-+$/, "");
}
