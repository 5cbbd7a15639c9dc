import { useRouteLoaderData } from "react-router";
import { calendarDate, dayInZone, exactTime, relativeTime } from "~/time/relative-time";

type Clock = { now: string; timeZone: string };

/** The server's clock of this page and the person's time zone (root loader), so that both renders agree. */
export function useClock(): { now: Date; timeZone: string } {
  const clock = useRouteLoaderData<{ clock: Clock }>("root")?.clock;
  return { now: clock ? new Date(clock.now) : new Date(), timeZone: clock?.timeZone ?? "UTC" };
}

/** A moment, relative to now, with the exact time in the person's time zone on hover. */
export function RelativeTime({ at, style = "long", className }: { at: string; style?: "long" | "short"; className?: string }) {
  const { now, timeZone } = useClock();
  const date = new Date(at);
  const exact = exactTime(date, timeZone);
  return (
    <time dateTime={date.toISOString()} title={exact} className={className}>
      {relativeTime(date, now, timeZone, style)}
      {style === "short" ? <span className="sr-only"> ({exact})</span> : null}
    </time>
  );
}

/** A due date ("Mar 3"), muted, and red once it has passed in the person's time zone (unless the issue is closed). */
export function DueDate({ date, closed = false, className = "" }: { date: string; closed?: boolean; className?: string }) {
  const { now, timeZone } = useClock();
  const today = dayInZone(now, timeZone);
  const overdue = !closed && date < today;
  return (
    <time
      dateTime={date}
      title={overdue ? `Overdue: due ${date}` : `Due ${date}`}
      className={`${overdue ? "due-over" : "due"}${className ? ` ${className}` : ""}`}
    >
      {calendarDate(date, today)}
      {overdue ? <span className="sr-only"> (overdue)</span> : null}
    </time>
  );
}
