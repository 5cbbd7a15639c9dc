/**
 * Migrations 0008 and 0009 on a database that already has data: failed sign-ins still in their
 * window keep counting in the new limits table; web vitals stored under a raw path are regrouped
 * under their route's pattern.
 */
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import { createTestDatabase, testDialects } from "../support/databases";
import { migrateBefore } from "../support/migrations";

describe.each(testDialects)("the limits and web-vital route migrations on %s", (dialect) => {
  it("carries failed sign-ins over and regroups raw web-vital paths under their patterns", async () => {
    const database = await createTestDatabase(dialect);
    const handle = database.open();
    try {
      const old = await migrateBefore(handle, dialect, "0008");
      const now = Date.now();
      const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
      await old
        .insertInto("sign_in_failures")
        .values([
          { key: "account:ada@example.com", failed_at: minutesAgo(5) },
          { key: "ip:192.0.2.1", failed_at: minutesAgo(5) },
          { key: "account:ada@example.com", failed_at: minutesAgo(20) },
        ])
        .execute();
      const vital = (route: string, url: string) => ({
        kind: "web_vital",
        route,
        url,
        name: "LCP",
        value: 1000,
        rating: "good",
        count: 1,
        first_seen: minutesAgo(1),
        last_seen: minutesAgo(1),
      });
      await old
        .insertInto("monitoring_events")
        .values([
          vital("/w/acme/p/FW/board", "/w/acme/p/FW/board"),
          vital("/w/:workspace/p/:key/board", "/w/beta/p/WEB/board"),
          vital("/w/acme/p/FW/issues/:id", "/w/acme/p/FW/issues/42"),
          vital("/w/acme/p/FW/issues/new", "/w/acme/p/FW/issues/new"),
          vital("/w/new", "/w/new"),
          vital("/no/such/route", "/no/such/route"),
        ])
        .execute();

      // Later migrations run after these two; what they do is tested on their own.
      expect((await migrateToLatest(handle)).slice(0, 2)).toEqual(["0008_rate_limit_hits", "0009_web_vital_routes"]);

      const hits = await handle.db.selectFrom("rate_limit_hits").select(["key", "expires_at"]).orderBy("key").execute();
      expect(hits.map((hit) => hit.key)).toEqual(["sign-in:account:ada@example.com", "sign-in:ip:192.0.2.1"]);
      // Each counts until 15 minutes after it failed.
      for (const hit of hits) expect(Math.abs(new Date(hit.expires_at).getTime() - (now + 10 * 60_000))).toBeLessThan(1000);

      const vitals = await handle.db.selectFrom("monitoring_events").select(["route", "url"]).where("kind", "=", "web_vital").orderBy("id").execute();
      expect(vitals.map((row) => row.route)).toEqual([
        "/w/:workspace/p/:key/board",
        "/w/:workspace/p/:key/board",
        "/w/:workspace/p/:key/issues/:number",
        "/w/:workspace/p/:key/issues/new",
        "/w/new",
        "/no/such/route",
      ]);
    } finally {
      await handle.db.destroy();
      await database.drop();
    }
  });
});
