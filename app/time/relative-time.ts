/**
 * How Cairn writes times (DESIGN.md §3, Everywhere): relative to now ("5 min ago", "yesterday",
 * "Mar 3"), by the calendar of the person's time zone. Pure, so the server and the browser write the
 * same words from the same clock and hydration never disagrees.
 */

const minute = 60_000;
const hour = 60 * minute;

/** The calendar date of an instant in a time zone, as YYYY-MM-DD. */
export function dayInZone(at: Date, timeZone: string): string {
  return dayFormat(timeZone).format(at);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(timeZone: string) {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** Whole days from one YYYY-MM-DD to another. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / (24 * hour));
}

/** Building an Intl.DateTimeFormat costs far more than using one: each is made once. */
const monthDay = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });
const monthDayYear = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** "Mar 3", or "Mar 3, 2024" in another year than today's. */
export function calendarDate(day: string, today: string): string {
  const sameYear = day.slice(0, 4) === today.slice(0, 4);
  return (sameYear ? monthDay : monthDayYear).format(new Date(`${day}T00:00:00Z`));
}

/**
 * "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", "Mar 3" — or, `short`, as a list's
 * column has room for: "now", "5m", "3h", "1d", "4d", "Mar 3".
 */
export function relativeTime(at: Date, now: Date, timeZone: string, style: "long" | "short" = "long"): string {
  const ago = now.getTime() - at.getTime();
  const short = style === "short";
  if (ago < minute) return short ? "now" : "just now";
  if (ago < hour) return short ? `${Math.floor(ago / minute)}m` : `${Math.floor(ago / minute)} min ago`;
  const today = dayInZone(now, timeZone);
  const day = dayInZone(at, timeZone);
  const days = daysBetween(day, today);
  if (days <= 0 || ago < 6 * hour) return short ? `${Math.floor(ago / hour)}h` : `${Math.floor(ago / hour)} h ago`;
  if (days === 1) return short ? "1d" : "yesterday";
  if (days < 7) return short ? `${days}d` : `${days} days ago`;
  return calendarDate(day, today);
}

/** The exact time for a tooltip: "Mar 3, 2026, 14:05 GMT+1". */
export function exactTime(at: Date, timeZone: string): string {
  let format = exactFormats.get(timeZone);
  if (!format) {
    // dateStyle and timeZoneName cannot be combined: the fields are spelled out.
    format = new Intl.DateTimeFormat("en", { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone, timeZoneName: "short" });
    exactFormats.set(timeZone, format);
  }
  return format.format(at);
}

const exactFormats = new Map<string, Intl.DateTimeFormat>();
