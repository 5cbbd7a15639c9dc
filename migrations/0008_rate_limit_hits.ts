import type { Kysely } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

const signInWindowMs = 15 * 60 * 1000;

export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);

  // Every sliding-window limit in one table (app/security/sliding-window.ts): sign-in attempts,
  // sign-ups and monitoring beacons, by key. A hit counts until it expires; the limits differ in
  // their windows, so each row carries its own end and expired rows are purged whatever their key.
  await t
    .withId(db.schema.createTable("rate_limit_hits"))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_hits_key_expires_at").on("rate_limit_hits").columns(["key", "expires_at"]).execute();
  await db.schema.createIndex("rate_limit_hits_expires_at").on("rate_limit_hits").column("expires_at").execute();

  // Failed sign-ins still in their window keep counting. (A minute of beacon hits is not worth it.)
  const since = new Date(Date.now() - signInWindowMs).toISOString();
  const failures = await db.selectFrom("sign_in_failures").select(["key", "failed_at"]).where("failed_at", ">", since).execute();
  for (let start = 0; start < failures.length; start += 500) {
    await db
      .insertInto("rate_limit_hits")
      .values(
        failures.slice(start, start + 500).map((row: { key: string; failed_at: string }) => ({
          key: `sign-in:${row.key}`,
          expires_at: new Date(new Date(row.failed_at).getTime() + signInWindowMs).toISOString(),
        })),
      )
      .execute();
  }
  // sign_in_failures and beacon_hits stay for now: instances of the previous version use them until
  // a rolling deploy has replaced them all. A later migration drops them.
}
