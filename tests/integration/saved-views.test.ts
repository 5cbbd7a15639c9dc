/**
 * Saved views (app/views/saved-views.server.ts) on both databases: who sees which view in the
 * sidebar (the workspace lookup), who may rename and delete them, names and the limit, and the
 * canonical query a view keeps. The sidebar's branches are EXPLAINed: they read saved_views through
 * its indexes, not by scanning it.
 *
 *   acme: Ada (owner), Bea (admin), Max (member), Vic (viewer); projects WEB and API.
 *   beta: Olga (owner); project OPS.
 */
import path from "node:path";
import SQLite from "better-sqlite3";
import { type CompiledQuery, Kysely, PostgresDialect, sql, SqliteDialect } from "kysely";
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { type Database, sqliteFileName } from "~/db/database.server";
import type { DB, Role } from "~/db/schema";
import { saveViewSchema, viewActionSchema } from "~/views/forms.server";
import { canonicalListQuery, deleteView, findView, maxViewsPerProject, renameView, saveView, type ViewActor } from "~/views/saved-views.server";
import { loadWorkspaceContext } from "~/workspaces/workspaces.server";
import { testDialects, type TestDatabase } from "../support/databases";
import { withMigratedDatabase } from "../support/migrated-database";
import { emptyWorkspaceTables, seedTestWorkspace } from "../support/workspaces";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute));

type Person = "Ada" | "Bea" | "Max" | "Vic";
const roles: Record<Person, Role> = { Ada: "owner", Bea: "admin", Max: "member", Vic: "viewer" };

