import type { Kysely } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);

  // At most one instance admin, even when the first two sign-ups race.
  await db.schema
    .createIndex("users_one_instance_admin")
    .on("users")
    .column("is_instance_admin")
    .unique()
    .where("is_instance_admin", "=", 1)
    .execute();

  await t
    .withId(db.schema.createTable("sessions"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("last_seen_at", t.timestamp, (c) => c.notNull())
    .addColumn("user_agent", "text")
    .addColumn("ip", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();

  await t
    .withId(db.schema.createTable("workspaces"))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();

  await t
    .withId(db.schema.createTable("memberships"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("memberships_workspace_user", ["workspace_id", "user_id"])
    .execute();
  await db.schema.createIndex("memberships_user_id").on("memberships").column("user_id").execute();

  await t
    .withId(db.schema.createTable("invitations"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("invited_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("accepted_at", t.timestamp)
    .addColumn("revoked_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("invitations_workspace_id").on("invitations").column("workspace_id").execute();

  // One row per failed sign-in, by account and by IP; counted over a sliding window.
  await t
    .withId(db.schema.createTable("sign_in_failures"))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("failed_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sign_in_failures_key_failed_at")
    .on("sign_in_failures")
    .columns(["key", "failed_at"])
    .execute();
}
