import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

type Answer = { status: number; contentType: string | undefined; body: string };

/**
 * node:http rather than fetch, which will not send a Host or Sec-Fetch-* header of our choosing, nor
 * a path as it is (`..` unresolved): `url`'s path is sent byte for byte.
 */
function request(url: string, headers: Record<string, string>, method = "POST"): Promise<Answer> {
  const { hostname, port } = new URL(url);
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path, method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, contentType: res.headers["content-type"], body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A server on a fresh SQLite database, stopped and dropped after the suite. */
function serverFor(env: Record<string, string> = {}) {
  const running = runningServer(env);
  return () => running().url;
}

function runningServer(env: Record<string, string> = {}) {
  const running: { server?: RunningServer; database?: TestDatabase } = {};
  beforeAll(async () => {
    running.database = await createTestDatabase("sqlite");
    running.server = await startServer({ ...running.database.env, ...env });
  });
  afterAll(async () => {
    await running.server?.stop();
    await running.database?.drop();
  });
  return () => running.server!;
}

describe("cross-site mutations", () => {
  const url = serverFor();

  it("refuses a POST from another origin with 403", async () => {
    const answer = await request(`${url()}/`, { Origin: "http://evil.example" });
    expect(answer.status).toBe(403);
    expect(answer.contentType).toMatch(/^text\/html/);
    expect(answer.body).toContain("A request from another site was refused.");
    expect((await request(`${url()}/`, { Origin: "null" })).status).toBe(403);
  });

  it("refuses a POST the browser marks as cross-site or same-site", async () => {
    expect((await request(`${url()}/`, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    // Another subdomain of the same site is still another origin.
    expect((await request(`${url()}/`, { "Sec-Fetch-Site": "same-site" })).status).toBe(403);
  });

  it("lets the app's own POSTs through (the landing page has no action: 405)", async () => {
    expect((await request(`${url()}/`, { Origin: url() })).status).toBe(405);
    expect((await request(`${url()}/`, { Origin: url(), "Sec-Fetch-Site": "same-origin" })).status).toBe(405);
    expect((await request(`${url()}/`, { "Sec-Fetch-Site": "none" })).status).toBe(405);
  });

  it("lets a POST without Origin or Sec-Fetch-Site through, as scripts send", async () => {
    expect((await request(`${url()}/`, {})).status).toBe(405);
  });

  it("serves a GET whatever its origin", async () => {
    const answer = await request(`${url()}/`, { Origin: "http://evil.example", "Sec-Fetch-Site": "cross-site" }, "GET");
    expect(answer.status).toBe(200);
  });
});

describe("cross-site mutations to a path that only resolves to a page", () => {
  const server = runningServer();
  const crossSite = { Origin: "http://evil.example", "Sec-Fetch-Site": "cross-site" };

  // Each starts as an API path (exempt: the API reads no cookie), and resolves, as a URL and so for
  // React Router, to a page's form.
  it.each([
    "/api/v1/../../w/acme/p/WEB/issues/new",
    "/api/v1/%2e%2e/%2E%2e/settings/password",
    "/api/v1/.%2e/.%2E/settings/password",
    "/api/v1/..\\..\\settings\\password",
    "/api/v1/;x/../../settings/password?intent=x",
    "/api/v1//../../../settings/tokens",
  ])("refuses %s with Cairn's 403, and logs no error", async (path) => {
    const logged = server().logs.length;
    const answer = await request(`${server().url}${path}`, crossSite);
    expect(answer.status).toBe(403);
    expect(answer.body).toContain("A request from another site was refused.");
    expect(server().logs.slice(logged).filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it("still serves what stays an API path as the API: an encoded slash is no separator", async () => {
    const answer = await request(`${server().url}/api/v1/..%2f..%2fsettings%2fpassword`, crossSite);
    expect([answer.status, answer.contentType]).toEqual([404, expect.stringMatching(/^application\/json/)]);
  });
});

describe("cross-site mutations behind a TLS proxy (TRUST_PROXY=1)", () => {
  const url = serverFor({ TRUST_PROXY: "1" });
  const proxied = { Host: "cairn.example", "X-Forwarded-Proto": "https" };

  it("compares the Origin with the visitor's https origin", async () => {
    expect((await request(`${url()}/`, { ...proxied, Origin: "https://cairn.example" })).status).toBe(405);
    expect((await request(`${url()}/`, { ...proxied, Origin: "http://cairn.example" })).status).toBe(403);
  });
});
