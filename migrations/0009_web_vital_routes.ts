import type { Kysely } from "kysely";
import { matchRoutes } from "react-router";
import type { Dialect } from "~/db/database.server";

/**
 * The app's route patterns when this migration was written. Web vitals reported before the routes
 * were checked on the server could carry a raw path (`/w/acme/p/FW/board`); those paths are mapped
 * to their patterns here, as the server now maps what browsers send. A migration keeps its own copy:
 * later routes do not change what it did.
 */
const patterns = [
  "/",
  "/signup",
  "/login",
  "/logout",
  "/invitations/:token",
  "/settings",
  "/settings/password",
  "/settings/sessions",
  "/w/new",
  "/w/:workspace",
  "/w/:workspace/search",
  "/w/:workspace/projects/new",
  "/w/:workspace/p/:key",
  "/w/:workspace/p/:key/issues",
  "/w/:workspace/p/:key/issues/:number",
  "/w/:workspace/p/:key/issues/new",
  "/w/:workspace/p/:key/issues.csv",
  "/w/:workspace/p/:key/board",
  "/w/:workspace/p/:key/settings",
  "/w/:workspace/settings",
  "/w/:workspace/settings/members",
  "/w/:workspace/settings/labels",
  "/admin",
  "/admin/monitoring",
  "/admin/monitoring/:digest",
  "/healthz",
  "/readyz",
  "/monitoring",
];

export async function up(db: Kysely<any>, _dialect: Dialect) {
  // Each route keeps a number of samples a UTC day (app/monitoring/browser-events.server.ts): counted here.
  await db.schema
    .createIndex("monitoring_events_kind_route_last_seen")
    .on("monitoring_events")
    .columns(["kind", "route", "last_seen"])
    .execute();

  const routes = await db.selectFrom("monitoring_events").select("route").distinct().where("kind", "=", "web_vital").execute();
  for (const { route } of routes as { route: string | null }[]) {
    if (route === null) continue;
    // A path no route of the time matched stays as it was (it ages out with the 90-day retention).
    const pattern = matchRoutes(
      patterns.map((path) => ({ path })),
      route,
    )?.[0]?.route.path;
    if (pattern === undefined || pattern === route) continue;
    await db.updateTable("monitoring_events").set({ route: pattern }).where("kind", "=", "web_vital").where("route", "=", route).execute();
  }
}
