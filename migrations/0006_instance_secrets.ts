import type { Kysely } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);

  // Secrets every instance must share, generated once by whichever instance starts first. On
  // PostgreSQL the session secret lives here when SESSION_SECRET is unset: instances on other
  // machines share the database, not a DATA_DIR (app/config/session-secret.server.ts).
  await db.schema
    .createTable("instance_secrets")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
}
