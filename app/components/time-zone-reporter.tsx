import { useEffect } from "react";

/** Once per page load at most, however often the root renders. */
let reported = false;

/**
 * Fills a signed-in person's time zone from their browser (DESIGN.md: "filled from the browser when
 * JavaScript runs"): given the zone they have, or null for none, it posts the browser's zone once to
 * /settings, which keeps a zone already set. A plain request rather than a fetcher: a fetcher's answer
 * reloads every loader of the page, which would cross a form the person is filling in; times follow
 * the zone from the next page on. Without JavaScript times stay in UTC until the person chooses a zone.
 */
export function TimeZoneReporter({ timeZone }: { timeZone: string | null }) {
  useEffect(() => {
    if (timeZone !== null || reported) return;
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!browserZone) return;
    reported = true;
    const body = new URLSearchParams({ intent: "time-zone", timeZone: browserZone });
    void fetch("/settings?index", { method: "POST", body, credentials: "same-origin" }).catch(() => undefined);
  }, [timeZone]);
  return null;
}
