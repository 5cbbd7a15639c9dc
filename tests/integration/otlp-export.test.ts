import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientErrorDigest } from "~/monitoring/browser-events.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

/** One OTLP log record as the receiver got it, attributes decoded from OTLP/JSON's AnyValue. */
type ExportedRecord = {
  resource: Record<string, unknown>;
  scope: string | undefined;
  severityNumber: number | undefined;
  severityText: string | undefined;
  body: unknown;
  attributes: Record<string, unknown>;
};

type OtlpReceiver = {
  url: string;
  /** Every request that came in, whatever its path. */
  requests: { method: string; path: string; contentType: string | undefined }[];
  records: ExportedRecord[];
  close(): Promise<void>;
};

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

function decode(value: AnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decode);
  return value;
}

const decodeAll = (attributes: KeyValue[] | undefined) =>
  Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, decode(value)]));

type ExportLogsRequest = {
  resourceLogs?: {
    resource?: { attributes?: KeyValue[] };
    scopeLogs?: {
      scope?: { name?: string };
      logRecords?: { severityNumber?: number; severityText?: string; body?: AnyValue; attributes?: KeyValue[] }[];
    }[];
  }[];
};

/**
 * A small OTLP/HTTP collector on loopback: it keeps what is POSTed to /v1/logs as OTLP/JSON and
 * answers `status` (200, or an error to play a collector that is down).
 */
async function startOtlpReceiver(options: { host?: string; port?: number; status?: number } = {}): Promise<OtlpReceiver> {
  const { host = "127.0.0.1", port = 0, status = 200 } = options;
  const requests: OtlpReceiver["requests"] = [];
  const records: ExportedRecord[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const contentType = req.headers["content-type"];
      requests.push({ method: req.method!, path: req.url!, contentType });
      if (status === 200 && req.method === "POST" && req.url === "/v1/logs" && contentType === "application/json") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportLogsRequest;
        for (const resourceLogs of body.resourceLogs ?? []) {
          const resource = decodeAll(resourceLogs.resource?.attributes);
          for (const scopeLogs of resourceLogs.scopeLogs ?? []) {
            for (const record of scopeLogs.logRecords ?? []) {
              records.push({
                resource,
                scope: scopeLogs.scope?.name,
                severityNumber: record.severityNumber,
                severityText: record.severityText,
                body: decode(record.body),
                attributes: decodeAll(record.attributes),
              });
            }
          }
        }
      }
      res.writeHead(status, { "Content-Type": "application/json" }).end("{}");
    });
  });
  server.listen(port, host);
  await once(server, "listening");
  const { address, port: boundPort } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(":") ? `[${address}]` : address}:${boundPort}`,
    requests,
    records,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const digestInHtml = /Digest: <code[^>]*>([0-9A-F]{8})<\/code>/;
const userAgent = "OtlpExportTest/1.0";

const clientError = (message: string) => ({
  kind: "client_error",
  message,
  stack: `${message}\n    at boom (http://127.0.0.1/assets/x.js:1:1)`,
  route: "/w/:workspace/p/:key/issues/:number",
  url: "/w/acme/p/WEB/issues/42?q=secret",
});

const webVital = (name: string, value: number, rating = "good") => ({
  kind: "web_vital",
  name,
  value,
  rating,
  route: "/w/:workspace",
  url: "/w/acme",
});

