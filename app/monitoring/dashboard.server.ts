import { type RawBuilder, sql } from "kysely";
import type { Database, DatabaseHandle, Dialect } from "~/db/database.server";
import { webVitalNames, type WebVitalName } from "./web-vital-thresholds";

/** What /admin/monitoring reads: grouped errors, one error by its digest, web vitals at p75. */

export type ErrorKind = "server_error" | "client_error";

/** The groups of one kind of error, the most recent first, and how many groups there are. */
export async function listErrorGroups(db: Database, kind: ErrorKind, limit: number) {
  const [groups, total] = await Promise.all([
    db
      .selectFrom("monitoring_events")
      .select(["digest", "route", "method", "message", "count", "first_seen", "last_seen"])
      .where("kind", "=", kind)
      .orderBy("last_seen", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute(),
    db
      .selectFrom("monitoring_events")
      .select((eb) => eb.fn.countAll<number>().as("groups"))
      .where("kind", "=", kind)
      .executeTakeFirstOrThrow(),
  ]);
  return { groups: groups.map((group) => ({ ...group, digest: group.digest ?? "" })), total: Number(total.groups) };
}

/** A digest as people type it: 8 hexadecimal characters, in any case, maybe with spaces around. */
export function normaliseDigest(input: string): string | null {
  const digest = input.trim().toUpperCase();
  return /^[0-9A-F]{8}$/.test(digest) ? digest : null;
}

/**
 * One error group by its digest, with the user who last met it. Server digests and client ones
 * are hashes of different things, so they do not collide in practice; a server error wins if so.
 */
export function findErrorGroup(db: Database, digest: string) {
  return db
    .selectFrom("monitoring_events as e")
    .leftJoin("users as u", "u.id", "e.user_id")
    .select([
      "e.kind",
      "e.digest",
      "e.route",
      "e.url",
      "e.method",
      "e.message",
      "e.stack",
      "e.user_agent",
      "e.request_id",
      "e.count",
      "e.first_seen",
      "e.last_seen",
      "u.name as user_name",
      "u.email as user_email",
    ])
    .where("e.kind", "in", ["server_error", "client_error"])
    .where("e.digest", "=", digest)
    .orderBy("e.kind", "desc")
    .executeTakeFirst();
}

export type ErrorGroupDetail = NonNullable<Awaited<ReturnType<typeof findErrorGroup>>>;

/** The UTC calendar day of a timestamp column, as YYYY-MM-DD on either database. */
function utcDay(dialect: Dialect, column: string): RawBuilder<string> {
  return dialect === "postgres"
    ? sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${sql.ref(column)}, 1, 10)`;
}

export type WebVitalPercentile = { bucket: string; name: WebVitalName; p75: number; samples: number };

/**
 * The 75th percentile of each vital since a time (web.dev's yardstick), by route or by UTC day, for
 * one route or all. Nearest rank: the value at position ⌈0.75·n⌉ of the sorted samples, computed by
 * the database with window functions on both SQLite and PostgreSQL.
 */
export async function webVitalPercentiles(
  { db, dialect }: DatabaseHandle,
  options: { since: Date; by: "route" | "day"; route?: string },
): Promise<WebVitalPercentile[]> {
  const samples = db
    .selectFrom("monitoring_events")
    .select([
      (options.by === "route" ? sql<string>`coalesce(route, '')` : utcDay(dialect, "last_seen")).as("bucket"),
      "name",
      "value",
    ])
    .where("kind", "=", "web_vital")
    .where("last_seen", ">=", options.since.toISOString())
    .$if(options.route !== undefined, (query) => query.where("route", "=", options.route!));
  const ranked = db
    .selectFrom(samples.as("s"))
    .select([
      "bucket",
      "name",
      "value",
      sql<number>`row_number() over (partition by bucket, name order by value)`.as("position"),
      sql<number>`count(*) over (partition by bucket, name)`.as("samples"),
    ]);
  const rows = await db
    .selectFrom(ranked.as("r"))
    .select(["bucket", "name", "value", "samples"])
    // ⌈3n/4⌉ in integer arithmetic, the same on both databases.
    .where(sql<boolean>`position = (3 * samples + 3) / 4`)
    .orderBy("bucket")
    .orderBy("name")
    .execute();
  return rows.flatMap((row) =>
    webVitalNames.includes(row.name as WebVitalName) && row.value !== null
      ? [{ bucket: row.bucket, name: row.name as WebVitalName, p75: Number(row.value), samples: Number(row.samples) }]
      : [],
  );
}

/** The routes that sent web vitals since a time, for the chart's route picker. */
export async function webVitalRoutes(db: Database, since: Date): Promise<string[]> {
  const rows = await db
    .selectFrom("monitoring_events")
    .select("route")
    .distinct()
    .where("kind", "=", "web_vital")
    .where("last_seen", ">=", since.toISOString())
    .where("route", "is not", null)
    .orderBy("route")
    .execute();
  return rows.map((row) => row.route!);
}
