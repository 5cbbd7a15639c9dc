import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/database.server";
import type { Role } from "~/db/schema";
import {
  changeRole,
  lastOwnerMessage,
  listMembers,
  memberCount,
  onlyOwnersMessage,
  ownerCount,
  removeMember,
  type MembershipChange,
} from "~/workspaces/members.server";
import { can, roles, type Permission } from "~/workspaces/roles";
import { createWorkspace, findWorkspaceAccess } from "~/workspaces/workspaces.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createTestDatabase, testDialects, type TestDatabase, waitForLockWaiters } from "../support/databases";
import { insertUser } from "../support/users";
import { addMember as insertMembership } from "../support/workspaces";

const start = new Date("2025-03-01T12:00:00.000Z");
const later = new Date("2025-03-02T08:30:00.000Z");

describe("can(): the permission matrix of docs/product.md, Roles", () => {
  // Rows of the table in docs/product.md, Roles, as permissions, with the roles that have a tick.
  const matrix: Record<Permission, Role[]> = {
    "workspace:read": ["viewer", "member", "admin", "owner"],
    "issues:write": ["member", "admin", "owner"],
    "views:share": ["member", "admin", "owner"],
    "comments:delete-any": ["admin", "owner"],
    "attachments:delete-any": ["admin", "owner"],
    "projects:manage": ["admin", "owner"],
    "labels:manage": ["admin", "owner"],
    "members:manage": ["admin", "owner"],
    "webhooks:manage": ["admin", "owner"],
    "views:manage-shared": ["admin", "owner"],
    "owners:manage": ["owner"],
    "workspace:manage": ["owner"],
  };
  const cases = (Object.keys(matrix) as Permission[]).flatMap((permission) =>
    roles.map((role) => [role, permission, matrix[permission].includes(role)] as const),
  );

  it("covers the four roles", () => {
    expect([...roles].sort()).toEqual(["admin", "member", "owner", "viewer"]);
    expect(cases).toHaveLength(12 * 4);
  });

  it.each(cases)("%s may %s: %s", (role, permission, allowed) => {
    expect(can(role, permission)).toBe(allowed);
  });
});

