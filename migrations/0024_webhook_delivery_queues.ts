import { type Kysely, sql } from "kysely";

/**
 * Each webhook's pending deliveries in the order they are due (decision record 025): the job
 * runner's claim finds the first few of every webhook by seeking here, so that its cost follows
 * the number of webhooks rather than how many deliveries wait behind a receiver that hangs.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createIndex("webhook_deliveries_pending_queue")
    .on("webhook_deliveries")
    .columns(["webhook_id", "run_at", "id"])
    .where(sql.ref("status"), "=", "pending")
    .execute();
}
