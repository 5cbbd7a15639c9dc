import { randomBytes } from "node:crypto";
import type { Database } from "~/db/database.server";
import { type WebhookDeliveryStatus, type WebhookEventType, webhookEventTypes } from "~/db/schema";

/** Webhooks a workspace may have. */
export const maxWebhooksPerWorkspace = 20;

/** Deliveries the settings page shows per webhook, newest first. */
export const deliveryLogSize = 20;

/** `whsec_` and the base64 of 32 random bytes: a Standard Webhooks signing secret. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Whether a webhook with these stored `events` (a JSON array; empty: all) wants this type. */
export function subscribes(events: string, type: WebhookEventType): boolean {
  const wanted = JSON.parse(events) as string[];
  return wanted.length === 0 || wanted.includes(type);
}

export type WebhookRefusal = { ok: false; field: "url"; message: string };
export type WebhookCreated = { ok: true; id: number; secret: string };

/** Adds a webhook (on), made by `userId`; its secret is returned this once for the page to show. */
export async function createWebhook(
  db: Database,
  webhook: { workspaceId: number; userId: number; url: string; events: WebhookEventType[]; now: Date },
): Promise<WebhookCreated | WebhookRefusal> {
  return db.transaction().execute(async (trx) => {
    const { count } = await trx
      .selectFrom("webhooks")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("workspace_id", "=", webhook.workspaceId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= maxWebhooksPerWorkspace) {
      return { ok: false, field: "url", message: `A workspace can have at most ${maxWebhooksPerWorkspace} webhooks. Delete one you no longer use.` } as const;
    }
    const secret = newWebhookSecret();
    const now = webhook.now.toISOString();
    // Stored in the order of webhookEventTypes, each once; all of them is stored as none (= all, new ones too).
    const events = webhookEventTypes.filter((type) => webhook.events.includes(type));
    const { id } = await trx
      .insertInto("webhooks")
      .values({
        workspace_id: webhook.workspaceId,
        url: webhook.url,
        events: JSON.stringify(events.length === webhookEventTypes.length ? [] : events),
        secret,
        enabled: 1,
        disabled_reason: null,
        created_by: webhook.userId,
        failing_since: null,
        last_success_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ok: true, id, secret } as const;
  });
}

export type WebhookAttemptRow = { attempt: number; statusCode: number | null; error: string | null; durationMs: number; at: string };
export type WebhookDeliveryRow = { id: number; type: string; status: WebhookDeliveryStatus; createdAt: string; runAt: string; attempts: WebhookAttemptRow[] };
export type WebhookRow = {
  id: number;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: "manual" | "failing" | null;
  failingSince: string | null;
  createdAt: string;
  deliveries: WebhookDeliveryRow[];
};

/** A workspace's webhooks (oldest first) with their latest deliveries and each one's attempts. */
export async function listWebhooks(db: Database, workspaceId: number): Promise<WebhookRow[]> {
  const hooks = await db
    .selectFrom("webhooks")
    .select(["id", "url", "events", "enabled", "disabled_reason", "failing_since", "created_at"])
    .where("workspace_id", "=", workspaceId)
    .orderBy("id")
    .execute();
  return Promise.all(
    hooks.map(async (hook): Promise<WebhookRow> => {
      const deliveries = await db
        .selectFrom("webhook_deliveries")
        .select(["id", "type", "status", "created_at", "run_at"])
        .where("webhook_id", "=", hook.id)
        .orderBy("id", "desc")
        .limit(deliveryLogSize)
        .execute();
      const attempts = deliveries.length
        ? await db
            .selectFrom("webhook_attempts")
            .select(["delivery_id", "attempt", "status_code", "error", "duration_ms", "created_at"])
            .where(
              "delivery_id",
              "in",
              deliveries.map((delivery) => delivery.id),
            )
            .orderBy("id", "desc")
            .execute()
        : [];
      const stored = JSON.parse(hook.events) as WebhookEventType[];
      return {
        id: hook.id,
        url: hook.url,
        events: stored.length ? stored : [...webhookEventTypes],
        enabled: hook.enabled === 1,
        disabledReason: hook.disabled_reason,
        failingSince: hook.failing_since,
        createdAt: hook.created_at,
        deliveries: deliveries.map((delivery) => ({
          id: delivery.id,
          type: delivery.type,
          status: delivery.status,
          createdAt: delivery.created_at,
          runAt: delivery.run_at,
          attempts: attempts
            .filter((attempt) => attempt.delivery_id === delivery.id)
            .map((attempt) => ({ attempt: attempt.attempt, statusCode: attempt.status_code, error: attempt.error, durationMs: attempt.duration_ms, at: attempt.created_at })),
        })),
      };
    }),
  );
}

/** Turns a webhook of the workspace on or off; false when it has no such webhook. On again, its failures are forgotten. */
export async function setWebhookEnabled(db: Database, change: { workspaceId: number; webhookId: number; enabled: boolean; now: Date }): Promise<boolean> {
  const updated = await db
    .updateTable("webhooks")
    .set(
      change.enabled
        ? { enabled: 1, disabled_reason: null, failing_since: null, updated_at: change.now.toISOString() }
        : { enabled: 0, disabled_reason: "manual", updated_at: change.now.toISOString() },
    )
    .where("id", "=", change.webhookId)
    .where("workspace_id", "=", change.workspaceId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/**
 * Deletes a webhook of the workspace with its deliveries and their log; false when there is none.
 * The deliveries go first: settling an attempt locks its delivery, then its webhook (decision
 * record 025), and taking them in the same order cannot deadlock with it on PostgreSQL.
 */
export async function deleteWebhook(db: Database, removal: { workspaceId: number; webhookId: number }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("webhook_deliveries")
      .where("webhook_id", "in", (eb) => eb.selectFrom("webhooks").select("id").where("id", "=", removal.webhookId).where("workspace_id", "=", removal.workspaceId))
      .execute();
    const deleted = await trx.deleteFrom("webhooks").where("id", "=", removal.webhookId).where("workspace_id", "=", removal.workspaceId).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  });
}

/**
 * Sends a delivery again: a new delivery of the same message (same `webhook-id`, same payload),
 * due now, after any delivery of the same issue still pending. False when the workspace has no
 * such delivery.
 */
export async function redeliver(db: Database, request: { workspaceId: number; deliveryId: number; now: Date }): Promise<boolean> {
  const delivery = await db
    .selectFrom("webhook_deliveries")
    .innerJoin("webhooks", "webhooks.id", "webhook_deliveries.webhook_id")
    .select([
      "webhook_deliveries.webhook_id",
      "webhook_deliveries.issue_id",
      "webhook_deliveries.event_id",
      "webhook_deliveries.message_id",
      "webhook_deliveries.type",
      "webhook_deliveries.payload",
    ])
    .where("webhook_deliveries.id", "=", request.deliveryId)
    .where("webhooks.workspace_id", "=", request.workspaceId)
    .executeTakeFirst();
  if (!delivery) return false;
  const now = request.now.toISOString();
  await db
    .insertInto("webhook_deliveries")
    .values({ ...delivery, status: "pending", run_at: now, locked_by: null, locked_until: null, finished_at: null, created_at: now })
    .execute();
  return true;
}
