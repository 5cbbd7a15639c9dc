import { type Kysely, sql } from "kysely";

/**
 * Descriptions and comments keep their line breaks as "\n" (normalizeLineBreaks,
 * app/forms/fields.server.ts): text sent by a browser without JavaScript had them as "\r\n", so the
 * same text saved again with JavaScript read as changed.
 */
export async function up(db: Kysely<any>) {
  for (const [table, column] of [
    ["issues", "description"],
    ["comments", "body"],
  ] as const) {
    await db
      .updateTable(table)
      .set({ [column]: sql`replace(replace(${sql.ref(column)}, ${"\r\n"}, ${"\n"}), ${"\r"}, ${"\n"})` })
      .where(column, "like", "%\r%")
      .execute();
  }
}
