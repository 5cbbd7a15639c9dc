import { randomBytes } from "node:crypto";
import type { Database } from "~/db/database.server";
import type { ApiTokenScope } from "~/db/schema";
import { hashToken } from "./tokens.server";

/** What every token starts with: `cairn_pat_` and 40 base62 characters (238 bits). */
export const apiTokenPrefix = "cairn_pat_";
const tokenLength = 40;
const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** How long a token may live, in days, as `/settings/tokens` offers it; null is never. */
export const apiTokenLifetimes = [30, 90, 365, null] as const;

/** Tokens a person may hold at once (revoked ones do not count). */
export const maxApiTokensPerUser = 50;

/** Whether a last use is written again: at most once a minute, not on every request. */
const lastUseResolutionMs = 60_000;

/** A new token: random bytes taken as base62 digits, without the modulo bias (bytes ≥ 248 are skipped). */
function newApiToken(): string {
  let token = "";
  while (token.length < tokenLength) {
    for (const byte of randomBytes(tokenLength)) {
      if (byte < 248 && token.length < tokenLength) token += base62[byte % 62];
    }
  }
  return apiTokenPrefix + token;
}

export type ApiTokenCreated = { ok: true; id: number; token: string } | { ok: false; field: "name"; message: string };

/** Makes a token for its user; the token itself is returned this once, and only its hash is kept. */
export async function createApiToken(
  db: Database,
  request: { userId: number; name: string; scope: ApiTokenScope; expiresInDays: number | null; now: Date },
): Promise<ApiTokenCreated> {
  return db.transaction().execute(async (trx) => {
    const { count } = await trx
      .selectFrom("api_tokens")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("user_id", "=", request.userId)
      .where("revoked_at", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(count) >= maxApiTokensPerUser) {
      return { ok: false, field: "name", message: `You can have at most ${maxApiTokensPerUser} tokens. Revoke one you no longer use.` } as const;
    }
    const token = newApiToken();
    const expiresAt = request.expiresInDays === null ? null : new Date(request.now.getTime() + request.expiresInDays * 86_400_000).toISOString();
    const { id } = await trx
      .insertInto("api_tokens")
      .values({
        user_id: request.userId,
        name: request.name,
        scope: request.scope,
        token_hash: hashToken(token),
        expires_at: expiresAt,
        last_used_at: null,
        revoked_at: null,
        created_at: request.now.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ok: true, id, token } as const;
  });
}

/** A person's tokens not revoked, newest first (expired ones too, marked by their date). */
export function listApiTokens(db: Database, userId: number) {
  return db
    .selectFrom("api_tokens")
    .select(["id", "name", "scope", "expires_at", "last_used_at", "created_at"])
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .orderBy("id", "desc")
    .execute();
}

/** Revokes one of the person's tokens; false when they have no such token (or it was revoked). */
export async function revokeApiToken(db: Database, revocation: { userId: number; tokenId: number; now: Date }): Promise<boolean> {
  const revoked = await db
    .updateTable("api_tokens")
    .set({ revoked_at: revocation.now.toISOString() })
    .where("id", "=", revocation.tokenId)
    .where("user_id", "=", revocation.userId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(revoked.numUpdatedRows) > 0;
}

/**
 * Who a bearer token acts as, and what it may do; undefined for a token that is malformed,
 * unknown, revoked or expired. Its last use is recorded (to the minute).
 */
export async function authenticateApiToken(db: Database, raw: string, now: Date): Promise<{ tokenId: number; userId: number; scope: ApiTokenScope } | undefined> {
  if (!raw.startsWith(apiTokenPrefix) || raw.length !== apiTokenPrefix.length + tokenLength) return undefined;
  const token = await db
    .selectFrom("api_tokens")
    .select(["id", "user_id", "scope", "expires_at", "last_used_at"])
    .where("token_hash", "=", hashToken(raw))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!token || (token.expires_at !== null && Date.parse(token.expires_at) <= now.getTime())) return undefined;
  if (token.last_used_at === null || now.getTime() - Date.parse(token.last_used_at) >= lastUseResolutionMs) {
    await db.updateTable("api_tokens").set({ last_used_at: now.toISOString() }).where("id", "=", token.id).execute();
  }
  return { tokenId: token.id, userId: token.user_id, scope: token.scope };
}
