import { isRouteErrorResponse, matchRoutes, type RouteObject } from "react-router";
import type { Metric } from "web-vitals";
import { storableText } from "~/forms/text-characters";

/**
 * Browser reporting (docs/product.md, Monitoring), loaded after the page by reporting-starter.client.ts: uncaught errors, unhandled rejections, error boundaries that
 * rendered, and Core Web Vitals (LCP, INP, CLS, FCP, TTFB) go to `POST /monitoring` with
 * navigator.sendBeacon — batched in memory and sent when the page is hidden, so reporting never
 * holds up rendering or navigation. Only with JavaScript: nothing here runs in a browser without it.
 *
 * Every event is tagged with a route pattern (`/w/:workspace/p/:key/issues/:number`) and the URL's
 * path, never its query string. The pattern is worked out when the beacon is sent, from the router's
 * routes: web-vitals may report before the router exists. (The server maps what it receives to the
 * app's patterns anyway, so a path sent without a router still groups right.) Each event is cut to what app/monitoring/browser-events.server.ts
 * accepts, since one invalid event makes the server refuse the whole beacon.
 */

type ClientErrorEvent = { kind: "client_error"; message: string; stack?: string; route: string; url: string };
type WebVitalEvent = {
  kind: "web_vital";
  name: Metric["name"];
  value: number;
  rating: Metric["rating"];
  route: string;
  url: string;
};
type BrowserEvent = ClientErrorEvent | WebVitalEvent;

const endpoint = "/monitoring";
/** A User Timing mark set once web-vitals listens (tests/e2e/monitoring-helpers.ts waits for it). */
const reportingReadyMark = "cairn:reporting-ready";
/** At most this many events leave one page, however long it stays open. */
const maxEventsPerPage = 50;
/** The server takes 64 KiB a beacon: a batch is split well before that. */
const maxBeaconBytes = 48 * 1024;
const maxLength = { message: 1000, stack: 4000, route: 200, url: 2000 } as const;

let started = false;
let landingPath = "/";
let queue: BrowserEvent[] = [];
let eventsTaken = 0;
let flushScheduled = false;
/** While the page is being hidden: what is reported now goes in the beacon sent at its end. */
let hiding = false;
const reportedErrors = new WeakSet<object>();
/** Web-vitals ids already sent: CLS and INP report again after each hide, but count once per page. */
const sentMetricIds = new Set<string>();
const pendingMetrics = new Map<string, WebVitalEvent>();

/**
 * Starts listening; called once the page has loaded, by app/monitoring/reporting-starter.client.ts,
 * which caught what happened before and passes it on.
 */
export function startReporting(pathOnLoad: string): void {
  if (started) return;
  started = true;
  landingPath = pathOnLoad.replace(/^\/+/, "/") || "/";
  addEventListener("error", reportUncaughtError);
  addEventListener("unhandledrejection", reportUnhandledRejection);
  // Hiding the page makes web-vitals report (in its own listeners, capturing on window): the
  // beacon goes once they all have, from the document, so that one beacon carries everything.
  addEventListener(
    "visibilitychange",
    () => {
      if (document.visibilityState !== "hidden") return;
      hiding = true;
      // Should the event not reach the document, the page is still alive to send it a moment later.
      setTimeout(flush);
    },
    { capture: true },
  );
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") flush();
  });
  // Safari does not always say the page is hidden when it is unloaded.
  addEventListener("pagehide", flush);
  // Back from the back/forward cache, web-vitals measures the restore: of the page as it is now.
  addEventListener("pageshow", (event) => {
    if (event.persisted) landingPath = currentPath();
  });
  // web-vitals loads as a chunk of its own, after the page: it reads buffered performance entries.
  import("web-vitals")
    .then(({ onCLS, onFCP, onINP, onLCP, onTTFB }) => {
      for (const on of [onLCP, onINP, onCLS, onFCP, onTTFB]) on(onMetric);
      // From here on web vitals are measured: shown in DevTools' performance panel, and what the
      // browser tests wait for (web-vitals ends LCP at the first trusted click or key press after this).
      performance.mark(reportingReadyMark);
    })
    .catch(() => {});
}

/**
 * Reports an error that an error boundary rendered. `route` is the route's pattern or a URL path
 * (mapped to its pattern). Route error responses are the server's own answers (404, 403, a 500 it
 * recorded with a digest), not browser errors, and are left out.
 */
export function reportBoundaryError(error: unknown, route: string): void {
  safely(() => {
    if (isRouteErrorResponse(error)) return;
    // A server render error reaches the page as React Router's sanitised copy: the server has it.
    if (error instanceof Error && error.message === "Unexpected Server Error" && !error.stack) return;
    reportError(error, route);
  });
}