/** A POST to /monitoring as navigator.sendBeacon makes it: same-origin JSON, unless told otherwise. */
async function beacon(server: RunningServer, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/monitoring`, {
    method: "POST",
    headers: {
      Origin: server.url,
      "Sec-Fetch-Site": "same-origin",
      "Content-Type": "application/json",
      "User-Agent": userAgent,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { status: response.status, requestId: response.headers.get("x-request-id") };
}

/** Makes every page that reads users fail unexpectedly, as long as `run` runs. */
async function withUsersTableGone<T>(database: TestDatabase, run: () => Promise<T>): Promise<T> {
  const { db } = database.open();
  try {
    await sql`alter table users rename to users_gone`.execute(db);
    try {
      return await run();
    } finally {
      await sql`alter table users_gone rename to users`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}

/** Requests `/` while it fails: a 500 whose page shows only the digest. */
async function causeServerError(server: RunningServer, path = "/") {
  const response = await fetch(`${server.url}${path}`, { headers: { "User-Agent": userAgent } });
  expect(response.status).toBe(500);
  const digest = digestInHtml.exec(await response.text())?.[1];
  expect(digest).toMatch(/^[0-9A-F]{8}$/);
  return { digest: digest!, requestId: response.headers.get("x-request-id") };
}

const pollOptions = { timeout: 10_000, interval: 50 };

describe.each(testDialects)("OTLP export on %s", (dialect) => {
  let receiver: OtlpReceiver;
  let database: TestDatabase;
  let server: RunningServer;

  const recordsOf = (requestId: string | null) => receiver.records.filter((r) => r.attributes["cairn.request_id"] === requestId);

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    database = await createTestDatabase(dialect);
    server = await startServer({
      ...database.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BLRP_SCHEDULE_DELAY: "50",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test",
    });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    await receiver?.close();
  });

  it("says where it exports to", () => {
    expect(server.logs).toContainEqual(
      expect.objectContaining({ msg: "Exporting server errors and browser events over OTLP", url: `${receiver.url}/v1/logs` }),
    );
  });

  it("exports an unexpected server error with its digest, the exception and the route", async () => {
    const { digest, requestId } = await withUsersTableGone(database, () => causeServerError(server, "/?tab=secret"));

    await expect.poll(() => recordsOf(requestId), pollOptions).toHaveLength(1);
    const [record] = recordsOf(requestId);
    expect(record).toMatchObject({
      scope: "cairn.monitoring",
      severityNumber: 17,
      severityText: "ERROR",
      body: expect.stringMatching(/users/),
      attributes: {
        "cairn.event.kind": "server_error",
        "cairn.digest": digest,
        "cairn.route": "routes/index",
        "http.request.method": "GET",
        // The path only: a query string may hold what should not leave the server.
        "url.path": "/",
        "exception.type": expect.stringMatching(/\w/),
        "exception.message": expect.stringMatching(/users/),
        "exception.stacktrace": expect.stringMatching(/\n\s+at /),
        "user_agent.original": userAgent,
      },
      resource: {
        "service.name": "cairn",
        "deployment.environment.name": "test",
        "telemetry.sdk.language": "nodejs",
      },
    });
    expect(record!.body).toBe(`${record!.attributes["exception.type"]}: ${record!.attributes["exception.message"]}`);
    // Nobody is signed in.
    expect(record!.attributes).not.toHaveProperty("user.id");
    expect(JSON.stringify(record)).not.toContain("secret");
    // The same digest as the log line the operator reads.
    expect(server.logs).toContainEqual(expect.objectContaining({ digest, reqId: requestId, level: 50 }));
    for (const request of receiver.requests) {
      expect(request).toEqual({ method: "POST", path: "/v1/logs", contentType: "application/json" });
    }
  });

  it("exports each event of an accepted beacon, with the signed-in user", async () => {
    const ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password: "correct horse battery" })).status).toBe(302);
    const { db } = database.open();
    const { id: adaId } = await db.selectFrom("users").select("id").where("email", "=", "ada@example.com").executeTakeFirstOrThrow();
    await db.destroy();

    const message = `TypeError: exported on ${dialect}`;
    const answer = await beacon(
      server,
      { events: [clientError(message), webVital("LCP", 1234.5), webVital("INP", 512, "poor")] },
      { Cookie: ada.cookieHeader() },
    );
    expect(answer.status).toBe(204);

    await expect.poll(() => recordsOf(answer.requestId), pollOptions).toHaveLength(3);
    const records = recordsOf(answer.requestId);
    const browser = { "user.id": String(adaId), "user_agent.original": userAgent, "cairn.request_id": answer.requestId };
    expect(records.find((r) => r.attributes["cairn.event.kind"] === "client_error")).toMatchObject({
      severityNumber: 17,
      severityText: "ERROR",
      body: message,
      attributes: {
        ...browser,
        "cairn.digest": clientErrorDigest({ message, route: "/w/:workspace/p/:key/issues/:number" }),
        "exception.message": message,
        "exception.stacktrace": expect.stringContaining("at boom"),
        "http.route": "/w/:workspace/p/:key/issues/:number",
        "url.path": "/w/acme/p/WEB/issues/42",
      },
      resource: { "service.name": "cairn" },
    });
    const vitals = records.filter((r) => r.attributes["cairn.event.kind"] === "web_vital");
    expect(
      vitals.map(({ severityNumber, severityText, body, attributes }) => [
        severityNumber,
        severityText,
        body,
        attributes["cairn.web_vital.name"],
        attributes["cairn.web_vital.value"],
        attributes["cairn.web_vital.rating"],
      ]),
    ).toEqual([
      [9, "INFO", "LCP 1234.5 (good)", "LCP", 1234.5, "good"],
      [9, "INFO", "INP 512 (poor)", "INP", 512, "poor"],
    ]);
    expect(vitals[0]).toMatchObject({ attributes: { ...browser, "http.route": "/w/:workspace", "url.path": "/w/acme" } });
  });

  it("exports nothing of a refused beacon", async () => {
    const refused = (n: number) => `Error: refused beacon ${n} on ${dialect}`;
    // Each would be a valid beacon but for one thing.
    expect((await beacon(server, { events: [{ ...clientError(refused(1)), extra: 1 }] })).status).toBe(400);
    const crossSite = { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" };
    expect((await beacon(server, { events: [clientError(refused(2))] }, crossSite)).status).toBe(403);
    expect((await beacon(server, { events: [clientError(refused(3))] }, { "Content-Type": "text/html" })).status).toBe(415);
    expect((await beacon(server, { events: [clientError(refused(4))], pad: "p".repeat(70_000) })).status).toBe(413);

    // Records go out in order, one export at a time: once a later one has arrived, any earlier one would have.
    const marker = await beacon(server, { events: [webVital("CLS", 0.05)] });
    expect(marker.status).toBe(204);
    await expect.poll(() => recordsOf(marker.requestId), pollOptions).toHaveLength(1);
    expect(receiver.records.filter((r) => String(r.body).includes("refused beacon"))).toEqual([]);
  });

  it("sends what is still queued when it stops", async () => {
    // Nothing is sent on its own for ten minutes: only the flush at shutdown can deliver these.
    const stopping = await startServer({
      ...database.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BLRP_SCHEDULE_DELAY: "600000",
    });
    try {
      const error = await withUsersTableGone(database, () => causeServerError(stopping));
      const answer = await beacon(stopping, { events: [clientError(`Error: just before SIGTERM on ${dialect}`)] });
      expect(answer.status).toBe(204);
      expect([...recordsOf(error.requestId), ...recordsOf(answer.requestId)]).toEqual([]);

      stopping.process.kill("SIGTERM");
      expect(await stopping.exited).toBe(0);
      expect(recordsOf(error.requestId)).toMatchObject([{ attributes: { "cairn.digest": error.digest } }]);
      expect(recordsOf(answer.requestId)).toMatchObject([{ attributes: { "cairn.event.kind": "client_error" } }]);
    } finally {
      await stopping.stop();
    }
  });
});

describe("OTLP export to a collector that fails", () => {
  let receiver: OtlpReceiver;
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    receiver = await startOtlpReceiver({ status: 500 });
    database = await createTestDatabase("sqlite");
    server = await startServer({ ...database.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BLRP_SCHEDULE_DELAY: "50" });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    await receiver?.close();
  });

  it("still answers, and logs the failure as a warning", async () => {
    expect((await beacon(server, { events: [clientError("Error: collector is down")] })).status).toBe(204);
    await expect.poll(() => receiver.requests.length, pollOptions).toBeGreaterThan(0);
    await expect
      .poll(() => server.logs.filter((line) => String(line.msg).startsWith("OTLP export:")), pollOptions)
      .not.toEqual([]);
    const failures = server.logs.filter((line) => String(line.msg).startsWith("OTLP export:"));
    expect(failures.every((line) => line.level === 40)).toBe(true);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });
});

describe("without an OTLP endpoint", () => {
  it("exports nothing, not even to the SDK's default of localhost:4318", async ({ skip }) => {
    // Listen where an SDK left to its defaults would send (localhost is either address family).
    const receivers: OtlpReceiver[] = [];
    for (const host of ["127.0.0.1", "::1"]) {
      try {
        receivers.push(await startOtlpReceiver({ host, port: 4318 }));
      } catch (error) {
        // No IPv6 loopback on this machine is fine; a port in use means this cannot be checked here.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EADDRINUSE") {
          await Promise.all(receivers.map((r) => r.close()));
          skip("port 4318 is in use on this machine");
        }
        if (code !== "EADDRNOTAVAIL" && code !== "EAFNOSUPPORT") throw error;
      }
    }
    const database = await createTestDatabase("sqlite");
    try {
      const server = await startServer({ ...database.env, OTEL_BLRP_SCHEDULE_DELAY: "50" });
      try {
        await withUsersTableGone(database, () => causeServerError(server));
        expect((await beacon(server, { events: [clientError("Error: not exported"), webVital("LCP", 100)] })).status).toBe(204);
        expect(server.logs.map((line) => line.msg)).not.toContain("Exporting server errors and browser events over OTLP");
      } finally {
        // Stopping flushes anything queued for export, so whatever would be sent has been by now.
        server.process.kill("SIGTERM");
        expect(await server.exited).toBe(0);
      }
      expect(receivers.flatMap((r) => r.requests)).toEqual([]);
    } finally {
      await database.drop();
      await Promise.all(receivers.map((r) => r.close()));
    }
  });
});
