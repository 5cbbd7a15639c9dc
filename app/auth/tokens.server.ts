import { createHash, randomBytes } from "node:crypto";

/** A random secret for a link or a cookie: 256 bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Tokens are stored hashed, so that a copy of the database lets nobody in. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
