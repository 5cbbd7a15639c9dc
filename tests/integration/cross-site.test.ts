import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

type Answer = { status: number; contentType: string | undefined; body: string };

/** node:http rather than fetch, which will not send a Host or Sec-Fetch-* header of our choosing. */
function request(url: string, headers: Record<string, string>, method = "POST"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
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
  const running: { server?: RunningServer; database?: TestDatabase } = {};
  beforeAll(async () => {
    running.database = await createTestDatabase("sqlite");
    running.server = await startServer({ ...running.database.env, ...env });
  });
  afterAll(async () => {
    await running.server?.stop();
    await running.database?.drop();
  });
  return () => running.server!.url;
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

describe("cross-site mutations behind a TLS proxy (TRUST_PROXY=1)", () => {
  const url = serverFor({ TRUST_PROXY: "1" });
  const proxied = { Host: "cairn.example", "X-Forwarded-Proto": "https" };

  it("compares the Origin with the visitor's https origin", async () => {
    expect((await request(`${url()}/`, { ...proxied, Origin: "https://cairn.example" })).status).toBe(405);
    expect((await request(`${url()}/`, { ...proxied, Origin: "http://cairn.example" })).status).toBe(403);
  });
});
