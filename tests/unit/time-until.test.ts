import { describe, expect, it } from "vitest";
import { timeUntil } from "~/time/time-until";

const now = new Date("2026-03-03T10:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe("timeUntil", () => {
  it.each([
    [-5 * minute, "now"],
    [30_000, "now"],
    [5 * minute, "in 5 min"],
    [3 * hour, "in 3 h"],
    [day, "tomorrow"],
    [4 * day, "in 4 days"],
    [7 * day, "Mar 10"],
    // An API token's lifetimes (/settings/tokens): its date, the year's when it is not this one.
    [30 * day, "Apr 2"],
    [90 * day, "Jun 1"],
    [365 * day, "Mar 3, 2027"],
  ])("%i ms ahead reads %s", (ms, text) => {
    expect(timeUntil(later(ms), now, "UTC")).toBe(text);
  });

  it("counts days by the person's calendar", () => {
    // 23:00 in Tokyo is 14:00 UTC; 13 h later it is tomorrow there.
    const evening = new Date("2026-03-03T14:00:00Z");
    expect(timeUntil(new Date(evening.getTime() + 13 * hour), evening, "Asia/Tokyo")).toBe("tomorrow");
    expect(timeUntil(new Date("2027-01-05T12:00:00Z"), now, "UTC")).toBe("Jan 5, 2027");
  });
});