describe.each(testDialects)("members on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let workspaceId: number;
  let otherWorkspaceId: number;
  /** Users by name; "owner" created the workspace. */
  let owner: number;
  let admin: number;
  let member: number;
  let viewer: number;
  let outsider: number;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
    owner = await insertUser(db, { name: "Olivia Owner", at: start });
    admin = await insertUser(db, { name: "Adam Admin", at: start });
    member = await insertUser(db, { name: "Mia Member", at: start });
    viewer = await insertUser(db, { name: "Victor Viewer", at: start });
    outsider = await insertUser(db, { name: "Oscar Outsider", at: start });
    await createWorkspace(db, { name: "Other", slug: "other", ownerId: outsider, now: start });
    otherWorkspaceId = (await findWorkspaceAccess(db, "other", outsider))!.id;
    await createWorkspace(db, { name: "Acme", slug: "acme", ownerId: owner, now: start });
    workspaceId = (await findWorkspaceAccess(db, "acme", owner))!.id;
    await addMember(admin, "admin");
    await addMember(member, "member");
    await addMember(viewer, "viewer");
  });

  afterEach(async () => {
    await handle.db.destroy();
    await database.drop();
  });

  const addMember = (userId: number, role: Role, workspace = workspaceId) => insertMembership(db, { workspaceId: workspace, userId, role, at: start });

  const roleOf = async (userId: number, workspace = workspaceId) =>
    (
      await db
        .selectFrom("memberships")
        .select("role")
        .where("workspace_id", "=", workspace)
        .where("user_id", "=", userId)
        .executeTakeFirst()
    )?.role;
  const lastWorkspaceOf = async (userId: number) =>
    (await db.selectFrom("users").select("last_workspace_id").where("id", "=", userId).executeTakeFirstOrThrow())
      .last_workspace_id;
  const setLastWorkspace = (userId: number, workspace: number) =>
    db.updateTable("users").set({ last_workspace_id: workspace }).where("id", "=", userId).execute();
  const change = (actorRole: Role, userId: number, role: Role) =>
    changeRole(db, { workspaceId, actorRole, userId, role, now: later });
  const remove = (actorRole: Role, actorId: number, userId: number) =>
    removeMember(db, { workspaceId, actorRole, actorId, userId });

  const lastOwner = { ok: false, status: 409, message: lastOwnerMessage };
  const ownersOnly = { ok: false, status: 403, message: onlyOwnersMessage };

  it("lists the members by name with their roles", async () => {
    expect(await listMembers(db, workspaceId)).toEqual([
      { userId: admin, name: "Adam Admin", email: "adam@example.com", handle: "adam", role: "admin", created_at: start.toISOString() },
      { userId: member, name: "Mia Member", email: "mia@example.com", handle: "mia", role: "member", created_at: start.toISOString() },
      { userId: owner, name: "Olivia Owner", email: "olivia@example.com", handle: "olivia", role: "owner", created_at: start.toISOString() },
      { userId: viewer, name: "Victor Viewer", email: "victor@example.com", handle: "victor", role: "viewer", created_at: start.toISOString() },
    ]);
    expect(await memberCount(db, workspaceId)).toBe(4);
  });

  describe("the last owner", () => {
    it("cannot be demoted, removed, or leave", async () => {
      for (const role of ["admin", "member", "viewer"] as const) {
        expect(await change("owner", owner, role)).toEqual(lastOwner);
      }
      expect(await remove("owner", owner, owner)).toEqual(lastOwner);
      expect(await roleOf(owner)).toBe("owner");
      expect(await memberCount(db, workspaceId)).toBe(4);
    });

    it("can step down, or leave, once there is a second owner", async () => {
      // The settings page counts the owners to tell the only one why they cannot leave.
      expect(await ownerCount(db, workspaceId)).toBe(1);
      expect(await change("owner", admin, "owner")).toEqual({ ok: true });
      expect(await roleOf(admin)).toBe("owner");
      expect(await ownerCount(db, workspaceId)).toBe(2);
      expect(await ownerCount(db, otherWorkspaceId)).toBe(1);

      expect(await change("owner", owner, "member")).toEqual({ ok: true });
      expect(await roleOf(owner)).toBe("member");
      // Adam is now the only owner: the rule holds for him.
      expect(await change("owner", admin, "admin")).toEqual(lastOwner);
      expect(await remove("owner", admin, admin)).toEqual(lastOwner);

      // Make Olivia owner again; now Adam may leave.
      expect(await change("owner", owner, "owner")).toEqual({ ok: true });
      expect(await remove("owner", admin, admin)).toEqual({ ok: true });
      expect(await roleOf(admin)).toBeUndefined();
      expect(await remove("owner", owner, owner)).toEqual(lastOwner);
    });

    it("can be removed by another owner when there are two", async () => {
      await change("owner", admin, "owner");
      expect(await remove("owner", admin, owner)).toEqual({ ok: true });
      expect(await roleOf(owner)).toBeUndefined();
      expect(await remove("owner", owner /* no longer a member */, admin)).toEqual(lastOwner);
    });

    it("keeping the role owner is no demotion", async () => {
      expect(await change("owner", owner, "owner")).toEqual({ ok: true });
    });

    if (dialect === "postgres") {
      // Two owners stepping down at once: the workspace row lock makes the second see one owner left.
      it("keeps an owner when two owners step down at the same time", async () => {
        await change("owner", admin, "owner");
        // Hold row locks on the memberships so both transactions read the owner count, then wait
        // at their UPDATE: the interleaving that concurrent requests produce by chance.
        let results: MembershipChange[];
        const locker = new pg.Client({ connectionString: database.env.DATABASE_URL });
        await locker.connect();
        try {
          await locker.query("begin");
          await locker.query("select id from memberships where workspace_id = $1 for update", [workspaceId]);
          const both = Promise.all([change("owner", owner, "admin"), change("owner", admin, "admin")]);
          await waitForLockWaiters(locker, 2);
          await locker.query("commit");
          results = await both;
        } finally {
          await locker.end();
        }
        const owners = (await listMembers(db, workspaceId)).filter((m) => m.role === "owner");
        expect(owners.length).toBe(1);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results).toContainEqual(lastOwner);
      });
    }
  });

  describe("an admin", () => {
    it("cannot make anyone an owner", async () => {
      expect(await change("admin", member, "owner")).toEqual(ownersOnly);
      expect(await change("admin", admin, "owner")).toEqual(ownersOnly);
      expect(await roleOf(member)).toBe("member");
      expect(await roleOf(admin)).toBe("admin");
    });

    it("cannot change or remove an owner", async () => {
      await change("owner", member, "owner");
      for (const target of [owner, member]) {
        expect(await change("admin", target, "admin")).toEqual(ownersOnly);
        expect(await change("admin", target, "viewer")).toEqual(ownersOnly);
        expect(await remove("admin", admin, target)).toEqual(ownersOnly);
        expect(await roleOf(target)).toBe("owner");
      }
    });

    it("moves people between member, viewer and admin", async () => {
      expect(await change("admin", member, "viewer")).toEqual({ ok: true });
      expect(await roleOf(member)).toBe("viewer");
      expect(await change("admin", member, "admin")).toEqual({ ok: true });
      expect(await roleOf(member)).toBe("admin");
      expect(await change("admin", member, "member")).toEqual({ ok: true });
      expect(await roleOf(member)).toBe("member");
      expect(await change("admin", viewer, "member")).toEqual({ ok: true });
      expect(await roleOf(viewer)).toBe("member");
      const updated = await db
        .selectFrom("memberships")
        .select("updated_at")
        .where("workspace_id", "=", workspaceId)
        .where("user_id", "=", member)
        .executeTakeFirstOrThrow();
      expect(updated.updated_at).toBe(later.toISOString());
    });

    it("removes a member and a viewer", async () => {
      expect(await remove("admin", admin, member)).toEqual({ ok: true });
      expect(await remove("admin", admin, viewer)).toEqual({ ok: true });
      expect(await roleOf(member)).toBeUndefined();
      expect(await roleOf(viewer)).toBeUndefined();
      expect((await listMembers(db, workspaceId)).map((m) => m.userId).sort()).toEqual([owner, admin].sort());
    });

    it("gets a 404 for someone who is not a member here", async () => {
      const notMember = { ok: false, status: 404, message: expect.any(String) };
      expect(await change("admin", outsider, "member")).toEqual(notMember);
      expect(await remove("admin", admin, outsider)).toEqual(notMember);
      // Oscar's own workspace is untouched.
      expect(await roleOf(outsider, otherWorkspaceId)).toBe("owner");
    });
  });

  it("lets a member, a viewer and an admin leave", async () => {
    expect(await remove("member", member, member)).toEqual({ ok: true });
    expect(await remove("viewer", viewer, viewer)).toEqual({ ok: true });
    expect(await remove("admin", admin, admin)).toEqual({ ok: true });
    expect(await listMembers(db, workspaceId)).toEqual([expect.objectContaining({ userId: owner, role: "owner" })]);
  });

  it("clears the removed person's last_workspace_id when it pointed at this workspace, and only then", async () => {
    await addMember(viewer, "member", otherWorkspaceId);
    await setLastWorkspace(member, workspaceId);
    await setLastWorkspace(viewer, otherWorkspaceId);
    await setLastWorkspace(admin, workspaceId);

    expect(await remove("admin", admin, member)).toEqual({ ok: true });
    expect(await remove("owner", owner, viewer)).toEqual({ ok: true });

    expect(await lastWorkspaceOf(member)).toBeNull();
    expect(await lastWorkspaceOf(viewer)).toBe(otherWorkspaceId);
    expect(await roleOf(viewer, otherWorkspaceId)).toBe("member");
    // The actor's own last workspace is not touched.
    expect(await lastWorkspaceOf(admin)).toBe(workspaceId);
    expect(await lastWorkspaceOf(owner)).toBe(workspaceId);

    // Leaving clears it as well.
    expect(await remove("admin", admin, admin)).toEqual({ ok: true });
    expect(await lastWorkspaceOf(admin)).toBeNull();
  });
});
