const thisSite = "http://cairn.invalid";

/**
 * Only a path on this site (no open redirect): never `//host` or an absolute URL, and nothing a
 * browser would rewrite into one (backslashes, tabs and other control characters). It goes into a
 * Location header, which holds only ASCII: anything else is percent-encoded, as a browser would.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//")) return fallback;
  if (/[\\\u0000-\u001f\u007f]/.test(to)) return fallback;
  const url = new URL(to, thisSite);
  if (url.origin !== thisSite) return fallback;
  return url.pathname + url.search + url.hash;
}
