import type { Kysely } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

/**
 * Who watches which issue (app/issues/watching.server.ts): its reporter, assignee and commenters
 * start watching by themselves; anyone who can see it may watch or unwatch it.
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("watches")
    .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("watches_pkey", ["issue_id", "user_id"])
    .execute();
  await db.schema.createIndex("watches_user_id").on("watches").column("user_id").execute();
}
