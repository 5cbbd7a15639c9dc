import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { browserEventCaps, clientErrorDigest, takeBeaconSlot } from "~/monitoring/browser-events.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

let addresses = 0;
/** Each beacon comes from its own address (X-Forwarded-For from a trusted local proxy) unless told. */
const newAddress = () => {
  const n = addresses++;
  return `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`;
};

const clientError = (message: string, extra: Record<string, unknown> = {}) => ({
  kind: "client_error",
  message,
  stack: `${message}\n    at boom (http://127.0.0.1/assets/x.js:1:1)`,
  route: "/w/:workspace/p/:key/issues/:number",
  url: "/w/acme/p/WEB/issues/42",
  ...extra,
});

const webVital = (name: string, value: number, extra: Record<string, unknown> = {}) => ({
  kind: "web_vital",
  name,
  value,
  rating: "good",
  route: "/w/:workspace",
  url: "/w/acme",
  ...extra,
});

const json = (value: unknown) => JSON.stringify(value);

/** A well-formed beacon padded to exactly `bytes` bytes. */
function paddedTo(bytes: number): string {
  const bare = json({ events: [clientError("Error: x")], pad: "" });
  return json({ events: [clientError("Error: x")], pad: "p".repeat(bytes - Buffer.byteLength(bare)) });
}

