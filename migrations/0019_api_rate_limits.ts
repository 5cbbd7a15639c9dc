import type { Kysely } from "kysely";
import type { Dialect } from "~/db/database.server";

/**
 * Each API token's rate window (app/auth/api-tokens.server.ts): the minute it counts in and the
 * requests made in it, kept on the token's row so that authenticating a request and counting it
 * are one write, shared by every instance.
 */
export async function up(db: Kysely<any>, _dialect: Dialect) {
  await db.schema.alterTable("api_tokens").addColumn("rate_window", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("api_tokens").addColumn("rate_used", "integer", (c) => c.notNull().defaultTo(0)).execute();
}
