import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import {
  createWorkspace,
  deleteWorkspace,
  findWorkspaceAccess,
  listUserWorkspaces,
  renameWorkspace,
  slugTakenMessage,
  workspaceNameField,
  workspaceSlugField,
} from "~/workspaces/workspaces.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { insertUser } from "../support/users";

const start = new Date("2025-03-01T12:00:00.000Z");
const later = new Date("2025-03-02T08:30:00.000Z");

describe("workspace slug and name rules (docs/product.md, Rules for what is submitted)", () => {
  const slug = (value: unknown) => workspaceSlugField.safeParse(value);

  it.each(["acme", "a-1b", "abc", "123", "my-team-2", "a".repeat(40)])("accepts %j", (value) => {
    expect(slug(value)).toEqual({ success: true, data: value });
  });

  it("lower-cases and trims", () => {
    expect(slug("Acme")).toEqual({ success: true, data: "acme" });
    expect(slug("  ACME-Corp ")).toEqual({ success: true, data: "acme-corp" });
  });

  it.each([
    ["too short", "ab"],
    ["empty", ""],
    ["leading hyphen", "-acme"],
    ["trailing hyphen", "acme-"],
    ["double hyphen", "ac--me"],
    ["41 characters", "a".repeat(41)],
    ["underscore", "ac_me"],
    ["space inside", "ac me"],
    ["non-ASCII letter", "café"],
    ["dot", "ac.me"],
    ["reserved", "settings"],
    ["reserved, any case", "Settings"],
    ["reserved new", "new"],
    ["reserved admin", "admin"],
    ["reserved api", "api"],
    ["reserved login", "login"],
  ])("refuses %s (%j)", (_, value) => {
    expect(slug(value).success).toBe(false);
  });

  it("refuses a value that is not a string", () => {
    expect(slug(undefined).success).toBe(false);
    expect(slug(42).success).toBe(false);
  });

  it("trims the name and keeps it to 1–80 characters", () => {
    expect(workspaceNameField.safeParse("  Acme Corp  ")).toEqual({ success: true, data: "Acme Corp" });
    expect(workspaceNameField.safeParse("x".repeat(80)).success).toBe(true);
    expect(workspaceNameField.safeParse("x".repeat(81)).success).toBe(false);
    expect(workspaceNameField.safeParse("   ").success).toBe(false);
    expect(workspaceNameField.safeParse("").success).toBe(false);
  });
});

