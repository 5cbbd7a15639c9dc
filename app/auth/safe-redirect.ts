/**
 * Only a path on this site (no open redirect): never `//host` or an absolute URL, and nothing a
 * browser would rewrite into one (backslashes, tabs and other control characters).
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//")) return fallback;
  if (/[\\\u0000-\u001f\u007f]/.test(to)) return fallback;
  return to;
}
