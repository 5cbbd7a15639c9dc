import type { Kysely } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);

  // docs/product.md, Limits: 60 monitoring beacons per minute per client. One row per accepted beacon, counted over
  // a sliding window in the database so that every instance sees the same counts.
  await t
    .withId(db.schema.createTable("beacon_hits"))
    .addColumn("client", "text", (c) => c.notNull())
    .addColumn("at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("beacon_hits_client_at").on("beacon_hits").columns(["client", "at"]).execute();
  // Hits that left the window are purged by time, whoever sent them.
  await db.schema.createIndex("beacon_hits_at").on("beacon_hits").column("at").execute();
}
