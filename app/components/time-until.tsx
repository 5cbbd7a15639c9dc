import { exactTime } from "~/time/relative-time";
import { timeUntil } from "~/time/time-until";
import { useClock } from "./time";

/** A moment to come (an invitation's or an API token's expiry), relative to now, with the exact time on hover. */
export function TimeUntil({ at, className }: { at: string; className?: string }) {
  const { now, timeZone } = useClock();
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={exactTime(date, timeZone)} className={className}>
      {timeUntil(date, now, timeZone)}
    </time>
  );
}
