import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import type { MonitoringEventKind } from "~/db/schema";
import {
  browserEventCaps,
  pruneClientErrorGroups,
  purgeOldWebVitals,
  recordBeacon,
  recordWebVitals,
  type WebVitalEvent,
} from "~/monitoring/browser-events.server";
import { findErrorGroup, listErrorGroups, normaliseDigest, webVitalPercentiles, webVitalRoutes } from "~/monitoring/dashboard.server";
import { recordServerError } from "~/monitoring/server-errors.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";

import { type RunningServer, startServer } from "../support/server";
import { insertUser } from "../support/users";

const serverError = (digest: string, at: string, userId: number | null = null) => ({
  digest,
  route: "routes/w/$workspace/layout",
  url: "/w/acme",
  method: "GET",
  message: `Error: fault ${digest}`,
  stack: `Error: fault ${digest}\n    at loader (server.js:1:1)`,
  userId,
  userAgent: "Test/1.0",
  requestId: `request-${digest}`,
  at: new Date(at),
});

const vital = (name: WebVitalEvent["name"], value: number, route = "/w/:workspace"): Omit<WebVitalEvent, "kind"> => ({
  name,
  value,
  rating: "good",
  route,
  url: route.replace(":workspace", "acme"),
});

const sender = (at: string) => ({ userId: null, userAgent: "Test/1.0", requestId: null, at: new Date(at) });

