import type { Kysely } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

/**
 * Sub-issues and relations (app/issues/issue-links.server.ts, decision record 021):
 * - `issues.parent_id`: the parent, in the same workspace; indexed with the status, so that
 *   a parent's progress ("3 of 5 done") is counted from the index alone;
 * - `issue_relations`: one row per relation in one canonical direction (`blocks`, `relates_to`,
 *   `duplicate_of`; "blocked by" is a `blocks` row the other way round), unique per pair and type;
 *   indexed both ways: by `from_id` (the unique index) and by `to_id`, which finds an issue's blockers.
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);
  await db.schema.alterTable("issues").addColumn("parent_id", "integer", (c) => c.references("issues.id").onDelete("set null")).execute();
  await db.schema.createIndex("issues_parent_status").on("issues").columns(["parent_id", "status"]).execute();

  await t
    .withId(db.schema.createTable("issue_relations"))
    .addColumn("from_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("to_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("creator_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("issue_relations_pair").on("issue_relations").columns(["from_id", "to_id", "type"]).unique().execute();
  await db.schema.createIndex("issue_relations_to").on("issue_relations").columns(["to_id", "type"]).execute();
}
