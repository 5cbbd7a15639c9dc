import { matchRoutes, type ServerBuild } from "react-router";
import type { Beacon } from "./browser-events.server";

/**
 * Browser reports are grouped by route pattern (`/w/:workspace/p/:key/board`), never by URL. The
 * server does not take the browser's word for it: what it reports is matched against the app's own
 * routes, so a raw path becomes its pattern, a pattern stays itself, and anything else becomes the
 * not-found route's `/*`. Only the app's routes can appear in monitoring, however many a client invents.
 */

/** Every route's full pattern (`/w/:workspace/p/:key`), from the server build's route manifest. */
export function routePatternsOf(routes: ServerBuild["routes"]): string[] {
  const fullPath = (id: string): string => {
    const route = routes[id]!;
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return route.path ? `${parent.replace(/\/$/, "")}/${route.path}` : parent || "/";
  };
  return [...new Set(Object.keys(routes).map(fullPath))];
}

/** The pattern of the route that matches a path or pattern, as React Router ranks them; null if none does. */
export function routePatternFor(pathOrPattern: string, patterns: readonly string[]): string | null {
  const matches = matchRoutes(
    patterns.map((path) => ({ path })),
    pathOrPattern,
  );
  return matches?.[0]?.route.path ?? null;
}

/** The beacon with each event's route replaced by its pattern, or null when one matches no route. */
export function withRoutePatterns(beacon: Beacon, patterns: readonly string[]): Beacon | null {
  const events: Beacon["events"] = [];
  for (const event of beacon.events) {
    const route = routePatternFor(event.route, patterns);
    if (route === null) return null;
    events.push({ ...event, route });
  }
  return { events };
}

let appPatterns: Promise<string[]> | undefined;

/** The patterns of this app's routes, read once from the server build. */
export function appRoutePatterns(): Promise<string[]> {
  // Imported when first needed: the build imports this module's importers, so not at start-up.
  appPatterns ??= import("virtual:react-router/server-build").then((build) => routePatternsOf(build.routes));
  return appPatterns;
}