describe.each(testDialects)("the monitoring dashboard's queries on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
  });

  afterAll(async () => {
    await handle.db.destroy();
    await database.drop();
  });

  it("lists error groups of one kind, the most recently seen first, with their total", async () => {
    const ada = await insertUser(handle.db, { name: "Ada", at: new Date("2026-01-01T00:00:00Z") });
    await recordServerError(handle.db, serverError("AAAA0001", "2026-11-01T10:00:00Z"));
    await recordServerError(handle.db, serverError("AAAA0002", "2026-11-02T10:00:00Z"));
    await recordServerError(handle.db, serverError("AAAA0001", "2026-11-03T10:00:00Z", ada));
    await recordBeacon(
      handle,
      { events: [{ kind: "client_error", message: "TypeError: x is undefined", route: "/login", url: "/login" }] },
      sender("2026-11-04T10:00:00Z"),
    );

    const { groups, total } = await listErrorGroups(handle.db, "server_error", 10);
    expect(total).toBe(2);
    expect(groups.map((g) => [g.digest, g.count, g.first_seen, g.last_seen])).toEqual([
      ["AAAA0001", 2, "2026-11-01T10:00:00.000Z", "2026-11-03T10:00:00.000Z"],
      ["AAAA0002", 1, "2026-11-02T10:00:00.000Z", "2026-11-02T10:00:00.000Z"],
    ]);
    const limited = await listErrorGroups(handle.db, "server_error", 1);
    expect([limited.groups.length, limited.total]).toEqual([1, 2]);

    const client = await listErrorGroups(handle.db, "client_error", 10);
    expect(client.groups.map((g) => [g.message, g.route, g.count])).toEqual([["TypeError: x is undefined", "/login", 1]]);
  });

  it("finds one error by its digest, with the user who last met it", async () => {
    expect(await findErrorGroup(handle.db, "AAAA0001")).toMatchObject({
      kind: "server_error",
      message: "Error: fault AAAA0001",
      route: "routes/w/$workspace/layout",
      method: "GET",
      url: "/w/acme",
      request_id: "request-AAAA0001",
      count: 2,
      user_name: "Ada",
      user_email: "ada@example.com",
    });
    expect(await findErrorGroup(handle.db, "AAAA0002")).toMatchObject({ user_name: null, user_email: null });
    const [client] = (await listErrorGroups(handle.db, "client_error", 1)).groups;
    expect(await findErrorGroup(handle.db, client!.digest)).toMatchObject({ kind: "client_error", url: "/login" });
    expect(await findErrorGroup(handle.db, "0000FFFF")).toBeUndefined();
  });

  it("reads a digest as people type it", () => {
    expect(normaliseDigest(" aaaa0001 ")).toBe("AAAA0001");
    for (const bad of ["", "AAAA000", "AAAA00012", "GGGG0001", "AAAA-001", "' or 1=1 --"]) expect(normaliseDigest(bad)).toBeNull();
  });

  it("takes the 75th percentile of each vital by route and by UTC day, nearest rank", async () => {
    // /w/:workspace on the 20th: LCP 100..800 (p75 of 8 = the 6th = 600), one CLS sample.
    await recordWebVitals(handle.db, [100, 200, 300, 400, 500, 600, 700, 800].map((v) => vital("LCP", v)), sender("2026-11-20T23:59:00Z"));
    await recordWebVitals(handle.db, [vital("CLS", 0.05)], sender("2026-11-20T08:00:00Z"));
    // The 21st: LCP 1000..4000 for /w/:workspace (p75 of 4 = the 3rd), and a login page load.
    await recordWebVitals(handle.db, [4000, 1000, 3000, 2000].map((v) => vital("LCP", v)), sender("2026-11-21T00:00:00Z"));
    await recordWebVitals(handle.db, [vital("LCP", 900, "/login"), vital("TTFB", 120, "/login")], sender("2026-11-21T12:00:00Z"));
    // Older than the window: left out.
    await recordWebVitals(handle.db, [vital("LCP", 60_000)], sender("2026-10-01T00:00:00Z"));
    const since = new Date("2026-11-01T00:00:00Z");

    expect(await webVitalPercentiles(handle, { since, by: "route" })).toEqual([
      { bucket: "/login", name: "LCP", p75: 900, samples: 1 },
      { bucket: "/login", name: "TTFB", p75: 120, samples: 1 },
      { bucket: "/w/:workspace", name: "CLS", p75: 0.05, samples: 1 },
      // 12 samples: the 9th of 100..800, 1000..4000 is 1000.
      { bucket: "/w/:workspace", name: "LCP", p75: 1000, samples: 12 },
    ]);
    expect(await webVitalPercentiles(handle, { since, by: "day", route: "/w/:workspace" })).toEqual([
      { bucket: "2026-11-20", name: "CLS", p75: 0.05, samples: 1 },
      { bucket: "2026-11-20", name: "LCP", p75: 600, samples: 8 },
      { bucket: "2026-11-21", name: "LCP", p75: 3000, samples: 4 },
    ]);
    // All routes together on the 21st: 900, 1000, 2000, 3000, 4000 → the 4th.
    const allRoutes = await webVitalPercentiles(handle, { since, by: "day" });
    expect(allRoutes.filter((row) => row.bucket === "2026-11-21" && row.name === "LCP")).toEqual([
      { bucket: "2026-11-21", name: "LCP", p75: 3000, samples: 5 },
    ]);
    expect(await webVitalRoutes(handle.db, since)).toEqual(["/login", "/w/:workspace"]);
  });

  it("purges web vitals older than 90 days, and only those", async () => {
    const count = async (kind: MonitoringEventKind) =>
      Number((await handle.db.selectFrom("monitoring_events").select((eb) => eb.fn.countAll().as("n")).where("kind", "=", kind).executeTakeFirstOrThrow()).n);
    const vitalsBefore = await count("web_vital");
    const errorsBefore = await count("server_error");
    // 2026-10-01 is within 90 days of 2026-12-01 (61 days); of 2027-01-01 (92 days), not.
    expect(await purgeOldWebVitals(handle.db, new Date("2026-12-01T00:00:00Z"))).toBe(0);
    expect(await purgeOldWebVitals(handle.db, new Date("2027-01-01T00:00:00Z"))).toBe(1);
    expect(await count("web_vital")).toBe(vitalsBefore - 1);
    expect(await count("server_error")).toBe(errorsBefore);
  });

  it("prunes client-error groups down to the most recently seen", async () => {
    const at = (day: number) => sender(`2027-02-0${day}T10:00:00Z`);
    for (const [message, day] of [["Error: old", 1], ["Error: middle", 2], ["Error: new", 3]] as const) {
      await recordBeacon(handle, { events: [{ kind: "client_error", message, route: "/", url: "/" }] }, at(day));
    }
    // Seen again, the old one is now the most recent.
    await recordBeacon(handle, { events: [{ kind: "client_error", message: "Error: old", route: "/", url: "/" }] }, at(4));
    await pruneClientErrorGroups(handle.db, 2);
    const { groups } = await listErrorGroups(handle.db, "client_error", 10);
    expect(groups.map((group) => group.message)).toEqual(["Error: old", "Error: new"]);
  });

  it(`stores a route's web vitals while it has had fewer than ${browserEventCaps.webVitalsPerRouteAndDay} that UTC day, and says what it stored`, async () => {
    const route = "/w/:workspace/settings";
    const day = "2027-03-01";
    await recordWebVitals(
      handle.db,
      Array.from({ length: browserEventCaps.webVitalsPerRouteAndDay - 1 }, () => vital("TTFB", 50, route)),
      sender(`${day}T01:00:00Z`),
    );
    const event = (name: WebVitalEvent["name"], eventRoute = route) => ({ kind: "web_vital" as const, ...vital(name, 60, eventRoute) });
    // Room for one sample, not two: the beacon's samples of that route go whole or not at all.
    expect(await recordBeacon(handle, { events: [event("LCP"), event("FCP"), event("LCP", "/")] }, sender(`${day}T23:00:00Z`))).toEqual([
      event("LCP", "/"),
    ]);
    expect(await recordBeacon(handle, { events: [event("LCP")] }, sender(`${day}T23:30:00Z`))).toEqual([event("LCP")]);
    expect(await recordBeacon(handle, { events: [event("CLS")] }, sender(`${day}T23:40:00Z`))).toEqual([]);
    // A new day, new room.
    expect(await recordBeacon(handle, { events: [event("CLS")] }, sender("2027-03-02T00:00:00Z"))).toEqual([event("CLS")]);
    const samples = await webVitalPercentiles(handle, { since: new Date(`${day}T00:00:00Z`), by: "day", route });
    expect(samples.map((row) => [row.bucket, row.name, row.samples])).toEqual([
      [day, "LCP", 1],
      [day, "TTFB", browserEventCaps.webVitalsPerRouteAndDay - 1],
      ["2027-03-02", "CLS", 1],
    ]);
  });
});

