import { describe, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import { createTestDatabase, testDialects } from "../support/databases";
import { migrateBefore } from "../support/migrations";

describe.each(testDialects)("the line-breaks migration on %s", (dialect) => {
  it("keeps descriptions' and comments' line breaks as \\n, and leaves the rest as it was", async () => {
    const database = await createTestDatabase(dialect);
    const handle = database.open();
    try {
      const db = await migrateBefore(handle, dialect, "0023");
      const at = "2026-11-01T09:00:00.000Z";
      const stamps = { created_at: at, updated_at: at };
      const user = (await db.insertInto("users").values({ email: "ada@example.com", name: "Ada", handle: "ada", password_hash: "x", is_instance_admin: 0, ...stamps }).returning("id").executeTakeFirstOrThrow()).id;
      const workspace = (await db.insertInto("workspaces").values({ slug: "acme", name: "Acme", ...stamps }).returning("id").executeTakeFirstOrThrow()).id;
      const project = (await db.insertInto("projects").values({ workspace_id: workspace, key: "WEB", name: "Website", ...stamps }).returning("id").executeTakeFirstOrThrow()).id;
      const issue = async (number: number, description: string) =>
        (await db.insertInto("issues").values({ project_id: project, number, title: `T${number}`, description, status: "todo", ...stamps }).returning("id").executeTakeFirstOrThrow()).id as number;
      const sentWithoutJavaScript = await issue(1, "Steps:\r\n1. Open it\r\n2. Wait\r\rOld Mac\r");
      const sentWithIt = await issue(2, "Steps:\n1. Open it");
      await db.insertInto("comments").values({ issue_id: sentWithoutJavaScript, author_id: user, body: "Seen\r\ntoo", ...stamps }).execute();

      expect(await migrateToLatest(handle)).toContain("0023_line_breaks");
      const issues = await handle.db.selectFrom("issues").select(["id", "description", "updated_at"]).orderBy("id").execute();
      expect(issues).toEqual([
        { id: sentWithoutJavaScript, description: "Steps:\n1. Open it\n2. Wait\n\nOld Mac\n", updated_at: at },
        { id: sentWithIt, description: "Steps:\n1. Open it", updated_at: at },
      ]);
      expect(await handle.db.selectFrom("comments").select("body").execute()).toEqual([{ body: "Seen\ntoo" }]);
    } finally {
      await handle.db.destroy();
      await database.drop();
    }
  });
});
