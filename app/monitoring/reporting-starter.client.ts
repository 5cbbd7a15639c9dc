/**
 * What of browser reporting (docs/product.md, Monitoring) is in every page's first load: this small
 * module catches errors from the very start (hydration included) and, once the page has loaded,
 * brings in the reporter itself (app/monitoring/reporting.client.ts, with web-vitals) as a chunk of
 * its own and hands it what happened until then. Issue 13: nothing of reporting weighs on the
 * JavaScript a page needs before it is interactive.
 */
type Reporter = typeof import("./reporting.client");

let reporter: Reporter | undefined;
/** What happened before the reporter arrived, replayed to it in order. */
let waiting: ((reporter: Reporter) => void)[] = [];

function whenLoaded(call: (reporter: Reporter) => void): void {
  if (reporter) call(reporter);
  else if (waiting.length < 50) waiting.push(call);
}

const onError = (event: ErrorEvent) => whenLoaded((loaded) => loaded.reportUncaughtError(event));
const onRejection = (event: PromiseRejectionEvent) => whenLoaded((loaded) => loaded.reportUnhandledRejection(event));

/** Called once from app/entry.client.tsx, before hydration. */
export function startReporting(): void {
  if (typeof navigator.sendBeacon !== "function") return;
  // Web vitals are measured over the page load: tagged with the path the page loaded on.
  const landingPath = location.pathname;
  addEventListener("error", onError);
  addEventListener("unhandledrejection", onRejection);
  const load = () => {
    import("./reporting.client")
      .then((loaded) => {
        removeEventListener("error", onError);
        removeEventListener("unhandledrejection", onRejection);
        loaded.startReporting(landingPath);
        reporter = loaded;
        for (const call of waiting) call(loaded);
        waiting = [];
      })
      .catch(() => {});
  };
  if (document.readyState === "complete") setTimeout(load);
  else addEventListener("load", () => setTimeout(load), { once: true });
}

/** Reports an error that an error boundary rendered (see reporting.client.ts). */
export function reportBoundaryError(error: unknown, route: string): void {
  whenLoaded((loaded) => loaded.reportBoundaryError(error, route));
}
