import { sql } from "kysely";
import { z } from "zod";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { errorDigest } from "~/errors/digest.server";
import { textProblem } from "~/forms/fields.server";
import { secondsUntilOutOfWindow, windowStart } from "~/security/sliding-window";
import { webVitalNames, webVitalRatings } from "./web-vital-thresholds";

/**
 * What the browser reports to `POST /monitoring` (SPEC §7): uncaught errors, unhandled rejections,
 * error boundaries that rendered, and Core Web Vitals. app/monitoring/reporting.client.ts sends them.
 */

/** SPEC §9: a beacon is at most 64 KiB, and a client sends at most 60 a minute. */
export const beaconLimits = { maxBytes: 64 * 1024, maxEvents: 50, perWindow: 60, windowMs: 60 * 1000 } as const;


/** A route is a one-line label; messages and stacks are multi-line text (fields.server.ts says what neither may hold). */
const oneLine = (value: string) => textProblem(value, "single") === undefined;
const text = (value: string) => textProblem(value, "multiple") === undefined;
/** A path on this site: `/…`, never `//host` or `/\host`, no spaces or control characters. */
const sitePath = /^\/(?![/\\])[^\s\u0000-\u001f\u007f]*$/;

const route = z.string().min(1).max(200).refine(oneLine);
const url = z.string().min(1).max(2000).regex(sitePath).refine(oneLine);

const clientErrorEvent = z.strictObject({
  kind: z.literal("client_error"),
  message: z.string().min(1).max(1000).refine(text),
  stack: z.string().max(8000).refine(text).optional(),
  route,
  url,
});

const webVitalEvent = z
  .strictObject({
    kind: z.literal("web_vital"),
    name: z.enum(webVitalNames),
    // z.number() refuses NaN and ±Infinity; CLS is a unitless score, the others milliseconds.
    value: z.number().min(0).max(600_000),
    rating: z.enum(webVitalRatings),
    route,
    url,
  })
  .refine((event) => event.name !== "CLS" || event.value <= 100, { path: ["value"], message: "CLS is at most 100" });

export const beaconSchema = z.strictObject({
  events: z.array(z.discriminatedUnion("kind", [clientErrorEvent, webVitalEvent])).min(1).max(beaconLimits.maxEvents),
});

export type Beacon = z.infer<typeof beaconSchema>;
export type BrowserEvent = Beacon["events"][number];
export type ClientErrorEvent = Extract<BrowserEvent, { kind: "client_error" }>;
export type WebVitalEvent = Extract<BrowserEvent, { kind: "web_vital" }>;

/** Who sent a beacon, and when. */
export type BeaconSender = { userId: number | null; userAgent: string | null; requestId: string | null; at: Date };

