import { calendarDate, dayInZone } from "./relative-time";

const minute = 60_000;
const hour = 60 * minute;

/**
 * A moment still to come, as relativeTime writes past ones: "in 5 min", "in 3 h", "tomorrow",
 * "in 4 days", then its date ("Mar 3") — by the calendar of the person's time zone. A moment that
 * has already passed reads "now".
 */
export function timeUntil(at: Date, now: Date, timeZone: string): string {
  const ahead = at.getTime() - now.getTime();
  if (ahead < minute) return "now";
  if (ahead < hour) return `in ${Math.floor(ahead / minute)} min`;
  const today = dayInZone(now, timeZone);
  const day = dayInZone(at, timeZone);
  const days = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / (24 * hour));
  if (days <= 0 || ahead < 6 * hour) return `in ${Math.floor(ahead / hour)} h`;
  if (days === 1) return "tomorrow";
  if (days < 7) return `in ${days} days`;
  return calendarDate(day, today);
}