describe.each(testDialects)("/admin/monitoring over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let admin: BrowserlessClient;
  let member: BrowserlessClient;
  const password = "a long and unusual passphrase";
  const digestInHtml = /Digest: <code[^>]*>([0-9A-F]{8})<\/code>/;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    // The first account is the instance admin; the second is not.
    admin = new BrowserlessClient(server.url);
    expect((await admin.post("/signup", { name: "Olga Operator", email: "olga@example.com", password })).status).toBe(302);
    member = new BrowserlessClient(server.url);
    expect((await member.post("/signup", { name: "Max Member", email: "max@example.com", password })).status).toBe(302);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("exists only for the instance admin", async () => {
    const signedOut = await new BrowserlessClient(server.url).get("/admin/monitoring");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe("/login?redirectTo=%2Fadmin%2Fmonitoring");
    for (const path of ["/admin", "/admin/monitoring", "/admin/monitoring/AAAA0001"]) {
      expect((await member.get(path)).status, path).toBe(404);
    }
    expect((await member.post("/admin/monitoring", { intent: "test-error" })).status).toBe(404);
    // Neither has a workspace: "/" is the workspace picker, whose header leads to /settings, the
    // signed-in frame whose account menu (and sidebar) offer Admin to the instance admin only.
    for (const path of ["/", "/settings"]) {
      expect(await (await member.get(path)).text(), path).not.toContain('href="/admin"');
    }
    const accountMenu = /<div id="account-menu" popover="auto"[^>]*>[\s\S]*?<\/div>/;
    const adminSettings = await (await admin.get("/settings")).text();
    expect(accountMenu.exec(adminSettings)?.[0]).toContain('href="/admin"');
    const start = await admin.get("/admin");
    expect([start.status, start.headers.get("location")]).toEqual([302, "/admin/monitoring"]);
    const page = await admin.get("/admin/monitoring");
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const heading of ["Server errors", "Browser errors", "Web vitals"]) expect(html).toContain(heading);
  });

  it("sends a test error that takes the whole digest path, and finds it again by its digest", async () => {
    const refused = await admin.post("/admin/monitoring", { intent: "something-else" });
    expect(refused.status).toBe(400);

    const sent = await admin.post("/admin/monitoring", { intent: "test-error" });
    expect(sent.status).toBe(500);
    const html = await sent.text();
    expect(html).toContain("Application error: something went wrong on our side.");
    expect(html).not.toContain("Test error sent");
    const digest = digestInHtml.exec(html)?.[1];
    expect(digest).toBeTruthy();
    expect(html).toContain(`href="/admin/monitoring/${digest}"`);
    const logged = server.logs.find((line) => line.digest === digest);
    expect(logged).toMatchObject({ level: 50, method: "POST", route: "routes/admin/monitoring/index" });

    const detail = await admin.get(`/admin/monitoring/${digest}`);
    expect(detail.status).toBe(200);
    const detailHtml = await detail.text();
    for (const fact of ["MonitoringTestError: Test error sent from /admin/monitoring", "Olga Operator", "olga@example.com", "POST /admin/monitoring", "routes/admin/monitoring/index", "at action"]) {
      expect(detailHtml).toContain(fact.replaceAll("<", "&lt;"));
    }
    const list = await (await admin.get("/admin/monitoring")).text();
    expect(list).toContain(`>${digest}</a>`);

    // The lookup box: any case, spaces around; then an unknown digest and a malformed one.
    const found = await admin.get(`/admin/monitoring?digest=${encodeURIComponent(` ${digest!.toLowerCase()} `)}`);
    expect([found.status, found.headers.get("location")]).toEqual([302, `/admin/monitoring/${digest}`]);
    const unknown = digest === "00000000" ? "00000001" : "00000000";
    expect(await (await admin.get(`/admin/monitoring?digest=${unknown}`)).text()).toContain(`No error has the digest ${unknown}.`);
    expect(await (await admin.get("/admin/monitoring?digest=%3Cscript%3E")).text()).toContain("A digest is 8 characters");
    const missing = await admin.get(`/admin/monitoring/${unknown}`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(`No error has the digest ${unknown}.`);
  });

  it("groups repeated test errors under one digest and counts them", async () => {
    const digests = new Set<string>();
    for (let i = 0; i < 2; i++) digests.add(digestInHtml.exec(await (await admin.post("/admin/monitoring", { intent: "test-error" })).text())![1]!);
    expect(digests.size).toBe(1);
    const detail = await (await admin.get(`/admin/monitoring/${[...digests][0]}`)).text();
    expect(detail).toMatch(/<dt[^>]*>Count<\/dt><dd[^>]*>3<\/dd>/);
  });
});
