import { describe, expect, it } from "vitest";
import { initials } from "~/components/avatar";
import { calendarDate, dayInZone, exactTime, relativeTime } from "~/time/relative-time";

const now = new Date("2026-03-10T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const minute = 60_000;
const hour = 60 * minute;

describe("relativeTime", () => {
  it("writes recent moments as minutes and hours", () => {
    expect(relativeTime(ago(20_000), now, "UTC")).toBe("just now");
    expect(relativeTime(ago(5 * minute), now, "UTC")).toBe("5 min ago");
    expect(relativeTime(ago(3 * hour), now, "UTC")).toBe("3 h ago");
    expect(relativeTime(ago(5 * minute), now, "UTC", "short")).toBe("5m");
    expect(relativeTime(ago(3 * hour), now, "UTC", "short")).toBe("3h");
  });

  it("counts days by the calendar of the person's time zone", () => {
    // 23:30 on the 9th in UTC is already the 10th in Tokyo: the same day there, yesterday in UTC.
    const lateEvening = new Date("2026-03-09T23:30:00Z");
    const morning = new Date("2026-03-10T08:00:00Z");
    expect(relativeTime(lateEvening, morning, "UTC")).toBe("yesterday");
    expect(relativeTime(lateEvening, morning, "Asia/Tokyo")).toBe("8 h ago");
    expect(relativeTime(new Date("2026-03-09T10:00:00Z"), now, "UTC")).toBe("yesterday");
    expect(relativeTime(new Date("2026-03-09T10:00:00Z"), now, "UTC", "short")).toBe("1d");
    expect(relativeTime(new Date("2026-03-09T20:00:00Z"), new Date("2026-03-10T03:00:00Z"), "Asia/Tokyo")).toBe("7 h ago");
    expect(relativeTime(new Date("2026-03-06T10:00:00Z"), now, "UTC")).toBe("4 days ago");
  });

  it("gives older moments their date, with the year when it is not this one", () => {
    expect(relativeTime(new Date("2026-03-01T10:00:00Z"), now, "UTC")).toBe("Mar 1");
    expect(relativeTime(new Date("2025-12-24T10:00:00Z"), now, "UTC")).toBe("Dec 24, 2025");
    expect(calendarDate("2026-03-03", "2026-03-10")).toBe("Mar 3");
  });

  it("finds the calendar day and the exact time in a zone", () => {
    expect(dayInZone(new Date("2026-03-09T23:30:00Z"), "Asia/Tokyo")).toBe("2026-03-10");
    expect(dayInZone(new Date("2026-03-09T23:30:00Z"), "UTC")).toBe("2026-03-09");
    expect(exactTime(new Date("2026-03-09T23:30:00Z"), "UTC")).toMatch(/^Mar 9, 2026, 11:30\sPM UTC$/);
    expect(exactTime(new Date("2026-03-09T23:30:00Z"), "Asia/Tokyo")).toMatch(/^Mar 10, 2026, 8:30\sAM GMT\+9$/);
  });
});

describe("initials", () => {
  it("takes the first letters of the first and last words", () => {
    expect(initials("Ada Lovelace")).toBe("AL");
    expect(initials("Grace Brewster Murray Hopper")).toBe("GH");
    expect(initials("grace")).toBe("G");
    expect(initials("  ")).toBe("?");
    expect(initials("Émile Zola")).toBe("ÉZ");
  });
});