describe.each(testDialects)("browser monitoring beacons on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let handle: DatabaseHandle;

  /**
   * A POST to /monitoring as navigator.sendBeacon makes it: same-origin (Origin and Sec-Fetch-Site),
   * a JSON Blob. node:http rather than fetch, to send exactly the headers (and lengths) we say.
   */
  function beacon(
    body: string | Buffer,
    options: { contentType?: string | null; headers?: Record<string, string>; address?: string; method?: string } = {},
  ): Promise<Answer> {
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    const headers: Record<string, string> = {
      Origin: server.url,
      "Sec-Fetch-Site": "same-origin",
      "X-Forwarded-For": options.address ?? newAddress(),
      "User-Agent": "MonitoringTest/1.0",
      "Content-Length": String(bytes.byteLength),
      ...(options.contentType === null ? {} : { "Content-Type": options.contentType ?? "application/json" }),
      ...options.headers,
    };
    return new Promise((resolve, reject) => {
      const req = http.request(`${server.url}/monitoring`, { method: options.method ?? "POST", headers, agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      req.end(bytes);
    });
  }

  const rows = (kind: "client_error" | "web_vital") =>
    handle.db.selectFrom("monitoring_events").selectAll().where("kind", "=", kind).orderBy("id").execute();
  const countAll = async () =>
    Number(
      (await handle.db.selectFrom("monitoring_events").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n,
    );

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer({ ...database.env, TRUST_PROXY: "loopback" });
    handle = database.open();
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await server?.stop();
    await database?.drop();
  });

  it("records a client error and web vitals, answering 204", async () => {
    const answer = await beacon(
      json({
        events: [
          clientError("TypeError: x is undefined", { url: "/w/acme/p/WEB/issues/42?q=secret#frag" }),
          webVital("LCP", 1234.5),
          webVital("CLS", 0.12, { rating: "needs-improvement" }),
          webVital("INP", 512, { rating: "poor" }),
          webVital("FCP", 0),
          webVital("TTFB", 80.25),
        ],
      }),
    );
    expect(answer.status).toBe(204);
    expect(answer.body).toBe("");

    const [error] = await rows("client_error");
    expect(error).toMatchObject({
      kind: "client_error",
      digest: clientErrorDigest({ message: "TypeError: x is undefined", route: "/w/:workspace/p/:key/issues/:number" }),
      route: "/w/:workspace/p/:key/issues/:number",
      // The path only: a query string or fragment may hold what an operator should not see.
      url: "/w/acme/p/WEB/issues/42",
      method: null,
      message: "TypeError: x is undefined",
      stack: "TypeError: x is undefined\n    at boom (http://127.0.0.1/assets/x.js:1:1)",
      user_id: null,
      user_agent: "MonitoringTest/1.0",
      count: 1,
    });
    expect(error!.digest).toMatch(/^[0-9A-F]{8}$/);
    expect(error!.first_seen).toBe(error!.last_seen);

    const vitals = await rows("web_vital");
    expect(vitals.map((v) => [v.name, v.value, v.rating, v.route, v.url, v.digest, v.count])).toEqual([
      ["LCP", 1234.5, "good", "/w/:workspace", "/w/acme", null, 1],
      ["CLS", 0.12, "needs-improvement", "/w/:workspace", "/w/acme", null, 1],
      ["INP", 512, "poor", "/w/:workspace", "/w/acme", null, 1],
      ["FCP", 0, "good", "/w/:workspace", "/w/acme", null, 1],
      ["TTFB", 80.25, "good", "/w/:workspace", "/w/acme", null, 1],
    ]);
  });

  it("groups the same client error by message and route, counting repeats", async () => {
    const message = "Error: grouped twice";
    expect((await beacon(json({ events: [clientError(message)] }))).status).toBe(204);
    await new Promise((r) => setTimeout(r, 20));
    expect((await beacon(json({ events: [clientError(message, { url: "/w/acme/p/WEB/issues/7", stack: "newer stack" })] }))).status).toBe(204);
    let grouped = (await rows("client_error")).filter((row) => row.message === message);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toMatchObject({ count: 2, url: "/w/acme/p/WEB/issues/7", stack: "newer stack" });
    expect(new Date(grouped[0]!.last_seen).getTime()).toBeGreaterThan(new Date(grouped[0]!.first_seen).getTime());

    // Twice more in one beacon; the same message on another route is another group.
    const answer = await beacon(
      json({ events: [clientError(message), clientError(message), clientError(message, { route: "/w/:workspace" })] }),
    );
    expect(answer.status).toBe(204);
    grouped = (await rows("client_error")).filter((row) => row.message === message);
    expect(grouped.map((row) => [row.route, row.count])).toEqual([
      ["/w/:workspace/p/:key/issues/:number", 4],
      ["/w/:workspace", 1],
    ]);
  });

  it("accepts text/plain (a string beacon) and records the signed-in user", async () => {
    const ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password: "correct horse battery" })).status).toBe(302);
    const user = await handle.db.selectFrom("users").select("id").where("email", "=", "ada@example.com").executeTakeFirstOrThrow();

    const answer = await beacon(json({ events: [clientError("Error: signed in"), webVital("TTFB", 42)] }), {
      contentType: "text/plain;charset=UTF-8",
      headers: { Cookie: ada.cookieHeader() },
    });
    expect(answer.status).toBe(204);
    expect((await rows("client_error")).find((row) => row.message === "Error: signed in")?.user_id).toBe(user.id);
    expect((await rows("web_vital")).find((row) => row.value === 42)?.user_id).toBe(user.id);
  });

  it("answers GET with 405", async () => {
    const answer = await fetch(`${server.url}/monitoring`);
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
  });

  const nested = "[".repeat(20_000) + "]".repeat(20_000);
  const hostile: [string, string | Buffer, number, string?][] = [
    ["invalid JSON", '{"events":[', 400],
    ["an empty body", "", 400],
    ["null", "null", 400],
    ["an array", "[]", 400],
    ["a string", '"events"', 400],
    ["no events", "{}", 400],
    ["events that are not an array", json({ events: { 0: clientError("Error: x") } }), 400],
    ["no event at all", json({ events: [] }), 400],
    ["51 events", json({ events: Array.from({ length: 51 }, () => webVital("LCP", 1)) }), 400],
    ["10,000 events", json({ events: Array.from({ length: 10_000 }, () => ({})) }), 400],
    ["10,000 valid events (over 64 KiB)", json({ events: Array.from({ length: 10_000 }, () => webVital("LCP", 1)) }), 413],
    ["an unknown top-level key", json({ events: [webVital("LCP", 1)], extra: 1 }), 400],
    ["an unknown event key", json({ events: [clientError("Error: x", { extra: 1 })] }), 400],
    ["a __proto__ key", '{"events":[{"kind":"web_vital","name":"LCP","value":1,"rating":"good","route":"/","url":"/","__proto__":{"x":1}}]}', 400],
    ["a forged server error", json({ events: [clientError("Error: x", { kind: "server_error" })] }), 400],
    ["no kind", json({ events: [{ message: "Error: x", route: "/", url: "/" }] }), 400],
    ["an empty message", json({ events: [clientError("")] }), 400],
    ["a 1,001-character message", json({ events: [clientError("m".repeat(1001))] }), 400],
    ["a message that is a number", json({ events: [clientError("x", { message: 42 })] }), 400],
    ["a message with a NUL", json({ events: [clientError("Error: \u0000")] }), 400],
    ["a message of nested junk", json({ events: [clientError("x", { message: { a: [[[{ b: [] }]]] } })] }), 400],
    ["an 8,001-character stack", json({ events: [clientError("Error: x", { stack: "s".repeat(8001) })] }), 400],
    ["a null stack", json({ events: [clientError("Error: x", { stack: null })] }), 400],
    ["a 201-character route", json({ events: [clientError("Error: x", { route: "/" + "r".repeat(200) })] }), 400],
    ["an empty route", json({ events: [clientError("Error: x", { route: "" })] }), 400],
    ["a route with a line break", json({ events: [clientError("Error: x", { route: "/a\nb" })] }), 400],
    ["an absolute URL", json({ events: [clientError("Error: x", { url: "http://evil.example/x" })] }), 400],
    ["a protocol-relative URL", json({ events: [clientError("Error: x", { url: "//evil.example/x" })] }), 400],
    ["a javascript: URL", json({ events: [clientError("Error: x", { url: "javascript:alert(1)" })] }), 400],
    ["a 2,001-character URL", json({ events: [clientError("Error: x", { url: "/" + "u".repeat(2000) })] }), 400],
    ["an unknown vital", json({ events: [webVital("FID", 10)] }), 400],
    ["a vital value of NaN (a string)", json({ events: [webVital("LCP", 0, { value: "NaN" })] }), 400],
    ["a vital value that is a numeric string", json({ events: [webVital("LCP", 0, { value: "12" })] }), 400],
    ["a null vital value", json({ events: [webVital("LCP", 0, { value: null })] }), 400],
    ["a negative vital", json({ events: [webVital("LCP", -1)] }), 400],
    ["a huge vital (1e308)", json({ events: [webVital("LCP", 1e308)] }), 400],
    ["an infinite vital (1e400)", '{"events":[{"kind":"web_vital","name":"TTFB","value":1e400,"rating":"good","route":"/","url":"/"}]}', 400],
    ["a CLS over 100", json({ events: [webVital("CLS", 101)] }), 400],
    ["an LCP over 10 minutes", json({ events: [webVital("LCP", 600_001)] }), 400],
    ["an unknown rating", json({ events: [webVital("LCP", 1, { rating: "excellent" })] }), 400],
    ["one bad event among good ones", json({ events: [webVital("LCP", 1), clientError("Error: fine"), webVital("INP", -5)] }), 400],
    ["deeply nested arrays", nested, 400],
    ["deeply nested events", `{"events":${nested}}`, 400],
    ["bytes that are not UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 400],
    ["a form post", "events=1", 415, "application/x-www-form-urlencoded"],
    ["multipart", json({ events: [webVital("LCP", 1)] }), 415, "multipart/form-data; boundary=x"],
    ["JSON as text/html", json({ events: [webVital("LCP", 1)] }), 415, "text/html"],
    ["a body of 64 KiB + 1 byte", paddedTo(64 * 1024 + 1), 413],
  ];

  it.each(hostile)("refuses %s and records nothing", async (_name, body, status, contentType) => {
    const before = await countAll();
    const answer = await beacon(body, { contentType });
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toMatch(/^text\/plain/);
    expect(answer.body).not.toMatch(/error:|stack|at \w+ \(/i);
    expect(await countAll()).toBe(before);
  });

  it("reads a body of exactly 64 KiB (then refuses it for its unknown key, not its size)", async () => {
    expect(Buffer.byteLength(paddedTo(64 * 1024 + 1))).toBe(64 * 1024 + 1);
    expect((await beacon(paddedTo(64 * 1024))).status).toBe(400);
  });

  it("refuses a beacon with no Content-Type (415) and one over 1 MiB at the door (413)", async () => {
    const before = await countAll();
    expect((await beacon(json({ events: [webVital("LCP", 1)] }), { contentType: null })).status).toBe(415);
    expect((await beacon(Buffer.alloc(1024 * 1024 + 1, 0x20))).status).toBe(413);
    expect(await countAll()).toBe(before);
  });

  it("refuses a cross-site beacon with 403", async () => {
    const before = await countAll();
    const body = json({ events: [clientError("Error: from elsewhere")] });
    expect((await beacon(body, { headers: { Origin: "http://evil.example", "Sec-Fetch-Site": "cross-site" } })).status).toBe(403);
    expect((await beacon(body, { headers: { Origin: "http://evil.example" } })).status).toBe(403);
    expect((await beacon(body, { headers: { "Sec-Fetch-Site": "same-site" } })).status).toBe(403);
    expect(await countAll()).toBe(before);
  });

  it("takes 60 beacons a minute from a client, then answers 429 with Retry-After", async () => {
    const address = "192.0.2.60";
    const body = json({ events: [webVital("TTFB", 1, { url: "/rate-limited" })] });
    for (let i = 1; i <= 60; i++) expect((await beacon(body, { address })).status, `beacon ${i}`).toBe(204);

    const refused = await beacon(json({ events: [webVital("TTFB", 1, { url: "/refused" })] }), { address });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toBe(`Too many attempts. Try again in ${retryAfter} seconds.\n`);

    // Another client is not held back by this one.
    expect((await beacon(body, { address: "192.0.2.61" })).status).toBe(204);
    const vitals = await rows("web_vital");
    expect(vitals.filter((row) => row.url === "/rate-limited")).toHaveLength(61);
    expect(vitals.filter((row) => row.url === "/refused")).toHaveLength(0);
  });

  it("lets exactly 60 of 70 concurrent beacons from one client through", async () => {
    const address = "192.0.2.70";
    const body = json({ events: [webVital("FCP", 1, { url: "/concurrent" })] });
    const answers = await Promise.all(Array.from({ length: 70 }, () => beacon(body, { address })));
    expect(answers.filter((a) => a.status === 204)).toHaveLength(60);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
    expect((await rows("web_vital")).filter((row) => row.url === "/concurrent")).toHaveLength(60);
  });

  it("slides the window: a client may send again once its oldest beacon is a minute old", async () => {
    // Far in the future, so that the server's own purges leave these alone.
    const start = new Date("2099-06-01T00:00:00.000Z").getTime();
    const at = (ms: number) => new Date(start + ms);
    for (let i = 0; i < 60; i++) expect(await takeBeaconSlot(handle, "window-test", at(i * 100))).toBeNull();
    expect(await takeBeaconSlot(handle, "window-test", at(10_000))).toBe(50);
    expect(await takeBeaconSlot(handle, "window-test", at(59_999))).toBe(1);
    // Refused beacons did not count: once the first leaves the window, one more may go.
    expect(await takeBeaconSlot(handle, "window-test", at(60_000))).toBeNull();
    expect(await takeBeaconSlot(handle, "window-test", at(60_050))).toBe(1);
    expect(await takeBeaconSlot(handle, "another-client", at(60_050))).toBeNull();
  });

  it("groups by the app's route patterns only: a raw path becomes its pattern, an unknown route the not-found one", async () => {
    const sent = [
      ["/w/acme/p/FW/board", "/w/:workspace/p/:key/board"],
      ["/w/:workspace/p/:key/board", "/w/:workspace/p/:key/board"],
      ["/w/acme/p/FW/issues/new", "/w/:workspace/p/:key/issues/new"],
      ["/w/:workspace/p/:key/issues/:number", "/w/:workspace/p/:key/issues/:number"],
      ["/w/acme/p/FW/issues/:id", "/w/:workspace/p/:key/issues/:number"],
      ["/w/new", "/w/new"],
      ["/", "/"],
      ["/made/up/route-42", "/*"],
    ] as const;
    const answer = await beacon(json({ events: sent.map(([route], i) => webVital("LCP", 1, { route, url: `/patterns/${i}` })) }));
    expect(answer.status).toBe(204);
    const stored = (await rows("web_vital")).filter((row) => row.url!.startsWith("/patterns/"));
    expect(stored.map((row) => row.route)).toEqual(sent.map(([, pattern]) => pattern));

    // A client error groups under its pattern too, whatever path the browser called its route.
    const message = "Error: grouped by pattern";
    for (const route of ["/w/acme/p/FW/board", "/w/other/p/WEB/board", "/w/:workspace/p/:key/board"]) {
      expect((await beacon(json({ events: [clientError(message, { route })] }))).status).toBe(204);
    }
    const groups = (await rows("client_error")).filter((row) => row.message === message);
    expect(groups.map((row) => [row.route, row.count, row.digest])).toEqual([
      ["/w/:workspace/p/:key/board", 3, clientErrorDigest({ message, route: "/w/:workspace/p/:key/board" })],
    ]);
  });

  it(`keeps at most ${browserEventCaps.clientErrorGroups} client-error groups, pruning the least recently seen`, { timeout: 60_000 }, async () => {
    const beacons = Math.ceil(browserEventCaps.clientErrorGroups / 50) + 1;
    for (let b = 0; b < beacons; b++) {
      const events = Array.from({ length: 50 }, (_, i) => clientError(`Error: flood ${b * 50 + i}`));
      expect((await beacon(json({ events }))).status, `beacon ${b}`).toBe(204);
    }
    const groups = await rows("client_error");
    expect(groups).toHaveLength(browserEventCaps.clientErrorGroups);
    const messages = new Set(groups.map((row) => row.message));
    expect(messages.has("Error: flood 0")).toBe(false);
    expect(messages.has(`Error: flood ${beacons * 50 - 1}`)).toBe(true);
    // The least recently seen group, seen again, is the most recent: a new group prunes the next one.
    const byAge = [...groups].sort((x, y) => x.last_seen.localeCompare(y.last_seen) || x.id - y.id);
    const [oldest, nextOldest] = byAge;
    expect((await beacon(json({ events: [clientError(oldest!.message!)] }))).status).toBe(204);
    expect((await beacon(json({ events: [clientError("Error: one more")] }))).status).toBe(204);
    const after = new Set((await rows("client_error")).map((row) => row.message));
    expect(after.size).toBe(browserEventCaps.clientErrorGroups);
    expect([after.has(oldest!.message), after.has("Error: one more"), after.has(nextOldest!.message)]).toEqual([true, true, false]);
  });

  it(`keeps at most ${browserEventCaps.webVitalsPerRouteAndDay} web-vital samples of a route a day; other routes still count`, { timeout: 60_000 }, async () => {
    const route = "/w/:workspace/settings/labels";
    const stored = async (url: string) => (await rows("web_vital")).filter((row) => row.url === url).length;
    for (let b = 0; b < browserEventCaps.webVitalsPerRouteAndDay / 50; b++) {
      const events = Array.from({ length: 50 }, () => webVital("INP", 40, { route, url: "/quota/full" }));
      expect((await beacon(json({ events }))).status, `beacon ${b}`).toBe(204);
    }
    expect(await stored("/quota/full")).toBe(browserEventCaps.webVitalsPerRouteAndDay);
    const answer = await beacon(
      json({ events: [webVital("LCP", 900, { route, url: "/quota/over" }), webVital("LCP", 900, { route: "/w/:workspace/settings/members", url: "/quota/other" })] }),
    );
    expect(answer.status).toBe(204);
    expect(await stored("/quota/over")).toBe(0);
    expect(await stored("/quota/other")).toBe(1);
  });

  it("never answered a beacon with a 500, whatever it was sent", () => {
    const beacons = server.logs.filter((line) => (line.req as { url?: string } | undefined)?.url === "/monitoring");
    expect(beacons.length).toBeGreaterThan(100);
    expect(beacons.filter((line) => Number((line.res as { statusCode?: number }).statusCode) >= 500)).toEqual([]);
    // No unexpected error was logged (each carries a digest).
    expect(server.logs.filter((line) => "digest" in line)).toEqual([]);
  });
});
