import type { DatabaseHandle } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import { withPublicUrl } from "./payload.server";
import { type AttemptOutcome, sendWebhook } from "./send.server";

/** A webhook whose deliveries fail this long since its first failure (and none succeeds) is turned off. */
export const failingDisableMs = 24 * 60 * 60 * 1000;

/** Finished deliveries and their attempts are kept this long. */
export const deliveryRetentionMs = 30 * 24 * 60 * 60 * 1000;

export type WebhookDispatcherOptions = {
  database: DatabaseHandle;
  logger: Logger;
  /** The instance claiming (the job runner's). */
  instance: string;
  /** Seconds before each retry (WEBHOOK_RETRY_DELAYS). */
  retryDelaysSeconds: number[];
  allowPrivate: boolean;
  publicUrl: string | undefined;
  /** How long a claim holds: longer than an attempt may take (10 s). */
  leaseMs?: number;
  batch?: number;
  /** Sends one attempt (tests may stand in for it). */
  send?: typeof sendWebhook;
};

type Claimed = { id: number; webhook_id: number; message_id: string; payload: string; attempts: number };

/**
 * Delivers the webhooks' outbox (`webhook_deliveries`), run by the job runner's loop
 * (decision record 020). A delivery is claimed only when it is due, its webhook is on, and no
 * earlier delivery of the same issue to the same webhook is still pending: events of an issue
 * reach a webhook in order, a later one waiting while an earlier one is retried.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions) {
  const { database, logger, instance } = options;
  const { db, dialect } = database;
  const leaseMs = options.leaseMs ?? 60_000;
  const batch = options.batch ?? 10;
  const send = options.send ?? sendWebhook;

  async function claim(now: Date): Promise<Claimed[]> {
    const at = now.toISOString();
    const due = db
      .selectFrom("webhook_deliveries as d")
      .select("d.id")
      .where("d.status", "=", "pending")
      .where("d.run_at", "<=", at)
      .where((eb) => eb.or([eb("d.locked_until", "is", null), eb("d.locked_until", "<=", at)]))
      .where("d.webhook_id", "in", (eb) => eb.selectFrom("webhooks").select("webhooks.id").where("webhooks.enabled", "=", 1))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("webhook_deliveries as e")
              .select("e.id")
              .whereRef("e.webhook_id", "=", "d.webhook_id")
              .whereRef("e.issue_id", "=", "d.issue_id")
              .where("e.status", "=", "pending")
              .whereRef("e.id", "<", "d.id"),
          ),
        ),
      )
      .orderBy("d.run_at")
      .orderBy("d.id");
    // Most polls find nothing: a read says so without taking SQLite's write lock.
    if (!(await due.limit(1).executeTakeFirst())) return [];
    const rows = await db
      .updateTable("webhook_deliveries")
      .set((eb) => ({ locked_by: instance, locked_until: new Date(now.getTime() + leaseMs).toISOString(), attempts: eb("attempts", "+", 1) }))
      .where("id", "in", due.limit(batch).$if(dialect === "postgres", (query) => query.forUpdate().skipLocked()))
      .returning(["id", "webhook_id", "message_id", "payload", "attempts"])
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Records an attempt and what follows from it: delivered, retried later, or failed for good. */
  async function settle(delivery: Claimed, outcome: AttemptOutcome, now: Date): Promise<void> {
    const at = now.toISOString();
    const delays = options.retryDelaysSeconds;
    await db.transaction().execute(async (trx) => {
      // Only while this instance still holds it: one whose lease ran out changes nothing.
      const held = await trx
        .updateTable("webhook_deliveries")
        .set(
          outcome.ok
            ? { status: "delivered", finished_at: at, locked_by: null, locked_until: null }
            : outcome.refused || delivery.attempts > delays.length
              ? { status: "failed", finished_at: at, locked_by: null, locked_until: null }
              : { run_at: new Date(now.getTime() + delays[delivery.attempts - 1]! * 1000).toISOString(), locked_by: null, locked_until: null },
        )
        .where("id", "=", delivery.id)
        .where("locked_by", "=", instance)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) return;
      await trx
        .insertInto("webhook_attempts")
        .values({
          delivery_id: delivery.id,
          attempt: delivery.attempts,
          status_code: outcome.statusCode,
          error: outcome.error,
          duration_ms: outcome.durationMs,
          created_at: at,
        })
        .execute();
      if (outcome.ok) {
        await trx.updateTable("webhooks").set({ failing_since: null, last_success_at: at }).where("id", "=", delivery.webhook_id).execute();
        return;
      }
      await trx
        .updateTable("webhooks")
        .set({ failing_since: at })
        .where("id", "=", delivery.webhook_id)
        .where("failing_since", "is", null)
        .execute();
      // A day of failures and no success since: turned off, and its creator told (once: only the one update that turns it off).
      const turnedOff = await trx
        .updateTable("webhooks")
        .set({ enabled: 0, disabled_reason: "failing", updated_at: at })
        .where("id", "=", delivery.webhook_id)
        .where("enabled", "=", 1)
        .where("failing_since", "<=", new Date(now.getTime() - failingDisableMs).toISOString())
        .returning(["id", "workspace_id", "created_by"])
        .executeTakeFirst();
      if (!turnedOff) return;
      logger.warn({ webhookId: turnedOff.id }, "A webhook failed for a day; it is turned off");
      if (turnedOff.created_by === null) return;
      const member = await trx
        .selectFrom("memberships")
        .select("id")
        .where("workspace_id", "=", turnedOff.workspace_id)
        .where("user_id", "=", turnedOff.created_by)
        .executeTakeFirst();
      if (!member) return;
      await trx
        .insertInto("notifications")
        .values({
          user_id: turnedOff.created_by,
          workspace_id: turnedOff.workspace_id,
          issue_id: null,
          webhook_id: turnedOff.id,
          reason: "webhook_disabled",
          actor_id: null,
          read_at: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
    });
  }

  async function deliver(delivery: Claimed, now: () => Date): Promise<void> {
    const hook = await db.selectFrom("webhooks").select(["url", "secret"]).where("id", "=", delivery.webhook_id).executeTakeFirst();
    // Deleted since it was claimed: its deliveries went with it.
    if (!hook) return;
    const outcome = await send({
      url: hook.url,
      messageId: delivery.message_id,
      body: withPublicUrl(delivery.payload, options.publicUrl),
      secret: hook.secret,
      now: now(),
      allowPrivate: options.allowPrivate,
    });
    const line = { deliveryId: delivery.id, webhookId: delivery.webhook_id, attempt: delivery.attempts, statusCode: outcome.statusCode, durationMs: outcome.durationMs };
    if (outcome.ok) logger.debug(line, "A webhook was delivered");
    else logger.info({ ...line, error: outcome.error }, "A webhook delivery failed");
    await settle(delivery, outcome, now());
  }

  return {
    /**
     * One batch, its deliveries sent side by side. True when it sent any: the next event of an
     * issue may be due now that the one before it is done, so the loop looks again at once.
     */
    async run(now: () => Date): Promise<boolean> {
      const claimed = await claim(now());
      await Promise.all(
        claimed.map((delivery) =>
          deliver(delivery, now).catch((error: unknown) => {
            // The database went away, say: the lease runs out and the delivery is claimed again.
            logger.warn({ err: error, deliveryId: delivery.id }, "Could not record a webhook delivery");
          }),
        ),
      );
      return claimed.length > 0;
    },
    /** Deletes finished deliveries (and their attempts) older than 30 days. */
    async prune(now: Date): Promise<number> {
      const deleted = await db
        .deleteFrom("webhook_deliveries")
        .where("status", "!=", "pending")
        .where("finished_at", "<", new Date(now.getTime() - deliveryRetentionMs).toISOString())
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