describe.each(testDialects)("saved views on %s", (dialect) => {
  let db: Database;
  let acme: { id: number; users: Record<Person, number>; projects: Record<"WEB" | "API", { id: number }> };
  let beta: { id: number; users: Record<"Olga", number>; projects: Record<"OPS", { id: number }> };

  withMigratedDatabase(dialect, (opened) => ({ db } = opened));

  beforeEach(async () => {
    await db.deleteFrom("saved_views").execute();
    await emptyWorkspaceTables(db);
    acme = await seedTestWorkspace(db, { slug: "acme", name: "Acme", at: at(0), members: roles, projects: { WEB: "Website", API: "API" } });
    beta = await seedTestWorkspace(db, { slug: "beta", name: "Beta", at: at(0), members: { Olga: "owner" }, projects: { OPS: "Operations" } });
  });

  const actor = (person: Person): ViewActor => ({ workspaceId: acme.id, role: roles[person], userId: acme.users[person] });
  const save = (person: Person, name: string, options: { shared?: boolean; query?: string; project?: "WEB" | "API" } = {}) =>
    saveView(db, { actor: actor(person), projectId: acme.projects[options.project ?? "WEB"].id, name, query: options.query ?? "status=todo", shared: options.shared ?? false, now: at(1) });
  const saved = async (person: Person, name: string, options: Parameters<typeof save>[2] = {}) => {
    const result = await save(person, name, options);
    if (!result.ok) throw new Error(`not saved: ${result.message}`);
    return result.id;
  };
  /** The views a person's sidebar lists (the workspace lookup), as "name (shared|private) in project". */
  const sidebar = async (person: Person) => {
    const context = await loadWorkspaceContext(db, "acme", acme.users[person]);
    const keys = new Map(context!.projects.map((p) => [p.id, p.key]));
    return context!.views.map((v) => `${v.name} (${v.shared ? "shared" : "private"}) in ${keys.get(v.projectId)}`);
  };

  it("shows each person their own private views and every shared one, by name, under their project", async () => {
    await saved("Max", "my bugs");
    await saved("Max", "Triage", { shared: true });
    await saved("Ada", "Ada's own", { project: "API" });
    await saved("Ada", "All open", { shared: true, project: "API" });
    expect(await sidebar("Max")).toEqual(["All open (shared) in API", "my bugs (private) in WEB", "Triage (shared) in WEB"]);
    expect(await sidebar("Ada")).toEqual(["Ada's own (private) in API", "All open (shared) in API", "Triage (shared) in WEB"]);
    expect(await sidebar("Vic")).toEqual(["All open (shared) in API", "Triage (shared) in WEB"]);
    // Another workspace's lookup has none of them.
    const other = await loadWorkspaceContext(db, "beta", beta.users.Olga);
    expect(other!.views).toEqual([]);
  });

  it("keeps the list's canonical query: what the list reads, written as the list writes it", async () => {
    const id = await saved("Max", "Mine", { query: "page=3&menu=filter&status=todo,in_progress&assignee=me&sort=priority&bogus=1&priority=urgent&q=+crash+" });
    const view = await findView(db, actor("Max"), acme.projects.WEB.id, id);
    expect(view?.query).toBe("q=crash&status=todo&status=in_progress&assignee=me&priority=urgent&sort=priority");
    expect(canonicalListQuery("sort=updated")).toEqual({ query: "" });
    expect(canonicalListQuery("q=%E2%80%AEevil")).toEqual({ problem: expect.stringContaining("U+202E") });
    const refused = await save("Max", "Bad", { query: "q=a%00b" });
    expect(refused).toMatchObject({ ok: false, status: 400, field: "query" });
  });

  it("lets a viewer save private views (reading is theirs) but not share one", async () => {
    expect(await save("Vic", "Vic's")).toMatchObject({ ok: true });
    expect(await save("Vic", "For all", { shared: true })).toEqual({ ok: false, status: 403, message: "You don't have permission to do that." });
    expect(await sidebar("Vic")).toEqual(["Vic's (private) in WEB"]);
  });

  it("refuses a name already taken, ignoring case: per project for shared views, per person and project for private ones", async () => {
    await saved("Max", "Bugs");
    expect(await save("Max", "bugs")).toEqual({ ok: false, status: 400, field: "name", message: "A view named “bugs” already exists. Choose another name." });
    // Someone else's private view, another project, or a shared one: another name space.
    expect(await save("Ada", "Bugs")).toMatchObject({ ok: true });
    expect(await save("Max", "Bugs", { project: "API" })).toMatchObject({ ok: true });
    expect(await save("Max", "Bugs", { shared: true })).toMatchObject({ ok: true });
    expect(await save("Ada", "BUGS", { shared: true })).toMatchObject({ ok: false, status: 400, field: "name" });
    const other = await saved("Max", "Other");
    expect(await renameView(db, { actor: actor("Max"), projectId: acme.projects.WEB.id, viewId: other, name: "bugs", now: at(2) })).toMatchObject({ ok: false, status: 400, field: "name" });
  });

  it(`holds a person to ${maxViewsPerProject} views a project, shared or not`, async () => {
    for (let i = 1; i < maxViewsPerProject; i++) await saved("Max", `View ${i}`);
    await saved("Max", "The last one", { shared: true });
    expect(await save("Max", "One more")).toEqual({
      ok: false,
      status: 400,
      field: "name",
      message: `You can have at most ${maxViewsPerProject} views in a project. Delete one you no longer use.`,
    });
    // Another project, another person: room still.
    expect(await save("Max", "One more", { project: "API" })).toMatchObject({ ok: true });
    expect(await save("Ada", "One more")).toMatchObject({ ok: true });
  });

  it("lets the owner rename and delete their view; anyone else who sees it gets 403, who cannot see it 404", async () => {
    const web = acme.projects.WEB.id;
    const mine = await saved("Max", "Mine");
    const shared = await saved("Max", "Team", { shared: true });
    // Ada (owner) cannot see Max's private view at all.
    expect(await renameView(db, { actor: actor("Ada"), projectId: web, viewId: mine, name: "Hers", now: at(2) })).toEqual({ ok: false, status: 404, message: "View not found." });
    expect(await deleteView(db, { actor: actor("Ada"), projectId: web, viewId: mine })).toMatchObject({ ok: false, status: 404 });
    expect(await findView(db, actor("Ada"), web, mine)).toBeUndefined();
    // A member and a viewer see the shared one, and may not change it.
    expect(await renameView(db, { actor: actor("Vic"), projectId: web, viewId: shared, name: "Vic's", now: at(2) })).toMatchObject({ ok: false, status: 403 });
    expect(await deleteView(db, { actor: actor("Vic"), projectId: web, viewId: shared })).toMatchObject({ ok: false, status: 403 });
    // Through another project's URL it is not found.
    expect(await renameView(db, { actor: actor("Max"), projectId: acme.projects.API.id, viewId: mine, name: "x", now: at(2) })).toMatchObject({ ok: false, status: 404 });
    expect(await renameView(db, { actor: actor("Max"), projectId: web, viewId: mine, name: "Still mine", now: at(2) })).toEqual({ ok: true });
    expect(await findView(db, actor("Max"), web, mine)).toMatchObject({ name: "Still mine", shared: false, ownerName: "Max" });
    expect(await deleteView(db, { actor: actor("Max"), projectId: web, viewId: mine })).toEqual({ ok: true });
    expect(await findView(db, actor("Max"), web, mine)).toBeUndefined();
    expect(await sidebar("Max")).toEqual(["Team (shared) in WEB"]);
  });

  it("lets a workspace admin or owner rename and delete anyone's shared view, never another's private one", async () => {
    const web = acme.projects.WEB.id;
    const team = await saved("Max", "Team", { shared: true });
    expect(await renameView(db, { actor: actor("Bea"), projectId: web, viewId: team, name: "Team board", now: at(2) })).toEqual({ ok: true });
    expect(await sidebar("Max")).toEqual(["Team board (shared) in WEB"]);
    expect(await deleteView(db, { actor: actor("Ada"), projectId: web, viewId: team })).toEqual({ ok: true });
    expect(await sidebar("Vic")).toEqual([]);
    const vics = await saved("Vic", "Vic's");
    expect(await deleteView(db, { actor: actor("Bea"), projectId: web, viewId: vics })).toMatchObject({ ok: false, status: 404 });
  });

  it("answers 404 for a view of another workspace, even to its owner's namesake role", async () => {
    const ops = await saveView(db, {
      actor: { workspaceId: beta.id, role: "owner", userId: beta.users.Olga },
      projectId: beta.projects.OPS.id,
      name: "Ops shared",
      query: "",
      shared: true,
      now: at(1),
    });
    if (!ops.ok) throw new Error(ops.message);
    // Ada owns acme; the view's id asked through acme's project, or with acme as the workspace, is not found.
    for (const projectId of [acme.projects.WEB.id, beta.projects.OPS.id]) {
      expect(await findView(db, actor("Ada"), projectId, ops.id)).toBeUndefined();
      expect(await renameView(db, { actor: actor("Ada"), projectId, viewId: ops.id, name: "Mine now", now: at(2) })).toMatchObject({ ok: false, status: 404 });
      expect(await deleteView(db, { actor: actor("Ada"), projectId, viewId: ops.id })).toMatchObject({ ok: false, status: 404 });
    }
  });

  it("goes with its project and with its owner", async () => {
    await saved("Max", "Mine", { project: "API" });
    await saved("Max", "Team", { shared: true });
    await db.deleteFrom("projects").where("id", "=", acme.projects.API.id).execute();
    expect(await sidebar("Max")).toEqual(["Team (shared) in WEB"]);
    await db.deleteFrom("memberships").where("user_id", "=", acme.users.Max).execute();
    await db.deleteFrom("users").where("id", "=", acme.users.Max).execute();
    expect(await sidebar("Ada")).toEqual([]);
  });
});

