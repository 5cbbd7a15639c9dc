import type { Database } from "~/db/database.server";
import type { Role } from "~/db/schema";
import { knownWorkspaceContext, type MemberSummary } from "./workspaces.server";

/** docs/product.md, Limits. */
export const maxMembersPerWorkspace = 1000;

export type MembershipChange = { ok: true } | { ok: false; status: 403 | 404 | 409; message: string };

export const lastOwnerMessage = "A workspace must keep at least one owner.";
export const onlyOwnersMessage = "Only an owner can make or remove owners.";

/** The members of a workspace, by name (from this request's workspace lookup when it made one). */
export function listMembers(db: Database, workspaceId: number): Promise<MemberSummary[]> {
  const known = knownWorkspaceContext(workspaceId);
  if (known) return Promise.resolve(known.members);
  return db
    .selectFrom("memberships")
    .innerJoin("users", "users.id", "memberships.user_id")
    .select(["users.id as userId", "users.name", "users.email", "users.handle", "memberships.role", "memberships.created_at"])
    .where("memberships.workspace_id", "=", workspaceId)
    .orderBy("users.name")
    .execute();
}

/**
 * Serialises changes to one workspace's memberships: a no-op write to its row holds PostgreSQL's
 * row lock (and SQLite's write lock) until the transaction ends, so two changes cannot both count
 * the same owners or the same free places.
 */
export async function lockWorkspace(db: Database, workspaceId: number): Promise<void> {
  await db.updateTable("workspaces").set((eb) => ({ updated_at: eb.ref("updated_at") })).where("id", "=", workspaceId).execute();
}

/** How many owners the workspace has: the last one may not leave or step down. */
export async function ownerCount(db: Database, workspaceId: number): Promise<number> {
  const row = await db
    .selectFrom("memberships")
    .select((eb) => eb.fn.countAll<number>().as("owners"))
    .where("workspace_id", "=", workspaceId)
    .where("role", "=", "owner")
    .executeTakeFirstOrThrow();
  return Number(row.owners);
}

async function targetRole(db: Database, workspaceId: number, userId: number): Promise<Role | undefined> {
  const row = await db
    .selectFrom("memberships")
    .select("role")
    .where("workspace_id", "=", workspaceId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.role;
}

/**
 * Checks a change to someone's membership by an admin or owner (the route has checked that much):
 * owners alone make or unmake owners, and the last owner stays one.
 */
async function checkChange(
  db: Database,
  change: { workspaceId: number; actorRole: Role; userId: number; newRole: Role | null },
): Promise<MembershipChange & { current?: Role }> {
  const current = await targetRole(db, change.workspaceId, change.userId);
  if (!current) return { ok: false, status: 404, message: "That person is not a member of this workspace." };
  const touchesOwner = current === "owner" || change.newRole === "owner";
  if (touchesOwner && change.actorRole !== "owner") return { ok: false, status: 403, message: onlyOwnersMessage };
  if (current === "owner" && change.newRole !== "owner" && (await ownerCount(db, change.workspaceId)) <= 1) {
    return { ok: false, status: 409, message: lastOwnerMessage };
  }
  return { ok: true, current };
}

export async function changeRole(
  db: Database,
  change: { workspaceId: number; actorRole: Role; userId: number; role: Role; now: Date },
): Promise<MembershipChange> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, change.workspaceId);
    const check = await checkChange(trx, { ...change, newRole: change.role });
    if (!check.ok) return check;
    await trx
      .updateTable("memberships")
      .set({ role: change.role, updated_at: change.now.toISOString() })
      .where("workspace_id", "=", change.workspaceId)
      .where("user_id", "=", change.userId)
      .execute();
    return { ok: true };
  });
}

/** Removes a member — or, when `userId` is the actor, lets them leave. */
export async function removeMember(
  db: Database,
  removal: { workspaceId: number; actorRole: Role; userId: number; actorId: number },
): Promise<MembershipChange> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, removal.workspaceId);
    const leaving = removal.userId === removal.actorId;
    // Leaving needs no rights over others, only that a workspace keeps an owner.
    const actorRole: Role = leaving ? "owner" : removal.actorRole;
    const check = await checkChange(trx, { ...removal, actorRole, newRole: null });
    if (!check.ok) return check;
    await trx
      .deleteFrom("memberships")
      .where("workspace_id", "=", removal.workspaceId)
      .where("user_id", "=", removal.userId)
      .execute();
    await trx
      .updateTable("users")
      .set({ last_workspace_id: null })
      .where("id", "=", removal.userId)
      .where("last_workspace_id", "=", removal.workspaceId)
      .execute();
    return { ok: true };
  });
}

export async function memberCount(db: Database, workspaceId: number): Promise<number> {
  const row = await db
    .selectFrom("memberships")
    .select((eb) => eb.fn.countAll<number>().as("members"))
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.members);
}
