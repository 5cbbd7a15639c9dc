import { sql } from "kysely";
import { z } from "zod";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { lockKeys } from "~/db/key-locks.server";
import { errorDigest } from "~/errors/digest.server";
import { textProblem } from "~/forms/fields.server";
import { takeSlot } from "~/security/sliding-window.server";
import { webVitalNames, webVitalRatings } from "./web-vital-thresholds";

/**
 * What the browser reports to `POST /monitoring` (docs/product.md, Monitoring): uncaught errors, unhandled rejections,
 * error boundaries that rendered, and Core Web Vitals. app/monitoring/reporting.client.ts sends them.
 */

/** docs/product.md, Limits: a beacon is at most 64 KiB, and a client sends at most 60 a minute. */
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

/**
 * What unauthenticated clients could otherwise grow without bound: client-error groups
 * are capped, the least recently seen pruned as new ones come; each route keeps at most so many
 * web-vital samples a UTC day (its first), which with the 90-day retention bounds them too.
 */
export const browserEventCaps = { clientErrorGroups: 1000, webVitalsPerRouteAndDay: 1000 } as const;

/**
 * Records a beacon in one transaction, within the caps, and returns what it stored: its client
 * errors, and the web vitals of each route that had room for all of them that day.
 */
export async function recordBeacon({ db, dialect }: DatabaseHandle, beacon: Beacon, sender: BeaconSender): Promise<BrowserEvent[]> {
  const errorsByDigest = new Map<string, ClientErrorEvent[]>();
  const vitalsByRoute = new Map<string, WebVitalEvent[]>();
  for (const event of beacon.events) {
    if (event.kind === "web_vital") {
      vitalsByRoute.set(event.route, [...(vitalsByRoute.get(event.route) ?? []), event]);
      continue;
    }
    // One upsert per digest: PostgreSQL will not update the same row twice in one statement anyway.
    const digest = clientErrorDigest(event);
    errorsByDigest.set(digest, [...(errorsByDigest.get(digest) ?? []), event]);
  }
  const day = sender.at.toISOString().slice(0, 10);
  const stored = await db.transaction().execute(async (trx) => {
    // Beacons that count the same things take turns, so that the caps hold exactly on every instance.
    await lockKeys(trx, dialect, [
      ...(errorsByDigest.size > 0 ? ["client-error-groups"] : []),
      ...[...vitalsByRoute.keys()].map((route) => `web-vitals:${route}:${day}`),
    ]);
    for (const errors of errorsByDigest.values()) await recordClientError(trx, errors.at(-1)!, sender, errors.length);
    if (errorsByDigest.size > 0) await pruneClientErrorGroups(trx, browserEventCaps.clientErrorGroups);
    const storedVitals: WebVitalEvent[] = [];
    for (const [route, vitals] of vitalsByRoute) {
      const samples = await webVitalSamplesOn(trx, route, day, browserEventCaps.webVitalsPerRouteAndDay);
      if (samples + vitals.length <= browserEventCaps.webVitalsPerRouteAndDay) storedVitals.push(...vitals);
    }
    await recordWebVitals(trx, storedVitals, sender);
    return [...[...errorsByDigest.values()].flat(), ...storedVitals];
  });
  // Now and then, vitals older than the retention go: a row per vital per page load adds up.
  if (vitalsByRoute.size > 0 && Math.random() < 1 / 100) await purgeOldWebVitals(db, sender.at);
  return stored;
}

/** Keeps the `keep` most recently seen client-error groups and deletes the others. */
export async function pruneClientErrorGroups(db: Database, keep: number): Promise<void> {
  const lastKept = await db
    .selectFrom("monitoring_events")
    .select(["last_seen", "id"])
    .where("kind", "=", "client_error")
    .orderBy("last_seen", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .offset(keep - 1)
    .executeTakeFirst();
  if (!lastKept) return;
  await db
    .deleteFrom("monitoring_events")
    .where("kind", "=", "client_error")
    .where((eb) =>
      eb.or([eb("last_seen", "<", lastKept.last_seen), eb.and([eb("last_seen", "=", lastKept.last_seen), eb("id", "<", lastKept.id)])]),
    )
    .execute();
}

/** How many web-vital samples a route has on a UTC day (YYYY-MM-DD), counting no further than `upTo`. */
async function webVitalSamplesOn(db: Database, route: string, day: string, upTo: number): Promise<number> {
  const from = `${day}T00:00:00.000Z`;
  const to = new Date(Date.parse(from) + 86_400_000).toISOString();
  const samples = db
    .selectFrom("monitoring_events")
    .select("id")
    .where("kind", "=", "web_vital")
    .where("route", "=", route)
    .where("last_seen", ">=", from)
    .where("last_seen", "<", to)
    .limit(upTo);
  const { n } = await db
    .selectFrom(samples.as("s"))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
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
export async function takeBeaconSlot(handle: DatabaseHandle, client: string, now: Date): Promise<number | null> {
  const slot = await takeSlot(handle, [`beacon:${client}`], { uses: beaconLimits.perWindow, windowMs: beaconLimits.windowMs }, now);
  return slot.taken ? null : slot.retryAfter;
}
