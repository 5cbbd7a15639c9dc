import { sql } from "kysely";
import type { Database } from "~/db/database.server";

export type ServerErrorEvent = {
  digest: string;
  route: string;
  url: string;
  method: string;
  message: string;
  stack: string | null;
  userId: number | null;
  userAgent: string | null;
  requestId: string;
  at: Date;
};

/** Records an unexpected server error, grouped by digest: a repeat bumps `count` and `last_seen`. */
export async function recordServerError(db: Database, event: ServerErrorEvent): Promise<void> {
  const at = event.at.toISOString();
  const latest = {
    url: event.url,
    method: event.method,
    message: event.message,
    stack: event.stack,
    user_id: event.userId,
    user_agent: event.userAgent,
    request_id: event.requestId,
    last_seen: at,
  };
  await db
    .insertInto("monitoring_events")
    .values({ kind: "server_error", digest: event.digest, route: event.route, count: 1, first_seen: at, ...latest })
    .onConflict((oc) =>
      oc.columns(["kind", "digest"]).doUpdateSet({ ...latest, count: sql`monitoring_events.count + 1` }),
    )
    .execute();
}

export function findServerError(db: Database, digest: string) {
  return db
    .selectFrom("monitoring_events")
    .selectAll()
    .where("kind", "=", "server_error")
    .where("digest", "=", digest)
    .executeTakeFirst();
}
