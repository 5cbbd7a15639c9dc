import type { Kysely } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);

  await t
    .withId(db.schema.createTable("users"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("is_instance_admin", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_workspace_id", "integer")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();

  await t
    .withId(db.schema.createTable("monitoring_events"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("digest", "text")
    .addColumn("route", "text")
    .addColumn("url", "text")
    .addColumn("method", "text")
    .addColumn("message", "text")
    .addColumn("stack", "text")
    .addColumn("user_id", "integer")
    .addColumn("user_agent", "text")
    .addColumn("request_id", "text")
    .addColumn("name", "text")
    .addColumn("value", "double precision")
    .addColumn("rating", "text")
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("first_seen", t.timestamp, (c) => c.notNull())
    .addColumn("last_seen", t.timestamp, (c) => c.notNull())
    .execute();
  // Errors are grouped: one row per (kind, digest), counted. Web vitals have no digest, one row each.
  await db.schema
    .createIndex("monitoring_events_kind_digest")
    .on("monitoring_events")
    .columns(["kind", "digest"])
    .unique()
    .execute();
  await db.schema
    .createIndex("monitoring_events_kind_last_seen")
    .on("monitoring_events")
    .columns(["kind", "last_seen"])
    .execute();
}
