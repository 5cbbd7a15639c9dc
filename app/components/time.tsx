import { useRouteLoaderData } from "react-router";
import { calendarDate, dayInZone, exactTime, relativeTime } from "~/time/relative-time";

type Clock = { now: string; timeZone: string };

/** The server's clock of this page and the person's time zone (root loader), so that both renders agree. */
export function useClock(): { now: Date; timeZone: string } {
  const clock = useRouteLoaderData<{ clock: Clock }>("root")?.clock;
  return { now: clock ? new Date(clock.now) : new Date(), timeZone: clock?.timeZone ?? "UTC" };
}

/**
 * A moment, relative to now, with the exact time in the person's time zone on hover. The short
 * style (a list row's "3h") says the exact time to screen readers in a visually hidden span, which
 * CSS shows as the tooltip (app/styles/list.css): the time is written once per row, not twice.
 */
export function RelativeTime({ at, style = "long", className }: { at: string; style?: "long" | "short"; className?: string }) {
  const { now, timeZone } = useClock();
  const date = new Date(at);
  const exact = exactTime(date, timeZone);
  // To the second: the milliseconds say nothing to a reader, and are 4 bytes a row.
  const dateTime = date.toISOString().replace(/\.\d{3}Z$/, "Z");
  return style === "short" ? (
    <time dateTime={dateTime} className={className}>
      {relativeTime(date, now, timeZone, style)}
      {/* One string: React would mark each of its parts with a comment in the HTML. */}
      <span className="sr-only">{` ${exact}`}</span>
    </time>
  ) : (
    <time dateTime={dateTime} title={exact} className={className}>
      {relativeTime(date, now, timeZone, style)}
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
