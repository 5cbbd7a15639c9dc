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
    if ((await countApiTokens(trx, request.userId)) >= maxApiTokensPerUser) {
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

/** How many tokens a person holds (the ones `/settings/tokens` lists: not revoked, expired ones too). */
export async function countApiTokens(db: Database, userId: number): Promise<number> {
  const { count } = await db
    .selectFrom("api_tokens")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Revokes every token of a person (a password reset; a password change that asks for it); returns how many. */
export async function revokeAllApiTokens(db: Database, userId: number, now: Date): Promise<number> {
  const revoked = await db.updateTable("api_tokens").set({ revoked_at: now.toISOString() }).where("user_id", "=", userId).where("revoked_at", "is", null).executeTakeFirst();
  return Number(revoked.numUpdatedRows);
}

/** Who a token acts as: its user, as the API shows and authorises them. */
export type ApiCaller = {
  tokenId: number;
  scope: ApiTokenScope;
  user: { id: number; name: string; handle: string; email: string; isInstanceAdmin: boolean; timeZone: string | null };
};

/** Where a token stands against its rate limit, for the `RateLimit-*` headers. */
export type ApiRate = { limit: number; remaining: number; resetSeconds: number; exceeded: boolean };

const windowMs = 60_000;

/**
 * Who a bearer token acts as, and how much of its rate limit (`perMinute` requests a minute,
 * counted in fixed windows of the clock's minutes) is used, counting this request; undefined for a
 * token that is malformed, unknown, revoked or expired. One write finds the token, counts the
 * request in its window and records its last use (to the minute), whichever instance answers.
 */
export async function authenticateApiToken(
  db: Database,
  raw: string,
  request: { now: Date; perMinute: number },
): Promise<{ caller: ApiCaller; rate: ApiRate } | undefined> {
  if (!raw.startsWith(apiTokenPrefix) || raw.length !== apiTokenPrefix.length + tokenLength) return undefined;
  const { now, perMinute } = request;
  const nowIso = now.toISOString();
  const minute = Math.floor(now.getTime() / windowMs);
  const lastUseBefore = new Date(now.getTime() - lastUseResolutionMs).toISOString();
  const token = await db
    .updateTable("api_tokens")
    .set((eb) => ({
      // A request whose clock was read before a newer minute's request was counted (it waited for
      // a connection, say) counts in that newer minute: an older minute never resets a newer one.
      rate_used: eb.case().when("rate_window", ">=", minute).then(eb("rate_used", "+", 1)).else(1).end(),
      rate_window: eb.case().when("rate_window", ">", minute).then(eb.ref("rate_window")).else(minute).end(),
      last_used_at: eb
        .case()
        .when(eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", lastUseBefore)]))
        .then(nowIso)
        .else(eb.ref("last_used_at"))
        .end(),
    }))
    .where("token_hash", "=", hashToken(raw))
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", nowIso)]))
    .returning(["id", "user_id", "scope", "rate_used", "rate_window"])
    .executeTakeFirst();
  if (!token) return undefined;
  const user = await db
    .selectFrom("users")
    .select(["id", "name", "handle", "email", "is_instance_admin", "time_zone"])
    .where("id", "=", token.user_id)
    .executeTakeFirst();
  if (!user) return undefined;
  return {
    caller: {
      tokenId: token.id,
      scope: token.scope,
      user: { id: user.id, name: user.name, handle: user.handle, email: user.email, isInstanceAdmin: user.is_instance_admin === 1, timeZone: user.time_zone },
    },
    rate: {
      limit: perMinute,
      remaining: Math.max(0, perMinute - token.rate_used),
      resetSeconds: Math.max(1, Math.ceil(((token.rate_window + 1) * windowMs - now.getTime()) / 1000)),
      exceeded: token.rate_used > perMinute,
    },
  };
}
