import { describe, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import { createTestDatabase, testDialects } from "../support/databases";
import { migrateBefore } from "../support/migrations";

describe.each(testDialects)("the events and notifications migration on %s", (dialect) => {
  it("turns the activity's display strings into keys and ids, keeping what matches nothing as written", async () => {
    const database = await createTestDatabase(dialect);
    const handle = database.open();
    try {
      const db = await migrateBefore(handle, dialect, "0016");
      const now = new Date().toISOString();
      const stamps = { created_at: now, updated_at: now };
      const user = async (name: string, handleName: string) =>
        (await db.insertInto("users").values({ email: `${handleName}@example.com`, name, handle: handleName, password_hash: "x", is_instance_admin: 0, ...stamps }).returning("id").executeTakeFirstOrThrow()).id as number;
      const grace = await user("Grace", "grace");
      const linus = await user("Linus", "linus");
      // Two people named Sam, neither a member: the name matches nobody for sure.
      await user("Sam", "sam");
      await user("Sam", "sam-2");
      const workspace = (await db.insertInto("workspaces").values({ slug: "acme", name: "Acme", ...stamps }).returning("id").executeTakeFirstOrThrow()).id;
      for (const id of [grace, linus]) await db.insertInto("memberships").values({ workspace_id: workspace, user_id: id, role: "member", ...stamps }).execute();
      const project = (await db.insertInto("projects").values({ workspace_id: workspace, key: "WEB", name: "Website", ...stamps }).returning("id").executeTakeFirstOrThrow()).id;
      const bug = (await db.insertInto("labels").values({ workspace_id: workspace, name: "Bug", color: "red", ...stamps }).returning("id").executeTakeFirstOrThrow()).id;
      const ux = (await db.insertInto("labels").values({ workspace_id: workspace, name: "Ux", color: "blue", ...stamps }).returning("id").executeTakeFirstOrThrow()).id;
      const issue = (
        await db
          .insertInto("issues")
          .values({ project_id: project, number: 1, title: "T", description: "", status: "todo", priority: 0, sort_order: 1, version: 1, ...stamps })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
      const rows: [string, string | null, string | null][] = [
        ["status", "Todo", "In progress"],
        ["priority", "No priority", "Urgent"],
        ["assignee", null, "Grace"],
        ["assignee", "Grace", "Linus"],
        ["assignee", "Linus", "Sam"],
        ["labels", null, "Ux, Bug"],
        ["labels", "Ux, Bug", "Deleted one"],
        ["title", "Old", "New"],
      ];
      for (const [kind, from_value, to_value] of rows) {
        await db.insertInto("activities").values({ issue_id: issue, actor_id: grace, kind, issue_version: 1, from_value, to_value, created_at: now }).execute();
      }

      expect(await migrateToLatest(handle)).toContain("0016_events_notifications");
      const converted = await handle.db.selectFrom("activities").select(["kind", "from_value", "to_value", "from_user_id", "to_user_id"]).orderBy("id").execute();
      const labels = JSON.stringify([bug, ux].sort((a, b) => a - b));
      expect(converted.map((r) => [r.kind, r.from_value, r.to_value, r.from_user_id, r.to_user_id])).toEqual([
        ["status", "todo", "in_progress", null, null],
        ["priority", "none", "urgent", null, null],
        ["assignee", null, null, null, grace],
        ["assignee", null, null, grace, linus],
        ["assignee", null, "Sam", linus, null],
        ["labels", null, labels, null, null],
        ["labels", labels, "Deleted one", null, null],
        ["title", "Old", "New", null, null],
      ]);
      expect((await handle.db.selectFrom("users").select("notification_email").where("id", "=", grace).executeTakeFirstOrThrow()).notification_email).toBe("direct");
    } finally {
      await handle.db.destroy();
      await database.drop();
    }
  });
});
