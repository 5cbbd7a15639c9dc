/**
 * A flood of sign-ups (issue 11, item 14): each hashes a password with scrypt (128 MiB, ~0.3 s on
 * libuv's thread pool, which compression shares). At most two hash at once, a few wait, the rest are
 * refused with 503, and the per-address limit refuses what comes from one address beyond it with
 * 429; page requests keep answering meanwhile.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpLimit } from "~/auth/accounts.server";
import { unavailableMessage } from "~/errors/route-errors.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const password = "correct horse battery";

/** The server's peak resident memory so far (Linux), in MiB: a figure for the report, not a limit. */
function peakRssMiB(server: RunningServer): number {
  const status = readFileSync(`/proc/${server.process.pid}/status`, "utf8");
  return Math.round(Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) / 1024);
}

describe("a flood of sign-ups", () => {
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer({ ...database.env, TRUST_PROXY: "loopback" });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("keeps answering pages while 40 parallel sign-ups hash, and answers them 302, 429 or 503 only", { timeout: 120_000 }, async () => {
    const rssBefore = peakRssMiB(server);
    let answered = 0;
    let firstAnswer: () => void;
    const someAnswer = new Promise<void>((resolve) => (firstAnswer = resolve));
    const signUps = Array.from({ length: 40 }, async (_, i) => {
      // Three in four from one address, the others from addresses of their own.
      const address = i % 4 ? "192.0.2.1" : `198.51.100.${i}`;
      const response = await new BrowserlessClient(server.url).post(
        "/signup",
        { name: `Flood ${i}`, email: `flood${i}@example.com`, password },
        { "x-forwarded-for": address },
      );
      answered++;
      firstAnswer();
      return { response, body: await response.text() };
    });

    // Once one sign-up has been answered the others are hashing or waiting to: a page (gzipped,
    // which needs the thread pool too) answers while most of them still wait.
    await someAnswer;
    const page = await fetch(`${server.url}/login`, { headers: { "accept-encoding": "gzip" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-encoding")).toBe("gzip");
    expect(await page.text()).toContain("Sign in");
    const unansweredWhenThePageWas = 40 - answered;

    const results = await Promise.all(signUps);
    const statuses = results.map(({ response }) => response.status);
    const hashed = statuses.filter((status) => status === 302).length;
    console.log(
      `40 parallel sign-ups: ${hashed} × 302, ${statuses.filter((s) => s === 429).length} × 429, ` +
        `${statuses.filter((s) => s === 503).length} × 503; ${unansweredWhenThePageWas} unanswered when the page was; ` +
        `peak RSS ${rssBefore} MiB before, ${peakRssMiB(server)} MiB after`,
    );
    expect(statuses.every((status) => [302, 429, 503].includes(status))).toBe(true);
    expect(unansweredWhenThePageWas).toBeGreaterThan(hashed / 2);
    // The address that sent 30 got no more than the limit's 20 through; refusals say why. (Sign-ups
    // refused as too busy do not count against their address, so how many 429s there are varies.)
    expect(results.filter(({ response }, i) => i % 4 && response.status === 302).length).toBeLessThanOrEqual(signUpLimit.uses);
    for (const { response, body } of results.filter(({ response }) => response.status === 429)) {
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(body).toMatch(/Too many attempts\. Try again in \d+ seconds\./);
    }
    const busy = results.filter(({ response }) => response.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const { response, body } of busy) {
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(body).toContain(unavailableMessage);
    }
    expect(server.logs.filter((line) => line.level === 50)).toEqual([]);
  });

  it(`refuses a sign-up from an address that has had ${signUpLimit.uses} in the window, with 429, keeping what was typed`, async () => {
    const { db } = database.open();
    try {
      const expiresAt = new Date(Date.now() + signUpLimit.windowMs).toISOString();
      await db
        .insertInto("rate_limit_hits")
        .values(Array.from({ length: signUpLimit.uses }, () => ({ key: "sign-up:203.0.113.9", expires_at: expiresAt })))
        .execute();
      const refused = await new BrowserlessClient(server.url).post(
        "/signup",
        { name: "Late Comer", email: "late@example.com", password },
        { "x-forwarded-for": "203.0.113.9" },
      );
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(signUpLimit.windowMs / 1000);
      const html = await refused.text();
      expect(html).toMatch(/Too many attempts\. Try again in \d+ seconds\./);
      expect(html).toContain('value="late@example.com"');
      expect(html).not.toContain(password);
      expect(await db.selectFrom("users").select("id").where("email", "=", "late@example.com").execute()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