describe.each(testDialects)("workspaces on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let ada: number;
  let grace: number;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
    ada = await insertUser(db, { name: "Ada", at: start });
    grace = await insertUser(db, { name: "Grace", at: start });
  });

  afterEach(async () => {
    await handle.db.destroy();
    await database.drop();
  });

  const lastWorkspaceOf = async (userId: number) =>
    (await db.selectFrom("users").select("last_workspace_id").where("id", "=", userId).executeTakeFirstOrThrow())
      .last_workspace_id;
  const memberships = (workspaceId: number) =>
    db.selectFrom("memberships").select(["user_id", "role"]).where("workspace_id", "=", workspaceId).execute();

  it("makes the creator its owner and their last used workspace", async () => {
    expect(await createWorkspace(db, { name: "Acme Corp", slug: "acme", ownerId: ada, now: start })).toEqual({
      slug: "acme",
    });
    const access = await findWorkspaceAccess(db, "acme", ada);
    expect(access).toEqual({ id: expect.any(Number), slug: "acme", name: "Acme Corp", role: "owner" });
    expect(await memberships(access!.id)).toEqual([{ user_id: ada, role: "owner" }]);
    expect(await lastWorkspaceOf(ada)).toBe(access!.id);
    expect(await lastWorkspaceOf(grace)).toBeNull();
    expect(await db.selectFrom("workspaces").selectAll().executeTakeFirstOrThrow()).toMatchObject({
      slug: "acme",
      name: "Acme Corp",
      created_at: start.toISOString(),
      updated_at: start.toISOString(),
    });
  });

  it("refuses a taken slug as a problem with the slug field, and leaves nothing behind", async () => {
    await createWorkspace(db, { name: "Acme", slug: "acme", ownerId: ada, now: start });
    expect(await createWorkspace(db, { name: "Another Acme", slug: "acme", ownerId: grace, now: later })).toEqual({
      field: "slug",
      message: slugTakenMessage,
    });
    expect(await db.selectFrom("workspaces").select("id").execute()).toHaveLength(1);
    expect(await db.selectFrom("memberships").select("id").execute()).toHaveLength(1);
    expect(await lastWorkspaceOf(grace)).toBeNull();
    expect(await listUserWorkspaces(db, grace)).toEqual([]);
  });

  it("lists a user's workspaces by name with their role", async () => {
    await createWorkspace(db, { name: "Zeta", slug: "zeta", ownerId: ada, now: start });
    await createWorkspace(db, { name: "Alpha", slug: "alpha", ownerId: ada, now: start });
    await createWorkspace(db, { name: "Grace's", slug: "graces", ownerId: grace, now: start });
    const graces = (await findWorkspaceAccess(db, "graces", grace))!;
    const now = start.toISOString();
    await db
      .insertInto("memberships")
      .values({ workspace_id: graces.id, user_id: ada, role: "viewer", created_at: now, updated_at: now })
      .execute();

    expect((await listUserWorkspaces(db, ada)).map(({ slug, role }) => ({ slug, role }))).toEqual([
      { slug: "alpha", role: "owner" },
      { slug: "graces", role: "viewer" },
      { slug: "zeta", role: "owner" },
    ]);
    expect((await listUserWorkspaces(db, grace)).map((w) => w.slug)).toEqual(["graces"]);
  });

  it("gives no access to a non-member, nor to a slug that does not exist", async () => {
    await createWorkspace(db, { name: "Acme", slug: "acme", ownerId: ada, now: start });
    // The function's comment says "null"; it returns undefined. Callers test it for falsiness.
    expect(await findWorkspaceAccess(db, "acme", grace)).toBeUndefined();
    expect(await findWorkspaceAccess(db, "nothing-here", ada)).toBeUndefined();
  });

  it("renames a workspace", async () => {
    await createWorkspace(db, { name: "Acme", slug: "acme", ownerId: ada, now: start });
    const { id } = (await findWorkspaceAccess(db, "acme", ada))!;
    await renameWorkspace(db, id, "Acme Corporation", later);
    expect(await findWorkspaceAccess(db, "acme", ada)).toMatchObject({ name: "Acme Corporation", slug: "acme" });
    expect(
      await db.selectFrom("workspaces").select("updated_at").where("id", "=", id).executeTakeFirstOrThrow(),
    ).toEqual({ updated_at: later.toISOString() });
  });

  it("deletes a workspace with its memberships and invitations, and clears last_workspace_id", async () => {
    await createWorkspace(db, { name: "Acme", slug: "acme", ownerId: ada, now: start });
    await createWorkspace(db, { name: "Globex", slug: "globex", ownerId: grace, now: start });
    const acme = (await findWorkspaceAccess(db, "acme", ada))!.id;
    const globex = (await findWorkspaceAccess(db, "globex", grace))!.id;
    const now = start.toISOString();
    await db
      .insertInto("memberships")
      .values({ workspace_id: acme, user_id: grace, role: "member", created_at: now, updated_at: now })
      .execute();
    await db
      .insertInto("invitations")
      .values({
        workspace_id: acme,
        email: "linus@example.com",
        role: "member",
        token_hash: "some-hash",
        invited_by: ada,
        expires_at: later.toISOString(),
        created_at: now,
      })
      .execute();
    // Grace last used Globex, Ada Acme.
    expect(await lastWorkspaceOf(ada)).toBe(acme);
    expect(await lastWorkspaceOf(grace)).toBe(globex);

    await deleteWorkspace(db, acme);

    expect(await db.selectFrom("workspaces").select("slug").execute()).toEqual([{ slug: "globex" }]);
    expect(await memberships(acme)).toEqual([]);
    expect(await db.selectFrom("invitations").select("id").execute()).toEqual([]);
    expect(await lastWorkspaceOf(ada)).toBeNull();
    expect(await lastWorkspaceOf(grace)).toBe(globex);
    expect(await memberships(globex)).toEqual([{ user_id: grace, role: "owner" }]);
    expect(await findWorkspaceAccess(db, "acme", ada)).toBeUndefined();
    expect(await listUserWorkspaces(db, ada)).toEqual([]);
  });
});