export function reportUncaughtError(event: ErrorEvent): void {
  safely(() => reportError(event.error ?? event.message, currentPath()));
}

export function reportUnhandledRejection(event: PromiseRejectionEvent): void {
  safely(() => reportError(event.reason, currentPath(), "Unhandled rejection: "));
}

function reportError(error: unknown, route: string, prefix = ""): void {
  if (typeof error === "object" && error !== null) {
    if (reportedErrors.has(error)) return;
    reportedErrors.add(error);
  }
  const isError = error instanceof Error;
  const what = isError ? `${error.name}: ${error.message}` : describe(error);
  enqueue({
    kind: "client_error",
    message: storableText(`${prefix}${what}`, "multiple", maxLength.message) || "Unknown error",
    ...(isError && error.stack ? { stack: storableText(error.stack, "multiple", maxLength.stack) } : {}),
    route,
    url: storableText(currentPath(), "single", maxLength.url),
  });
}

function onMetric(metric: Metric): void {
  safely(() => {
    if (sentMetricIds.has(metric.id)) return;
    const valid =
      Number.isFinite(metric.value) && metric.value >= 0 && metric.value <= (metric.name === "CLS" ? 100 : 600_000);
    if (!valid) return;
    const event: WebVitalEvent = {
      kind: "web_vital",
      name: metric.name,
      value: metric.value,
      rating: metric.rating,
      // Measured over the page load, as CrUX does: tagged with the route the page loaded on.
      route: landingPath,
      url: storableText(landingPath, "single", maxLength.url),
    };
    // A newer value of the same metric replaces one not yet sent.
    if (pendingMetrics.has(metric.id)) {
      const at = queue.indexOf(pendingMetrics.get(metric.id)!);
      if (at >= 0) queue[at] = event;
      pendingMetrics.set(metric.id, event);
      return;
    }
    if (enqueue(event)) pendingMetrics.set(metric.id, event);
  });
}

function enqueue(event: BrowserEvent): boolean {
  if (eventsTaken >= maxEventsPerPage) return false;
  eventsTaken++;
  queue.push(event);
  // Reported once the page is hidden (a late metric, an error on the way out): sent right after.
  if (document.visibilityState === "hidden" && !hiding && !flushScheduled) {
    flushScheduled = true;
    queueMicrotask(flush);
  }
  return true;
}

/** Sends what is queued, in beacons of at most `maxBeaconBytes`. */
function flush(): void {
  flushScheduled = false;
  hiding = false;
  if (queue.length === 0) return;
  // Until now `route` held a path (or a pattern): now the router surely exists to name its pattern.
  const events = queue.map((event) => ({ ...event, route: storableText(routePattern(event.route), "single", maxLength.route) || "/" }));
  queue = [];
  for (const [id] of pendingMetrics) sentMetricIds.add(id);
  pendingMetrics.clear();
  safely(() => {
    let batch: BrowserEvent[] = [];
    for (const event of events) {
      if (batch.length > 0 && byteLength({ events: [...batch, event] }) > maxBeaconBytes) {
        send(batch);
        batch = [];
      }
      batch.push(event);
    }
    send(batch);
  });
}

function send(events: BrowserEvent[]): void {
  const json = JSON.stringify({ events });
  try {
    navigator.sendBeacon(endpoint, new Blob([json], { type: "application/json" }));
  } catch {
    // A browser that will not beacon a JSON Blob sends the string, as text/plain.
    safely(() => navigator.sendBeacon(endpoint, json));
  }
}

/**
 * The pattern of the route that matches `path` (`/w/:workspace/p/:key`), from the router's own
 * routes; the path itself when there is no router or no match (the server maps it).
 */
function routePattern(path: string): string {
  const router = (window as { __reactRouterDataRouter?: { routes: RouteObject[] } }).__reactRouterDataRouter;
  const matches = router ? matchRoutes(router.routes, path) : null;
  if (!matches || matches.length === 0) return path;
  const segments = matches.map((match) => match.route.path?.replace(/^\/+|\/+$/g, "")).filter(Boolean);
  return `/${segments.join("/")}`;
}

/** The page's path: never its query string or fragment, and never `//…` (which is another host). */
function currentPath(): string {
  return location.pathname.replace(/^\/+/, "/") || "/";
}

function describe(value: unknown): string {
  try {
    return typeof value === "string" ? value : `${typeof value}: ${String(value)}`;
  } catch {
    return typeof value;
  }
}

/** At most `max` characters, without the control characters the server refuses (tabs and line breaks stay). */
function byteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength;
}

/** Reporting must never become an error of its own. */
function safely(run: () => void): void {
  try {
    run();
  } catch {
    // nothing to do: the page goes on
  }
}
