import type { Database, DatabaseHandle } from "~/db/database.server";
import type { Lane } from "~/jobs/lane.server";
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
  /** Deliveries this instance sends at once. */
  concurrency?: number;
  /** Deliveries to one webhook in flight at once, over every instance: a receiver that hangs holds no more. */
  perWebhook?: number;
  /** Deliveries of one workspace's webhooks in flight at once, over every instance: its twenty webhooks hanging hold no more. */
  perWorkspace?: number;
  /** Sends one attempt (tests may stand in for it). */
  send?: typeof sendWebhook;
};

export type ClaimedDelivery = { id: number; webhook_id: number; message_id: string; payload: string; attempts: number };

/**
 * The webhooks' outbox (`webhook_deliveries`, decision record 020) as a lane of the job runner
 * (decision record 025). A delivery is claimed only when it is due, its webhook is on, and no
 * earlier delivery of the same issue to the same webhook is still pending: events of an issue
 * reach a webhook in order, a later one waiting while an earlier one is retried. Claims are fair:
 * at most `perWebhook` deliveries of a webhook and `perWorkspace` of a workspace are in flight,
 * and the least busy workspaces go first, so that a receiver that never answers delays only its own.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): Lane<ClaimedDelivery> {
  const { database, logger, instance } = options;
  const { db, dialect } = database;
  const perWebhook = options.perWebhook ?? 2;
  const perWorkspace = options.perWorkspace ?? 4;
  const send = options.send ?? sendWebhook;

  async function claim({ now, leaseMs, limit }: { now: Date; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]> {
    const at = now.toISOString();
    // Most polls find nothing due: a read says so without taking SQLite's write lock.
    const anyDue = await db
      .selectFrom("webhook_deliveries")
      .select("id")
      .where("status", "=", "pending")
      .where("run_at", "<=", at)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", at)]))
      .limit(1)
      .executeTakeFirst();
    if (!anyDue) return [];
    // Each webhook's first `perWebhook` deliveries in line, held or free: due, and no earlier delivery of
    // their issue to the webhook pending. One seek per webhook (migrations/0024), however many wait.
    const positions = Array.from({ length: perWebhook }, (_, position) => position);
    const lines = await db
      .selectFrom("webhooks as w")
      .select((eb) =>
        positions.map((position) =>
          eb
            .selectFrom("webhook_deliveries as x")
            .select("x.id")
            .whereRef("x.webhook_id", "=", "w.id")
            .where("x.status", "=", "pending")
            .where("x.run_at", "<=", at)
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom("webhook_deliveries as e")
                    .select("e.id")
                    .whereRef("e.webhook_id", "=", "x.webhook_id")
                    .whereRef("e.issue_id", "=", "x.issue_id")
                    .where("e.status", "=", "pending")
                    .whereRef("e.id", "<", "x.id"),
                ),
              ),
            )
            .orderBy("x.run_at")
            .orderBy("x.id")
            .limit(1)
            .offset(position)
            .as(`at${position}`),
        ),
      )
      .where("w.enabled", "=", 1)
      .execute();
    const ids = lines.flatMap((line) => positions.map((position) => (line as Record<string, number | null>)[`at${position}`])).filter((id) => id != null);
    if (!ids.length) return [];
    const fronts = await db
      .selectFrom("webhook_deliveries as d")
      .innerJoin("webhooks as w", "w.id", "d.webhook_id")
      .select(["d.id", "d.run_at", "d.locked_until", "w.workspace_id"])
      .where("d.id", "in", ids)
      .execute();
    const chosen = fairShare(fronts, { at, perWorkspace, limit });
    if (!chosen.length) return [];
    // Checked again on the rows themselves, which PostgreSQL locks, skipping those another instance is claiming.
    const claimable = db
      .selectFrom("webhook_deliveries")
      .select("id")
      .where("id", "in", chosen)
      .where("status", "=", "pending")
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", at)]))
      .$if(dialect === "postgres", (query) => query.forUpdate().skipLocked());
    const rows = await db
      .updateTable("webhook_deliveries")
      .set((eb) => ({ locked_by: instance, locked_until: new Date(now.getTime() + leaseMs).toISOString(), attempts: eb("attempts", "+", 1) }))
      .where("id", "in", claimable)
      .returning(["id", "webhook_id", "message_id", "payload", "attempts"])
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Records an attempt and what follows from it: delivered, retried later, or failed for good. */
  async function settle(delivery: ClaimedDelivery, outcome: AttemptOutcome, now: Date): Promise<void> {
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

  async function deliver(delivery: ClaimedDelivery, now: () => Date): Promise<void> {
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
    name: "webhooks",
    concurrency: options.concurrency ?? 16,
    claim,
    run: (delivery, clock) =>
      deliver(delivery, clock).catch((error: unknown) => {
        // The database went away, say: the lease runs out and the delivery is claimed again.
        logger.warn({ err: error, deliveryId: delivery.id }, "Could not record a webhook delivery");
      }),
    async renew({ ids, now, leaseMs }) {
      await db
        .updateTable("webhook_deliveries")
        .set({ locked_until: new Date(now.getTime() + leaseMs).toISOString() })
        .where("id", "in", ids)
        .where("locked_by", "=", instance)
        .where("status", "=", "pending")
        .execute();
    },
    async release(ids) {
      await db
        .updateTable("webhook_deliveries")
        .set((eb) => ({ locked_by: null, locked_until: null, attempts: eb("attempts", "-", 1) }))
        .where("id", "in", ids)
        .where("locked_by", "=", instance)
        .execute();
    },
  };
}

type FrontDelivery = { id: number; run_at: string; locked_until: string | null; workspace_id: number };

/**
 * Which of the deliveries at the front of their webhooks' lines to claim, at most `limit`: the free
 * ones, each workspace's in the order they are due, as long as the workspace has fewer than
 * `perWorkspace` in flight with them; the least busy workspaces first. A delivery is held (in
 * flight) while its lease runs: claims go in the order deliveries are due, so those in flight are
 * at the front of their lines, and counting them there counts them all.
 */
function fairShare(fronts: FrontDelivery[], share: { at: string; perWorkspace: number; limit: number }): number[] {
  const byWorkspace = new Map<number, FrontDelivery[]>();
  for (const front of fronts) byWorkspace.set(front.workspace_id, [...(byWorkspace.get(front.workspace_id) ?? []), front]);
  const loads: { id: number; run_at: string; load: number }[] = [];
  const due = (a: FrontDelivery, b: FrontDelivery) => a.run_at.localeCompare(b.run_at) || a.id - b.id;
  for (const workspace of byWorkspace.values()) {
    const held = workspace.filter((front) => front.locked_until !== null && front.locked_until > share.at).length;
    const free = workspace.filter((front) => front.locked_until === null || front.locked_until <= share.at).sort(due);
    for (const [index, front] of free.entries()) {
      const load = held + index + 1;
      if (load <= share.perWorkspace) loads.push({ id: front.id, run_at: front.run_at, load });
    }
  }
  return loads
    .sort((a, b) => a.load - b.load || a.run_at.localeCompare(b.run_at) || a.id - b.id)
    .slice(0, share.limit)
    .map((front) => front.id);
}

/** Deletes finished deliveries (and their attempts) older than 30 days: one of the job runner's hourly clean-ups. */
export async function pruneWebhookDeliveries(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .deleteFrom("webhook_deliveries")
    .where("status", "!=", "pending")
    .where("finished_at", "<", new Date(now.getTime() - deliveryRetentionMs).toISOString())
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
