import type { Kysely } from "kysely";
import type { Dialect } from "~/db/database.server";

export async function up(db: Kysely<any>, _dialect: Dialect) {
  // An IANA zone name such as `Europe/Paris`; null until the person or their browser sets one.
  await db.schema.alterTable("users").addColumn("time_zone", "text").execute();
}
