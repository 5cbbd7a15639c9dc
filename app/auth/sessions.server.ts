import type { Database } from "~/db/database.server";
import { hashToken, newToken } from "./tokens.server";

const day = 24 * 60 * 60 * 1000;
/** docs/product.md, Limits: 30 days absolute, 14 days idle. */
export const sessionLifetime = { absoluteMs: 30 * day, idleMs: 14 * day } as const;
/** `last_seen_at` is written at most this often, not on every request. */
const lastSeenResolutionMs = 60_000;

export type SessionUser = {
  sessionId: number;
  id: number;
  email: string;
  name: string;
  handle: string;
  isInstanceAdmin: boolean;
  lastWorkspaceId: number | null;
  /** The IANA zone times are shown in; null until the person or their browser sets one. */
  timeZone: string | null;
};

export async function createSession(
  db: Database,
  session: { userId: number; userAgent: string | null; ip: string | null; now: Date },
): Promise<string> {
  const token = newToken();
  await db
    .insertInto("sessions")
    .values({
      token_hash: hashToken(token),
      user_id: session.userId,
      expires_at: new Date(session.now.getTime() + sessionLifetime.absoluteMs).toISOString(),
      last_seen_at: session.now.toISOString(),
      user_agent: session.userAgent?.slice(0, 512) ?? null,
      ip: session.ip,
      created_at: session.now.toISOString(),
    })
    .execute();
  return token;
}

/** The signed-in user for a session token, or null when it is unknown, expired or idle too long. */
export async function findSessionUser(db: Database, token: string, now: Date): Promise<SessionUser | null> {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id as sessionId",
      "sessions.expires_at",
      "sessions.last_seen_at",
      "users.id",
      "users.email",
      "users.name",
      "users.handle",
      "users.is_instance_admin",
      "users.last_workspace_id",
      "users.time_zone",
    ])
    .where("sessions.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  const lastSeen = new Date(row.last_seen_at).getTime();
  if (new Date(row.expires_at) <= now || lastSeen + sessionLifetime.idleMs <= now.getTime()) {
    await db.deleteFrom("sessions").where("id", "=", row.sessionId).execute();
    return null;
  }
  if (now.getTime() - lastSeen > lastSeenResolutionMs) {
    await db.updateTable("sessions").set({ last_seen_at: now.toISOString() }).where("id", "=", row.sessionId).execute();
  }
  return {
    sessionId: row.sessionId,
    id: row.id,
    email: row.email,
    name: row.name,
    handle: row.handle,
    isInstanceAdmin: row.is_instance_admin === 1,
    lastWorkspaceId: row.last_workspace_id,
    timeZone: row.time_zone,
  };
}

export async function deleteSession(db: Database, sessionId: number): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

/** Signs the user out everywhere but here; returns how many sessions ended. */
export async function deleteOtherSessions(db: Database, userId: number, keepSessionId: number): Promise<number> {
  const result = await db
    .deleteFrom("sessions")
    .where("user_id", "=", userId)
    .where("id", "!=", keepSessionId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listActiveSessions(db: Database, userId: number, now: Date) {
  return db
    .selectFrom("sessions")
    .select(["id", "created_at", "last_seen_at", "user_agent", "ip"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", now.toISOString())
    .where("last_seen_at", ">", new Date(now.getTime() - sessionLifetime.idleMs).toISOString())
    .orderBy("last_seen_at", "desc")
    .execute();
}