describe("a view's name and form, as the forms read them", () => {
  const name = (value: string) => {
    const parsed = saveViewSchema.safeParse({ intent: "save-view", name: value, query: "" });
    return parsed.success ? parsed.data.name : parsed.error.issues[0]!.message;
  };

  it("is trimmed, 1 to 60 characters, one line, without control or direction characters", () => {
    expect(name("  Open bugs  ")).toBe("Open bugs");
    expect(name("")).toBe("Enter a name for the view.");
    expect(name("   ")).toBe("Enter a name for the view.");
    expect(name("x".repeat(60))).toBe("x".repeat(60));
    expect(name("x".repeat(61))).toBe("Use at most 60 characters.");
    expect(name("a\u0000b")).toBe("Remove the invisible control character (U+0000).");
    expect(name("abc\u202Efed")).toBe("Remove the invisible character that changes the direction of text (U+202E).");
    expect(name("two\nlines")).toBe("Use a single line, without line breaks.");
    // Right-to-left names keep their direction marks.
    expect(name("\u05D1\u05D0\u05D2\u05D9\u05DD\u200F")).toBe("\u05D1\u05D0\u05D2\u05D9\u05DD\u200F");
  });

  it("reads the checkbox as shared when sent and private when not, and requires a name to rename", () => {
    expect(saveViewSchema.parse({ intent: "save-view", name: "A", shared: "on" }).shared).toBe(true);
    expect(saveViewSchema.parse({ intent: "save-view", name: "A" }).shared).toBe(false);
    expect(viewActionSchema.safeParse({ intent: "rename", name: "" }).success).toBe(false);
    expect(viewActionSchema.parse({ intent: "delete" })).toEqual({ intent: "delete" });
  });
});

