import { type Kysely, sql } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

/**
 * Saved views (app/views/, decision record 022): a project's list with its filters and sort, kept
 * under a name as the list's canonical query string, for its owner alone or shared with the
 * workspace. The two unique indexes hold the names (ignoring case) — per project for shared views,
 * per owner and project for private ones — and are also what the sidebar reads (the workspace
 * lookup's two branches: the workspace's shared views, the user's own private ones).
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);
  await t
    .withId(db.schema.createTable("saved_views"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("owner_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("query", "text", (c) => c.notNull())
    .addColumn("shared", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("saved_views_shared_name")
    .on("saved_views")
    .columns(["workspace_id", "project_id"])
    .expression(sql`lower(name)`)
    .unique()
    .where(sql.ref("shared"), "=", 1)
    .execute();
  await db.schema
    .createIndex("saved_views_private_name")
    .on("saved_views")
    .columns(["owner_id", "workspace_id", "project_id"])
    .expression(sql`lower(name)`)
    .unique()
    .where(sql.ref("shared"), "=", 0)
    .execute();
  // How many views someone has in a project, shared or not (docs/product.md, Limits).
  await db.schema.createIndex("saved_views_owner_project").on("saved_views").columns(["owner_id", "project_id"]).execute();
  // Deleting a project removes its views (the foreign key's cascade looks them up by project).
  await db.schema.createIndex("saved_views_project").on("saved_views").column("project_id").execute();
}
