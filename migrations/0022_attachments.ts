import type { Kysely } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

/**
 * Attachments (app/attachments/, decision record 024): files on issues and comments, their bytes in
 * the row, so that every instance sees them and a backup of the database holds them. The bytes are
 * the last column: SQLite reads the columns before them without touching the pages they fill.
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);
  await t
    .withId(db.schema.createTable("attachments"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("issue_id", "integer", (c) => c.references("issues.id").onDelete("cascade"))
    .addColumn("comment_id", "integer", (c) => c.references("comments.id").onDelete("set null"))
    .addColumn("uploader_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("content", t.bytes, (c) => c.notNull())
    .execute();
  // An issue's attachments; unclaimed uploads (issue_id null) by age, for their daily clean-up.
  await db.schema.createIndex("attachments_issue").on("attachments").columns(["issue_id", "created_at"]).execute();
  // A workspace's total, read from the index alone (docs/product.md, Limits).
  await db.schema.createIndex("attachments_workspace_size").on("attachments").columns(["workspace_id", "size"]).execute();
  // Deleting a comment or a user looks up what refers to it.
  await db.schema.createIndex("attachments_comment").on("attachments").column("comment_id").execute();
  await db.schema.createIndex("attachments_uploader").on("attachments").column("uploader_id").execute();
}
