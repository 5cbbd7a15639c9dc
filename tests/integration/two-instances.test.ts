/**
 * Several instances of Cairn on one database behind a load balancer (README "Running several
 * instances"): two production servers start together; a browser signs in on one and carries on on
 * the other; the sign-in and beacon limits count across both. Issue numbering across two servers
 * is proved in issue-numbering.test.ts, over HTTP too.
 *
 * On PostgreSQL each instance has a DATA_DIR of its own, as on two machines: nothing reaches the
 * other instance except through the database. SQLite is one file on one machine, so there the two
 * share DATA_DIR (two processes, say, while one replaces the other); the same checks hold.
 *
 * Both trust the test as their proxy (TRUST_PROXY=loopback): X-Forwarded-For names the client, as
 * a real proxy's would, and the per-address limits count that address.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { allMigrations } from "../support/migrations";
import { type RunningServer, startServer } from "../support/server";

const password = "correct horse battery";
let addresses = 0;
const fromNewAddress = () => ({ "x-forwarded-for": `203.0.113.${++addresses}` });

/** Logged by the instance that generated the session secret (app/config/session-secret.server.ts). */
const generatedSecretLog = /^SESSION_SECRET is not set: generated one/;

describe.each(testDialects)("two instances on one %s database", (dialect) => {
  let database: TestDatabase;
  let secondDataDir: string | undefined;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const envB = { ...database.env };
    if (dialect === "postgres") {
      secondDataDir = mkdtempSync(path.join(tmpdir(), "cairn-test-second-"));
      envB.DATA_DIR = secondDataDir;
    }
    // Started together, without SESSION_SECRET: they must agree on one themselves.
    [a, b] = await Promise.all([
      startServer({ ...database.env, TRUST_PROXY: "loopback" }),
      startServer({ ...envB, TRUST_PROXY: "loopback" }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    if (secondDataDir) rmSync(secondDataDir, { recursive: true, force: true });
  });

  it("runs each migration once: one instance applies them all, the other none", async () => {
    const applied = [a, b].map((server) => server.logs.find((line) => String(line.msg).startsWith("Cairn is listening on "))!.migrationsApplied as string[]);
    expect(applied.map((names) => names.length).sort((x, y) => x - y)).toEqual([0, allMigrations.length]);
    expect(applied.flat()).toEqual(allMigrations);
    const { db } = database.open();
    try {
      const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      expect(recorded.rows.map((row) => row.name)).toEqual(allMigrations);
    } finally {
      await db.destroy();
    }
  });

  it("generates one session secret for both, kept where both find it", async () => {
    expect([...a.logs, ...b.logs].filter((line) => generatedSecretLog.test(String(line.msg)))).toHaveLength(1);
    if (dialect === "sqlite") {
      expect(existsSync(path.join(database.dataDir, "session-secret"))).toBe(true);
      return;
    }
    // PostgreSQL: in the database, not in either instance's DATA_DIR.
    for (const dataDir of [database.dataDir, secondDataDir!]) expect(existsSync(path.join(dataDir, "session-secret"))).toBe(false);
    const { db } = database.open();
    try {
      expect(await db.selectFrom("instance_secrets").select("name").execute()).toEqual([{ name: "session" }]);
    } finally {
      await db.destroy();
    }
  });

  it("keeps a session across instances: signed up on A, signed in on B; B's workspace shows on A; signing out on B ends it on A", async () => {
    const onA = new BrowserlessClient(a.url);
    const onB = onA.at(b.url);
    const signedUp = await onA.post("/signup", { name: "Ada Lovelace", email: "ada@example.com", password });
    expect(signedUp.status, await signedUp.clone().text()).toBe(302);

    const settings = await onB.get("/settings");
    expect(settings.status).toBe(200);
    expect(await settings.text()).toContain('value="Ada Lovelace"');

    const created = await onB.post("/w/new", { name: "Acme Rockets", slug: "acme" });
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/w/acme");
    const workspace = await onA.get("/w/acme");
    expect(workspace.status).toBe(200);
    expect(await workspace.text()).toContain("Acme Rockets");

    const sessionCookie = onA.cookieHeader();
    expect((await onB.post("/logout", {})).status).toBe(302);
    // The flash message B signed reads on A.
    expect(await (await onA.get("/")).text()).toContain("You are signed out.");
    const replay = await fetch(`${a.url}/settings`, { redirect: "manual", headers: { cookie: sessionCookie } });
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toBe("/login?redirectTo=%2Fsettings");
  });

  it("counts an account's failed sign-ins on both: after 10 alternating failures, both answer 429", { timeout: 90_000 }, async () => {
    const email = "brute@example.com";
    expect((await new BrowserlessClient(a.url).post("/signup", { name: "Brute", email, password })).status).toBe(302);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const server = attempt % 2 ? a : b;
      // A new address each time: the account's own limit is what trips.
      const failed = await new BrowserlessClient(server.url).post("/login", { email, password: `wrong ${attempt}` }, fromNewAddress());
      expect(failed.status, `attempt ${attempt} on ${server === a ? "A" : "B"}`).toBe(400);
    }
    for (const server of [a, b]) {
      const blocked = await new BrowserlessClient(server.url).post("/login", { email, password }, fromNewAddress());
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(900);
    }
  });

  it("checks at most 10 of 60 parallel wrong passwords for one account sent to both at once", { timeout: 90_000 }, async () => {
    const email = "parallel@example.com";
    expect((await new BrowserlessClient(b.url).post("/signup", { name: "Parallel", email, password })).status).toBe(302);
    const statuses = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const server = i % 2 ? a : b;
        return (await new BrowserlessClient(server.url).post("/login", { email, password: `wrong ${i}` }, fromNewAddress())).status;
      }),
    );
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
  });

  it("counts a client address's failed sign-ins on both: after 10 alternating failures, both answer 429", { timeout: 90_000 }, async () => {
    const email = "grace@example.com";
    expect((await new BrowserlessClient(b.url).post("/signup", { name: "Grace", email, password })).status).toBe(302);
    const address = fromNewAddress();
    for (let attempt = 1; attempt <= 10; attempt++) {
      const server = attempt % 2 ? a : b;
      const failed = await new BrowserlessClient(server.url).post("/login", { email: `nobody${attempt}@example.com`, password }, address);
      expect(failed.status, `attempt ${attempt} on ${server === a ? "A" : "B"}`).toBe(400);
    }
    for (const server of [a, b]) {
      const blocked = await new BrowserlessClient(server.url).post("/login", { email, password }, address);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    // Grace herself, from another address, is not held back.
    expect((await new BrowserlessClient(b.url).post("/login", { email, password }, fromNewAddress())).status).toBe(302);
  });

  it("takes 60 beacons a minute from a client across both: alternating, the 61st is refused on either", async () => {
    const client = "192.0.2.60";
    const sendBeacon = (server: RunningServer, url: string) =>
      fetch(`${server.url}/monitoring`, {
        method: "POST",
        body: JSON.stringify({ events: [{ kind: "web_vital", name: "TTFB", value: 1, rating: "good", route: "/", url }] }),
        // As navigator.sendBeacon sends it, through the proxy.
        headers: { "content-type": "application/json", origin: server.url, "sec-fetch-site": "same-origin", "x-forwarded-for": client },
      });
    for (let i = 1; i <= 60; i++) expect((await sendBeacon(i % 2 ? a : b, "/accepted")).status, `beacon ${i}`).toBe(204);
    for (const server of [a, b]) {
      const refused = await sendBeacon(server, "/refused");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    }
    const { db } = database.open();
    try {
      const urls = await db.selectFrom("monitoring_events").select("url").where("kind", "=", "web_vital").execute();
      expect(urls.filter((row) => row.url === "/accepted")).toHaveLength(60);
      expect(urls.filter((row) => row.url === "/refused")).toHaveLength(0);
    } finally {
      await db.destroy();
    }
  });
});