// ---------------------------------------------------------------------------------------------
// The sidebar's branches at scale: 20,000 views of another workspace to skip.

describe.each(testDialects)("the sidebar's views query plan on %s", (dialect) => {
  let database: TestDatabase;
  let db: Database;

  withMigratedDatabase(dialect, (opened) => ({ database, db } = opened));

  it("reads the shared views of the workspace and the person's own through indexes", async () => {
    const acme = await seedTestWorkspace(db, { slug: "acme", at: at(0), members: { Ada: "owner" }, projects: { WEB: "Website" } });
    const others = await seedTestWorkspace(db, { slug: "others", at: at(0), projects: { OPS: "Ops" } });
    const now = at(0).toISOString();
    // 20,000 views of another workspace, all Ada's, half shared: what both branches must skip.
    await sql`
      insert into saved_views (workspace_id, project_id, owner_id, name, query, shared, created_at, updated_at)
      select ${others.id}, ${others.projects.OPS.id}, ${acme.users.Ada}, 'View ' || n, 'status=todo', n % 2, ${now}, ${now}
        from (${dialect === "sqlite" ? sql`with recursive seq(n) as (select 1 union all select n + 1 from seq where n < 20000) select n from seq` : sql`select generate_series(1, 20000) as n`}) as numbers`.execute(db);
    await sql`
      insert into saved_views (workspace_id, project_id, owner_id, name, query, shared, created_at, updated_at)
      values (${acme.id}, ${acme.projects.WEB.id}, ${acme.users.Ada}, 'Mine', '', 0, ${now}, ${now}),
             (${acme.id}, ${acme.projects.WEB.id}, ${acme.users.Ada}, 'Team', '', 1, ${now}, ${now})`.execute(db);
    if (dialect === "postgres") await sql`analyze saved_views`.execute(db);

    const captured: CompiledQuery[] = [];
    const log = (event: { level: string; query: CompiledQuery }) => {
      if (event.level === "query") captured.push(event.query);
    };
    let explain: (query: CompiledQuery) => Promise<string[]>;
    let logged: Kysely<DB>;
    if (dialect === "sqlite") {
      const connection = new SQLite(path.join(database.dataDir, sqliteFileName));
      logged = new Kysely<DB>({ dialect: new SqliteDialect({ database: connection }), log });
      explain = async (query) => (connection.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...(query.parameters as unknown[])) as { detail: string }[]).map((r) => r.detail);
    } else {
      const pool = new pg.Pool({ connectionString: database.env.DATABASE_URL, max: 2 });
      logged = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
      explain = async (query) => (await pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${query.sql}`, query.parameters as unknown[])).rows.map((r) => r["QUERY PLAN"]);
    }
    try {
      const context = await loadWorkspaceContext(logged, "acme", acme.users.Ada);
      expect(context!.views.map((v) => v.name)).toEqual(["Mine", "Team"]);
      expect(captured).toHaveLength(1);
      const plan = await explain(captured[0]!);
      const text = plan.join("\n");
      // Each branch through its index (a bitmap scan on PostgreSQL, a search on SQLite) …
      expect(text).toContain("saved_views_shared_name");
      expect(text).toContain("saved_views_private_name");
      // … and none reading the whole table.
      const scans = plan.filter((line) => (dialect === "sqlite" ? /^SCAN v\b/.test(line) && !/USING (COVERING )?INDEX/.test(line) : /Seq Scan on saved_views/.test(line)));
      expect(scans, text).toEqual([]);
    } finally {
      await logged.destroy();
    }
  }, 60_000);
});
