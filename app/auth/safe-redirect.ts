/**
 * Only a path on this site (no open redirect): never `//host` or an absolute URL, and nothing a
 * browser would rewrite into one (backslashes, tabs and other control characters). Returned
 * percent-encoded, ready for a Location header.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//")) return fallback;
  if (/[\\\u0000-\u001f\u007f]/.test(to)) return fallback;
  return percentEncodePath(to);
}

/**
 * A Location header is ASCII: `Headers` throws on a character beyond Latin-1 (once the work of the
 * request is done, such as creating a session) and Node writes Latin-1 ones as raw bytes. So every
 * character a URL may not hold as it is becomes its UTF-8 escapes (`/w/日本` →
 * `/w/%E6%97%A5%E6%9C%AC`), and so does a `%` that starts no escape; escapes already there are kept.
 */
function percentEncodePath(path: string): string {
  return path.replace(/%(?![0-9A-Fa-f]{2})|[^\w\-.~!$&'()*+,;=:@/?#[\]%]/gu, encodeURIComponent);
}
