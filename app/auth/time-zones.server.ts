import { z } from "zod";

/**
 * The zones a person can choose: every IANA zone this server's Intl knows, plus UTC (which
 * `supportedValuesOf` leaves out), in alphabetical order.
 */
export const timeZoneNames: readonly string[] = [...new Set([...Intl.supportedValuesOf("timeZone"), "UTC"])].sort();
const knownTimeZones = new Set(timeZoneNames);

/**
 * The zone `name` stands for, as this server spells it (`europe/paris` is `Europe/Paris`, `Etc/UTC`
 * is `UTC`), or undefined when Intl does not accept it or it is not one of `timeZoneNames` (an
 * offset such as `+01:00`, which newer runtimes accept, is no zone a person lives in).
 */
export function canonicalTimeZone(name: string): string | undefined {
  try {
    const canonical = new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone;
    return knownTimeZones.has(canonical) ? canonical : undefined;
  } catch {
    return undefined;
  }
}

export const unknownTimeZoneMessage = "Choose a time zone from the list.";

/** A time zone as a form sends it, saved under its canonical name. */
export const timeZoneField = z
  .string({ error: unknownTimeZoneMessage })
  .trim()
  .max(100, unknownTimeZoneMessage)
  .transform((name, ctx) => {
    const canonical = canonicalTimeZone(name);
    if (canonical === undefined) ctx.addIssue({ code: "custom", message: unknownTimeZoneMessage });
    return canonical ?? name;
  });