/** Only the path is kept: a query string or fragment may carry what the operator should not see. */
export const pathOnly = (url: string) => url.replace(/[?#].*$/s, "") || "/";

/** Client errors group by message and route, as server errors group by digest. */
export function clientErrorDigest(event: Pick<ClientErrorEvent, "message" | "route">): string {
  return errorDigest(event.message, `client ${event.route}`);
}

/**
 * Records a client error, grouped by a digest of its message and route: a repeat bumps `count` and
 * `last_seen` and keeps the latest URL, stack, user and user agent. `times` counts repeats that
 * came in the same beacon.
 */
export async function recordClientError(
  db: Database,
  event: Omit<ClientErrorEvent, "kind">,
  sender: BeaconSender,
  times = 1,
): Promise<void> {
  const at = sender.at.toISOString();
  const latest = {
    url: pathOnly(event.url),
    message: event.message,
    stack: event.stack ?? null,
    user_id: sender.userId,
    user_agent: sender.userAgent,
    request_id: sender.requestId,
    last_seen: at,
  };
  await db
    .insertInto("monitoring_events")
    .values({
      kind: "client_error",
      digest: clientErrorDigest(event),
      route: event.route,
      method: null,
      count: times,
      first_seen: at,
      ...latest,
    })
    .onConflict((oc) =>
      oc.columns(["kind", "digest"]).doUpdateSet({ ...latest, count: sql`monitoring_events.count + ${times}` }),
    )
    .execute();
}

/** Web vitals are not grouped: one row each, to be summarised by route (p75 and the like). */
export async function recordWebVitals(db: Database, events: Omit<WebVitalEvent, "kind">[], sender: BeaconSender) {
  if (events.length === 0) return;
  const at = sender.at.toISOString();
  await db
    .insertInto("monitoring_events")
    .values(
      events.map((event) => ({
        kind: "web_vital" as const,
        digest: null,
        route: event.route,
        url: pathOnly(event.url),
        name: event.name,
        value: event.value,
        rating: event.rating,
        user_id: sender.userId,
        user_agent: sender.userAgent,
        request_id: sender.requestId,
        count: 1,
        first_seen: at,
        last_seen: at,
      })),
    )
    .execute();
}

/** Records a whole beacon at once: either all of its events are stored, or none. */
export async function recordBeacon(db: Database, beacon: Beacon, sender: BeaconSender): Promise<void> {
  const errors = new Map<string, { event: ClientErrorEvent; times: number }>();
  const vitals: WebVitalEvent[] = [];
  for (const event of beacon.events) {
    if (event.kind === "web_vital") {
      vitals.push(event);
      continue;
    }
    // One upsert per digest: PostgreSQL will not update the same row twice in one statement anyway.
    const digest = clientErrorDigest(event);
    const seen = errors.get(digest);
    if (seen) {
      seen.event = event;
      seen.times++;
    } else errors.set(digest, { event, times: 1 });
  }
  await db.transaction().execute(async (trx) => {
    for (const { event, times } of errors.values()) await recordClientError(trx, event, sender, times);
    await recordWebVitals(trx, vitals, sender);
  });
  // Now and then, vitals older than the retention go: a row per vital per page load adds up.
  if (vitals.length > 0 && Math.random() < 1 / 100) await purgeOldWebVitals(db, sender.at);
}

/** Web vitals are kept this long; /admin/monitoring shows the last 30 days. */
export const webVitalRetentionDays = 90;

/** Deletes the web vitals older than the retention; grouped errors stay (they are one row each). */
export async function purgeOldWebVitals(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - webVitalRetentionDays * 86_400_000).toISOString();
  const result = await db.deleteFrom("monitoring_events").where("kind", "=", "web_vital").where("last_seen", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Takes one of the client's 60 beacons a minute: a sliding window, counted in the database so that
 * it holds across instances. Returns null when the beacon may go on, or the seconds until the client
 * may send another. A refused beacon does not count.
 */
export async function takeBeaconSlot({ db, dialect }: DatabaseHandle, client: string, now: Date): Promise<number | null> {
  const since = windowStart(now, beaconLimits.windowMs);
  const wait = await db
    .transaction()
    .execute(async (trx) => {
      // One client's beacons take their turns, on every instance: PostgreSQL by a lock on the
      // client; SQLite by its single writer (our transactions begin immediate).
      if (dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext(${`beacon:${client}`}))`.execute(trx);
      await trx.deleteFrom("beacon_hits").where("client", "=", client).where("at", "<=", since).execute();
      // The oldest of the client's latest 60 beacons: while it is in the window, the client waits.
      const sixtieth = await trx
        .selectFrom("beacon_hits")
        .select("at")
        .where("client", "=", client)
        .where("at", ">", since)
        .orderBy("at", "desc")
        .limit(1)
        .offset(beaconLimits.perWindow - 1)
        .executeTakeFirst();
      if (sixtieth) return secondsUntilOutOfWindow(sixtieth.at, beaconLimits.windowMs, now);
      await trx.insertInto("beacon_hits").values({ client, at: now.toISOString() }).execute();
      return null;
    });
  // Now and then, the hits of clients that have not come back go too (outside the transaction,
  // so that concurrent purges never hold one client's lock).
  if (Math.random() < 1 / 50) {
    await db.deleteFrom("beacon_hits").where("at", "<=", since).execute().catch(() => {});
  }
  return wait;
}
