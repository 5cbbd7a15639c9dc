import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";

/**
 * Fills a signed-in person's time zone from their browser (DESIGN.md: "filled from the browser when
 * JavaScript runs"): given the zone they have, or null for none, it posts the browser's zone once to
 * /settings, which keeps a zone already set. It renders nothing; without JavaScript times stay in
 * UTC until the person chooses a zone in their settings.
 */
export function TimeZoneReporter({ timeZone }: { timeZone: string | null }) {
  const fetcher = useFetcher({ key: "time-zone-reporter" });
  const reported = useRef(false);
  useEffect(() => {
    if (timeZone !== null || reported.current) return;
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!browserZone) return;
    reported.current = true;
    void fetcher.submit({ intent: "time-zone", timeZone: browserZone }, { method: "post", action: "/settings?index" });
  }, [timeZone, fetcher]);
  return null;
}
