import { type Kysely, sql } from "kysely";
import type { Dialect } from "~/db/database.server";

/** The size of a chunk of a file (app/attachments/attachment-content.server.ts keeps it too). */
const chunkBytes = 256 * 1024;

/**
 * A file's bytes move from its `attachments` row to rows of 256 KiB in `attachment_chunks`
 * (decision record 026), so that neither storing nor serving a file needs all of it in memory.
 * The chunks of the files already kept are cut in the database itself, never read into the
 * server; then the `content` column goes.
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  await db.schema
    .createTable("attachment_chunks")
    .addColumn("attachment_id", "integer", (c) => c.notNull().references("attachments.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("content", dialect === "postgres" ? "bytea" : "blob", (c) => c.notNull())
    .addPrimaryKeyConstraint("attachment_chunks_pkey", ["attachment_id", "position"])
    .execute();
  // Chunk `position` of a file holds its bytes from position × 256 KiB on; an empty file has none.
  if (dialect === "postgres") {
    await sql`
      insert into attachment_chunks (attachment_id, position, content)
      select a.id, p.position, substring(a.content from p.position * ${sql.lit(chunkBytes)} + 1 for ${sql.lit(chunkBytes)})
        from attachments a
        cross join lateral generate_series(0, (octet_length(a.content) + ${sql.lit(chunkBytes - 1)}) / ${sql.lit(chunkBytes)} - 1) as p(position)`.execute(db);
  } else {
    await sql`
      with recursive pieces(attachment_id, position) as (
        select id, 0 from attachments where length(content) > 0
        union all
        select pieces.attachment_id, pieces.position + 1
          from pieces join attachments on attachments.id = pieces.attachment_id
         where (pieces.position + 1) * ${sql.lit(chunkBytes)} < length(attachments.content)
      )
      insert into attachment_chunks (attachment_id, position, content)
      select pieces.attachment_id, pieces.position, substr(attachments.content, pieces.position * ${sql.lit(chunkBytes)} + 1, ${sql.lit(chunkBytes)})
        from pieces join attachments on attachments.id = pieces.attachment_id`.execute(db);
  }
  await db.schema.alterTable("attachments").dropColumn("content").execute();
}
