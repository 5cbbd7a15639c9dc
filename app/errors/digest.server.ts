import { createHash } from "node:crypto";

/**
 * The digest of an unexpected error: eight hex digits derived from where it was thrown and what it
 * says, so that the same fault seen again — on a page load or a data request — groups under the
 * same digest.
 */
export function errorDigest(error: unknown, where: string): string {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : `${typeof error}: ${String(error)}`;
  return createHash("sha256").update(`${where}\n${what}`).digest("hex").slice(0, 8).toUpperCase();
}
