import type { Transaction } from "kysely";
import type { MailConfig } from "~/config/env.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import type { DB } from "~/db/schema";
import { enqueueJob } from "~/jobs/jobs.server";
import { type Limit, takeSlot } from "~/security/sliding-window.server";
import { revokeAllApiTokens } from "./api-tokens.server";
import { hashPassword } from "./password.server";
import { hashToken, newToken } from "./tokens.server";

/** docs/product.md, Limits: a reset link works for an hour, once. */
export const resetLinkLifetimeMs = 60 * 60 * 1000;

/** Reset mails asked for, per account and per client address: 5 an hour, then 429. */
export const resetRequestLimit: Limit = { uses: 5, windowMs: 60 * 60 * 1000 };

export const resetLinkPath = (token: string) => `/reset-password/${token}`;

/**
 * "Forgot password?": when an account has this email, a one-hour link to choose a new password,
 * mailed through the outbox (written with the link, in one transaction). The caller answers the
 * same whether or not there is such an account; only the limits refuse, before anything is looked
 * up, per account and per client address alike.
 */
export async function requestPasswordReset(
  handle: DatabaseHandle,
  request: { email: string; ip: string | null; mail: MailConfig; now: Date },
): Promise<{ requested: true } | { retryAfter: number }> {
  const email = request.email.toLowerCase();
  const keys = [`password-reset:account:${email}`, ...(request.ip === null ? [] : [`password-reset:ip:${request.ip}`])];
  const slot = await takeSlot(handle, keys, resetRequestLimit, request.now);
  if (!slot.taken) return { retryAfter: slot.retryAfter };
  const user = await handle.db.selectFrom("users").select(["id", "email"]).where("email", "=", email).executeTakeFirst();
  if (!user) return { requested: true };
  await handle.db.transaction().execute(async (trx) => {
    const link = `${request.mail.publicUrl}${resetLinkPath(await newResetLink(trx, user.id, request.now))}`;
    await enqueueJob(trx, {
      kind: "mail",
      now: request.now,
      payload: {
        to: user.email,
        subject: "Reset your Cairn password",
        text: [
          `Someone, hopefully you, asked to reset the password of the Cairn account ${user.email}.`,
          "",
          "Choose a new password here. The link works for an hour, and once:",
          link,
          "",
          "If it was not you, ignore this mail: your password stays as it is.",
        ].join("\n"),
      },
    });
  });
  return { requested: true };
}

/** Stores a new link for the account, and returns its token (the one time it is known). */
async function newResetLink(db: Database | Transaction<DB>, userId: number, now: Date): Promise<string> {
  const token = newToken();
  await db
    .insertInto("password_resets")
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      expires_at: new Date(now.getTime() + resetLinkLifetimeMs).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return token;
}

/**
 * A reset link the instance admin hands over themselves (no mail sent: the instance may have no
 * SMTP): the path, shown once; undefined when there is no such user.
 */
export async function makeResetLinkForUser(db: Database, userId: number, now: Date): Promise<{ path: string; email: string } | undefined> {
  const user = await db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  if (!user) return undefined;
  return { path: resetLinkPath(await newResetLink(db, userId, now)), email: user.email };
}

/** The account a reset link is for, while it works (not used, not expired); otherwise undefined. */
export async function openResetLink(db: Database, token: string, now: Date): Promise<{ userId: number; email: string } | undefined> {
  const row = await db
    .selectFrom("password_resets")
    .innerJoin("users", "users.id", "password_resets.user_id")
    .select(["users.id", "users.email"])
    .where("password_resets.token_hash", "=", hashToken(token))
    .where("password_resets.used_at", "is", null)
    .where("password_resets.expires_at", ">", now.toISOString())
    .executeTakeFirst();
  return row ? { userId: row.id, email: row.email } : undefined;
}

/**
 * Sets the new password through a working link, which is then used up, with every other link of
 * that account. A reset is how a taken-over account is won back, so whoever took it is shut out:
 * every session of the account ends and every API token is revoked (tokensRevoked says how many).
 * Two uses at once: one wins, the other finds the link used. The caller has checked the password's rules.
 */
export async function resetPassword(
  db: Database,
  reset: { token: string; password: string; now: Date },
): Promise<{ ok: true; userId: number; tokensRevoked: number } | { ok: false }> {
  // Hashed before the transaction: it is slow on purpose, and no lock should wait for it.
  const passwordHash = await hashPassword(reset.password);
  const now = reset.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable("password_resets")
      .set({ used_at: now })
      .where("token_hash", "=", hashToken(reset.token))
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning("user_id")
      .executeTakeFirst();
    if (!used) return { ok: false } as const;
    await trx.updateTable("users").set({ password_hash: passwordHash, updated_at: now }).where("id", "=", used.user_id).execute();
    await trx.updateTable("password_resets").set({ used_at: now }).where("user_id", "=", used.user_id).where("used_at", "is", null).execute();
    await trx.deleteFrom("sessions").where("user_id", "=", used.user_id).execute();
    const tokensRevoked = await revokeAllApiTokens(trx, used.user_id, reset.now);
    return { ok: true, userId: used.user_id, tokensRevoked } as const;
  });
}
