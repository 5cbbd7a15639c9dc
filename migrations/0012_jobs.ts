import { type Kysely, sql } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

/**
 * The outbox: work to do after a change commits (a mail to send, later a webhook to call), written
 * in the change's own transaction, so that a committed change never loses its work and a rolled-back
 * one never does any (app/jobs/, decision record 017). Any instance claims due jobs by taking a
 * lease (`locked_until`); a job whose claimer died is claimed again when its lease ends.
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);
  await t
    .withId(db.schema.createTable("jobs"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("run_at", t.timestamp, (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_by", "text")
    .addColumn("locked_until", t.timestamp)
    .addColumn("last_error", "text")
    .addColumn("done_at", t.timestamp)
    .addColumn("failed_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  // What the runner asks for: jobs still to do, by when they are due. Done and failed ones leave it.
  await db.schema
    .createIndex("jobs_due")
    .on("jobs")
    .columns(["run_at", "id"])
    .where(sql.ref("done_at"), "is", null)
    .where(sql.ref("failed_at"), "is", null)
    .execute();
  // Pruning finished jobs.
  await db.schema.createIndex("jobs_done_at").on("jobs").column("done_at").where(sql.ref("done_at"), "is not", null).execute();
}
