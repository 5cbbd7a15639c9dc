/**
 * The time zone account setting (docs/product.md: User gains `time_zone`): chosen in the profile
 * form, checked against the zones Intl knows, and filled once from the browser for someone who has
 * none (TimeZoneReporter posts intent=time-zone).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalTimeZone, timeZoneNames, unknownTimeZoneMessage } from "~/auth/time-zones.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const password = "correct horse battery";

/** The zone the profile form shows as chosen, "" for the "Not set" choice (a browser shows the first option when none is selected). */
async function shownTimeZone(client: BrowserlessClient): Promise<string | undefined> {
  const response = await client.get("/settings");
  expect(response.status).toBe(200);
  const html = await response.text();
  const select = /<select[^>]*name="timeZone"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1];
  expect(select).toBeDefined();
  return (/<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(select!) ?? /<option[^>]*value="([^"]*)"/.exec(select!))?.[1];
}

describe("time zone names", () => {
  it("lists every zone Intl supports and UTC, each under its own canonical name", () => {
    expect(timeZoneNames).toContain("UTC");
    expect(timeZoneNames).toContain("Europe/Paris");
    expect(timeZoneNames.length).toBeGreaterThan(300);
    for (const name of timeZoneNames) expect(canonicalTimeZone(name)).toBe(name);
  });

  it.each([
    ["europe/paris", "Europe/Paris"],
    ["Etc/UTC", "UTC"],
    ["utc", "UTC"],
  ])("reads %j as %j", (name, canonical) => {
    expect(canonicalTimeZone(name)).toBe(canonical);
  });

  it.each(["Mars/Olympus_Mons", "", "+01:00", "Europe/Paris\u0000", "x".repeat(500)])("refuses %j", (name) => {
    expect(canonicalTimeZone(name)).toBeUndefined();
  });
});

describe.each(testDialects)("the time zone setting over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let signUps = 0;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  async function newAccount(): Promise<{ client: BrowserlessClient; name: string; email: string }> {
    const client = new BrowserlessClient(server.url);
    const name = `Ada ${++signUps}`;
    const email = `ada${signUps}@example.com`;
    expect((await client.post("/signup", { name, email, password })).status).toBe(302);
    return { client, name, email };
  }

  it("starts unset, and saves the zone chosen with the profile", async () => {
    const { client, name, email } = await newAccount();
    expect(await shownTimeZone(client)).toBe("");

    const saved = await client.post("/settings?index", { intent: "profile", name, email, timeZone: "Europe/Paris" });
    expect(saved.status).toBe(302);
    expect(await shownTimeZone(client)).toBe("Europe/Paris");

    // A profile form that sends no zone (as before there was one) leaves it as it is.
    expect((await client.post("/settings?index", { name: `${name} L.`, email })).status).toBe(302);
    expect(await shownTimeZone(client)).toBe("Europe/Paris");
  });

  it("refuses an unknown zone with 400 at the field, keeping what was typed and losing nothing saved", async () => {
    const { client, name, email } = await newAccount();
    expect((await client.post("/settings?index", { name, email, timeZone: "Asia/Tokyo" })).status).toBe(302);

    const refused = await client.post("/settings?index", { intent: "profile", name: "Ada Renamed", email, timeZone: "Mars/Olympus_Mons" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(unknownTimeZoneMessage);
    expect(html).toContain('value="Ada Renamed"');

    const page = await (await client.get("/settings")).text();
    expect(page).toContain(`value="${name}"`);
    expect(page).not.toContain("Ada Renamed");
    expect(await shownTimeZone(client)).toBe("Asia/Tokyo");
  });

  it("fills the zone from the browser only while none is set", async () => {
    const { client, name, email } = await newAccount();
    expect((await client.post("/settings?index", { intent: "time-zone", timeZone: "america/new_york" })).status).toBe(200);
    expect(await shownTimeZone(client)).toBe("America/New_York");

    // A second report (another tab, another browser) does not replace it …
    expect((await client.post("/settings?index", { intent: "time-zone", timeZone: "Asia/Tokyo" })).status).toBe(200);
    expect(await shownTimeZone(client)).toBe("America/New_York");

    // … nor one the person chose.
    expect((await client.post("/settings?index", { name, email, timeZone: "Europe/Berlin" })).status).toBe(302);
    expect((await client.post("/settings?index", { intent: "time-zone", timeZone: "Asia/Tokyo" })).status).toBe(200);
    expect(await shownTimeZone(client)).toBe("Europe/Berlin");
  });

  it("refuses a browser report of an unknown zone, saving nothing", async () => {
    const { client } = await newAccount();
    expect((await client.post("/settings?index", { intent: "time-zone", timeZone: "Nowhere/Special" })).status).toBe(400);
    expect((await client.post("/settings?index", { intent: "time-zone" })).status).toBe(400);
    expect(await shownTimeZone(client)).toBe("");
  });
});
