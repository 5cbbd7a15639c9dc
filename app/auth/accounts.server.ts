import { sql } from "kysely";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { isUniqueViolation } from "~/db/errors.server";
import { type Limit, releaseHits, takeSlot } from "~/security/sliding-window.server";
import { freeHandle, handleFromEmail, handleTakenMessage } from "./handles.server";
import { hashPassword, verifyPassword } from "./password.server";

export type FieldProblem = { field: string; message: string };

export const emailTakenMessage = "An account with this email already exists.";

/**
 * Creates an account; the first one on an instance administers it. Its handle is the one chosen,
 * or else one made from the email (`handleFromEmail`, told apart from others by "-2", "-3"…).
 */
export async function createAccount(
  db: Database,
  account: { name: string; email: string; handle?: string; password: string; now: Date },
): Promise<{ userId: number } | FieldProblem> {
  const passwordHash = await hashPassword(account.password);
  const now = account.now.toISOString();
  const insert = (handle: string, isInstanceAdmin: ReturnType<typeof sql<number>> | 0) =>
    db
      .insertInto("users")
      .values({
        email: account.email,
        name: account.name,
        handle,
        password_hash: passwordHash,
        is_instance_admin: isInstanceAdmin,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  for (let attempt = 1; ; attempt++) {
    const handle = account.handle ?? (await freeHandle(db, handleFromEmail(account.email)));
    try {
      try {
        return { userId: (await insert(handle, sql<number>`(case when exists (select 1 from users) then 0 else 1 end)`)).id };
      } catch (error) {
        // Another first account was created at the same moment and became the admin.
        if (isUniqueViolation(error, "instance_admin")) return { userId: (await insert(handle, 0)).id };
        throw error;
      }
    } catch (error) {
      if (isUniqueViolation(error, "handle")) {
        if (account.handle !== undefined) return { field: "handle", message: handleTakenMessage };
        // Someone took the free handle a moment ago: the next one.
        if (attempt < 5) continue;
      }
      if (isUniqueViolation(error)) return { field: "email", message: emailTakenMessage };
      throw error;
    }
  }
}

/**
 * Sign-ups per client address (docs/product.md, Limits): far more than a team signing up together from one
 * office in ten minutes, far fewer than a flood (each sign-up costs a 128 MiB scrypt).
 */
export const signUpLimit: Limit = { uses: 20, windowMs: 10 * 60 * 1000 };

/**
 * Creates an account within the per-address sign-up limit, counted before the password is hashed;
 * refused, the seconds to wait. A sign-up that never got to hashing (the server was too busy) does
 * not count.
 */
export async function signUp(
  handle: DatabaseHandle,
  account: { name: string; email: string; handle?: string; password: string; ip: string | null; now: Date },
): Promise<{ userId: number } | FieldProblem | { retryAfter: number }> {
  const slot = await takeSlot(handle, [`sign-up:${account.ip ?? "unknown"}`], signUpLimit, account.now);
  if (!slot.taken) return { retryAfter: slot.retryAfter };
  try {
    return await createAccount(handle.db, account);
  } catch (error) {
    await releaseHits(handle.db, slot.hitIds);
    throw error;
  }
}

/** The user whose email and password match, or null; as slow for unknown emails as for known ones. */
export async function authenticate(db: Database, email: string, password: string): Promise<{ id: number } | null> {
  const user = await db.selectFrom("users").select(["id", "password_hash"]).where("email", "=", email).executeTakeFirst();
  const valid = await verifyPassword(password, user?.password_hash ?? null);
  return user && valid ? { id: user.id } : null;
}

export async function checkPassword(db: Database, userId: number, password: string): Promise<boolean> {
  const user = await db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
  return verifyPassword(password, user?.password_hash ?? null);
}

export async function updateProfile(
  db: Database,
  userId: number,
  profile: { name: string; email: string; handle?: string; timeZone?: string; now: Date },
): Promise<{ ok: true } | FieldProblem> {
  try {
    await db
      .updateTable("users")
      .set({
        name: profile.name,
        email: profile.email,
        ...(profile.handle === undefined ? {} : { handle: profile.handle }),
        ...(profile.timeZone === undefined ? {} : { time_zone: profile.timeZone }),
        updated_at: profile.now.toISOString(),
      })
      .where("id", "=", userId)
      .execute();
    return { ok: true };
  } catch (error) {
    if (isUniqueViolation(error, "handle")) return { field: "handle", message: handleTakenMessage };
    if (isUniqueViolation(error)) return { field: "email", message: emailTakenMessage };
    throw error;
  }
}

/**
 * Saves the zone the browser reports, only for someone who has none: a zone the person chose, or
 * one an earlier tab reported, stays. Whether it was saved.
 */
export async function fillTimeZone(db: Database, userId: number, timeZone: string): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ time_zone: timeZone })
    .where("id", "=", userId)
    .where("time_zone", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setPassword(db: Database, userId: number, password: string, now: Date): Promise<void> {
  await db
    .updateTable("users")
    .set({ password_hash: await hashPassword(password), updated_at: now.toISOString() })
    .where("id", "=", userId)
    .execute();
}

export async function rememberLastWorkspace(db: Database, userId: number, workspaceId: number): Promise<void> {
  await db
    .updateTable("users")
    .set({ last_workspace_id: workspaceId })
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("last_workspace_id", "is", null), eb("last_workspace_id", "!=", workspaceId)]))
    .execute();
}
