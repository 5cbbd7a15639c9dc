import { type Kysely, sql } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

/**
 * Webhooks (app/webhooks/, decision record 020):
 * - `webhooks`: a workspace's endpoints, each with the event types it wants (JSON; empty: all), its
 *   signing secret (kept as is: signing needs it), on or off, and since when it has been failing;
 * - `webhook_deliveries`: the webhooks' outbox, one row per event and webhook, written in the
 *   change's transaction, with its payload as it was then; pending until delivered or failed;
 * - `webhook_attempts`: the delivery log, one row per attempt (status code or error, duration);
 * - `notifications.issue_id` becomes nullable and `notifications.webhook_id` names a webhook, so that
 *   the inbox can tell a webhook's creator it was turned off (SQLite rebuilds the table for that).
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);
  await t
    .withId(db.schema.createTable("webhooks"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("disabled_reason", "text")
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("failing_since", t.timestamp)
    .addColumn("last_success_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhooks_workspace_id").on("webhooks").column("workspace_id").execute();

  await t
    .withId(db.schema.createTable("webhook_deliveries"))
    .addColumn("webhook_id", "integer", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
    .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("event_id", "integer", (c) => c.references("events.id").onDelete("set null"))
    .addColumn("message_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("run_at", t.timestamp, (c) => c.notNull())
    .addColumn("locked_by", "text")
    .addColumn("locked_until", t.timestamp)
    .addColumn("finished_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  // What the dispatcher asks for: pending deliveries by when they are due.
  await db.schema
    .createIndex("webhook_deliveries_due")
    .on("webhook_deliveries")
    .columns(["run_at", "id"])
    .where(sql.ref("status"), "=", "pending")
    .execute();
  // Order per issue: is an earlier delivery of this webhook and issue still pending?
  await db.schema
    .createIndex("webhook_deliveries_pending_issue")
    .on("webhook_deliveries")
    .columns(["webhook_id", "issue_id", "id"])
    .where(sql.ref("status"), "=", "pending")
    .execute();
  // The delivery log, newest first; pruning.
  await db.schema.createIndex("webhook_deliveries_webhook_id").on("webhook_deliveries").columns(["webhook_id", "id"]).execute();
  await db.schema.createIndex("webhook_deliveries_finished_at").on("webhook_deliveries").column("finished_at").execute();

  await t
    .withId(db.schema.createTable("webhook_attempts"))
    .addColumn("delivery_id", "integer", (c) => c.notNull().references("webhook_deliveries.id").onDelete("cascade"))
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_attempts_delivery_id").on("webhook_attempts").columns(["delivery_id", "id"]).execute();

  if (dialect === "postgres") {
    await sql`alter table notifications alter column issue_id drop not null`.execute(db);
    await db.schema.alterTable("notifications").addColumn("webhook_id", "integer", (c) => c.references("webhooks.id").onDelete("cascade")).execute();
    return;
  }
  // SQLite cannot drop a NOT NULL: the table is made anew, as migrations/0016 made it, and filled again.
  await t
    .withId(db.schema.createTable("notifications_next"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("issue_id", "integer", (c) => c.references("issues.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("actor_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("read_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addColumn("webhook_id", "integer", (c) => c.references("webhooks.id").onDelete("cascade"))
    .execute();
  await sql`
    insert into notifications_next (id, user_id, workspace_id, issue_id, reason, actor_id, read_at, created_at, updated_at)
    select id, user_id, workspace_id, issue_id, reason, actor_id, read_at, created_at, updated_at from notifications`.execute(db);
  await db.schema.dropTable("notifications").execute();
  await sql`alter table notifications_next rename to notifications`.execute(db);
  await db.schema.createIndex("notifications_user_issue").on("notifications").columns(["user_id", "issue_id"]).unique().execute();
  await db.schema.createIndex("notifications_inbox").on("notifications").columns(["user_id", "workspace_id", "updated_at"]).execute();
  await db.schema
    .createIndex("notifications_unread")
    .on("notifications")
    .columns(["user_id", "workspace_id"])
    .where(sql.ref("read_at"), "is", null)
    .execute();
}
