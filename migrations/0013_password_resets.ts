import type { Kysely } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

/**
 * "Forgot password?" links (app/auth/password-resets.server.ts): a link's token is stored hashed
 * (a copy of the database resets nobody's password), works for an hour, and once.
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);
  await t
    .withId(db.schema.createTable("password_resets"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("used_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("password_resets_user_id").on("password_resets").column("user_id").execute();
}
