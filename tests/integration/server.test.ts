import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unexpectedErrorMessage } from "~/components/error-boundary";
import { findServerError } from "~/monitoring/server-errors.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const digestInHtml = /Digest: <code[^>]*>([0-9A-F]{8})<\/code>/;

describe.each(testDialects)("production server on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("renders the landing page on the server, with security headers and a request id", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Issue tracking for teams that ship.");
    expect(html).toContain("Create account");
    expect(html).toContain("the first account you create administers it");

    const csp = response.headers.get("content-security-policy")!;
    const nonce = /script-src 'nonce-([^']+)' 'strict-dynamic'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      expect(csp).toContain(directive);
    }
    // Every script React Router writes carries this response's nonce.
    const scripts = html.match(/<script[^>]*>/g)!;
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);

    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-powered-by")).toBeNull();
    const requestId = response.headers.get("x-request-id")!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await expect
      .poll(() => server.logs)
      .toContainEqual(expect.objectContaining({ reqId: requestId, msg: "request completed", res: { statusCode: 200 } }));
  });

  it("gives every response a fresh nonce", async () => {
    const nonces = await Promise.all(
      [1, 2].map(async () => (await fetch(`${server.url}/`)).headers.get("content-security-policy")),
    );
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("serves hashed assets immutable for a year, compressed", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const script = /href="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const response = await fetch(`${server.url}${script}`, { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("content-type")).toMatch(/^text\/javascript/);
    // The first is React Router's route manifest (decision record 014), an assignment; others start with imports.
    const text = await response.text();
    expect(text).toMatch(/^import|^var|^\(|^const|^function|^window\.__reactRouterManifest=/);
    expect((await fetch(`${server.url}/assets/missing-file.js`)).status).toBe(404);
  });

  it("compresses a page as the browser asks: brotli first, gzip, or not at all", async () => {
    const plain = await fetch(`${server.url}/login`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const html = await plain.text();
    expect(html).toContain("</html>");
    for (const [accepted, expected] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip", "gzip"],
    ] as const) {
      const response = await fetch(`${server.url}/login`, { headers: { "accept-encoding": accepted } });
      expect(response.headers.get("content-encoding")).toBe(expected);
      expect(response.headers.get("vary")).toContain("Accept-Encoding");
      expect(Number(response.headers.get("content-length"))).toBeLessThan(Buffer.byteLength(html) / 2);
      // The same page, decoded (its nonce and the form's token differ from one request to the next).
      expect((await response.text()).length).toBeGreaterThan(html.length - 200);
    }
  });

  it("sends the brotli copy the build made when the browser takes brotli, and the file itself otherwise", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const script = /href="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const plain = await fetch(`${server.url}${script}`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const source = await plain.text();
    const brotli = await fetch(`${server.url}${script}`, { headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(brotli.headers.get("content-type")).toMatch(/^text\/javascript/);
    // fetch decodes brotli: the same file arrives, in fewer bytes.
    expect(await brotli.text()).toBe(source);
    expect(Number(brotli.headers.get("content-length"))).toBeLessThan(Buffer.byteLength(source));
  });

  it("serves public files by their known names and nothing else from the folder", async () => {
    const favicon = await fetch(`${server.url}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("content-type")).toBe("image/svg+xml");
    // The build's own files are not public files: a page URL never reaches the file system.
    expect((await fetch(`${server.url}/.vite/manifest.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/favicon.svg.gz`)).status).toBe(404);
  });

  it("renders unknown URLs as a 404 inside the layout", async () => {
    const response = await fetch(`${server.url}/no/such/page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found.");
    expect(html).toContain("Cairn — self-hosted issue tracking for teams.");
  });

  it("answers the health checks", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("answers /healthz without the database, even to a signed-in browser", async () => {
    const ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password: "correct horse battery" })).status).toBe(302);
    // The database cannot tell who is signed in: the session lookup fails as in an outage.
    const { db } = database.open();
    await sql`alter table sessions rename to sessions_gone`.execute(db);
    try {
      const response = await ada.get("/healthz");
      expect(response.status).toBe(200);
      expect(await response.text()).toBe("ok\n");
      expect(response.headers.get("cache-control")).toBe("no-store");
    } finally {
      await sql`alter table sessions_gone rename to sessions`.execute(db);
      await db.destroy();
    }
  });

  it("refuses a request body over 1 MiB with 413", async () => {
    const response = await fetch(`${server.url}/`, { method: "POST", body: "x".repeat(1024 * 1024 + 1) });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("That is too large.");
  });

  describe("when a loader fails unexpectedly", () => {
    const leaks = [/no such table/i, /does not exist/i, /SqliteError/, /users/, /\bat .*\.js:\d+/];

    beforeAll(async () => {
      const { db } = database.open();
      await sql`alter table users rename to users_gone`.execute(db);
      await db.destroy();
    });

    afterAll(async () => {
      const { db } = database.open();
      await sql`alter table users_gone rename to users`.execute(db);
      await db.destroy();
    });

    it("sends a document with the generic message and the digest only", async () => {
      const response = await fetch(`${server.url}/`);
      expect(response.status).toBe(500);
      const html = await response.text();
      expect(html).toContain(unexpectedErrorMessage);
      const digest = digestInHtml.exec(html)?.[1];
      expect(digest).toBeTruthy();
      for (const leak of leaks) expect(html).not.toMatch(leak);

      // The operator finds the full error by its digest: in the log and in monitoring.
      const requestId = response.headers.get("x-request-id");
      const logged = server.logs.find((line) => line.digest === digest && line.reqId === requestId);
      expect(logged).toMatchObject({ level: 50, route: "routes/index", method: "GET", url: "/" });
      expect((logged!.err as { message: string }).message).toMatch(/users/);
      const { db } = database.open();
      try {
        expect(await findServerError(db, digest!)).toMatchObject({ route: "routes/index", request_id: requestId });
      } finally {
        await db.destroy();
      }
    });

    it("sends a data request the digest only", async () => {
      const response = await fetch(`${server.url}/_.data`);
      expect(response.status).toBe(500);
      const body = await response.text();
      expect(body).toContain('"digest"');
      expect(body).toMatch(/"[0-9A-F]{8}"/);
      for (const leak of leaks) expect(body).not.toMatch(leak);
    });

    it("groups repeats of the same fault under one digest", async () => {
      const digests = new Set<string>();
      for (let i = 0; i < 3; i++) {
        digests.add(digestInHtml.exec(await (await fetch(`${server.url}/`)).text())![1]!);
      }
      expect(digests.size).toBe(1);
      const { db } = database.open();
      try {
        expect((await findServerError(db, [...digests][0]!))!.count).toBeGreaterThanOrEqual(3);
      } finally {
        await db.destroy();
      }
    });
  });
});

describe.each(testDialects)("stopping on %s", (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });

  afterAll(async () => {
    await database?.drop();
  });

  it("turns /readyz to 503 on SIGTERM, then closes and exits 0", async () => {
    const server = await startServer({ ...database.env, DRAIN_SECONDS: "1" });
    server.process.kill("SIGTERM");
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status).toBe(503);
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: "draining" });
    // Pages are still served while load balancers notice.
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect(await server.exited).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    expect(server.logs.map((line) => line.msg)).toContain("Stopped");
  });
});
