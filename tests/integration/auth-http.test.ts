import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unexpectedErrorMessage } from "~/components/error-boundary";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const password = "correct horse battery";
let addresses = 0;
const fromNewAddress = () => ({ "x-forwarded-for": `203.0.113.${++addresses}` });

describe.each(testDialects)("signing in over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Each test signs in from its own address (X-Forwarded-For from a trusted local proxy), so that
    // the per-IP limit one test trips does not block the others.
    server = await startServer({ ...database.env, TRUST_PROXY: "loopback" });
    const ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password })).status).toBe(302);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("sets a session cookie that is HttpOnly, SameSite=Lax, Secure and __Host- prefixed", async () => {
    const client = new BrowserlessClient(server.url);
    const response = await client.post("/login", { email: "ada@example.com", password }, fromNewAddress());
    expect(response.status).toBe(302);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__Host-cairn_session="))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).not.toMatch(/Domain=/i);
    // The cookie carries a random token (signed), nothing about the user.
    const value = decodeURIComponent(cookie.split(";")[0]!.split("=").slice(1).join("="));
    expect(value).not.toContain("ada");
  });

  it("signs out by deleting the session: the old cookie no longer works", async () => {
    const client = new BrowserlessClient(server.url);
    await client.post("/login", { email: "ada@example.com", password }, fromNewAddress());
    const stolen = client.cookieHeader();
    expect((await client.get("/settings")).status).toBe(200);
    expect((await client.post("/logout", {})).status).toBe(302);
    const replay = await fetch(`${server.url}/settings`, { redirect: "manual", headers: { cookie: stolen } });
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toBe("/login?redirectTo=%2Fsettings");
  });

  it("answers 429 with Retry-After after 10 failed sign-ins for an account, even with the right password", async () => {
    const client = new BrowserlessClient(server.url);
    const email = "brute@example.com";
    await new BrowserlessClient(server.url).post("/signup", { name: "Brute", email, password });
    const firstFailure = Date.now();
    for (let attempt = 1; attempt <= 10; attempt++) {
      // A new address each time: the account's own limit is what trips.
      const response = await client.post("/login", { email, password: `wrong password ${attempt}` }, fromNewAddress());
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("Email or password is incorrect.");
    }
    const blocked = await client.post("/login", { email, password }, fromNewAddress());
    expect(blocked.status).toBe(429);
    // Until the first failure leaves the 15-minute window.
    const retryAfter = Number(blocked.headers.get("retry-after"));
    const elapsed = Math.ceil((Date.now() - firstFailure) / 1000);
    expect(retryAfter).toBeGreaterThanOrEqual(900 - elapsed - 1);
    expect(retryAfter).toBeLessThanOrEqual(900);
    const html = await blocked.text();
    expect(html).toMatch(/Too many attempts\. Try again in \d+ seconds\./);
    expect(html).toContain(`value="${email}"`);
  });

  it("limits failed sign-ins per IP address across accounts", async () => {
    const address = fromNewAddress();
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await new BrowserlessClient(server.url).post("/login", { email: `nobody${attempt}@example.com`, password }, address);
      expect(response.status).toBe(400);
    }
    const blocked = await new BrowserlessClient(server.url).post("/login", { email: "ada@example.com", password }, address);
    expect(blocked.status).toBe(429);
    // Ada herself, from elsewhere, is not blocked.
    expect((await new BrowserlessClient(server.url).post("/login", { email: "ada@example.com", password }, fromNewAddress())).status).toBe(302);
  });

  it("checks at most 10 of 60 parallel wrong passwords for one account; the other 50 are refused with 429", { timeout: 60_000 }, async () => {
    const email = "parallel@example.com";
    expect((await new BrowserlessClient(server.url).post("/signup", { name: "Parallel", email, password })).status).toBe(302);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        new BrowserlessClient(server.url).post("/login", { email, password: `wrong password ${i}` }, fromNewAddress()),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });

  it("refuses the right password that comes in a burst after the 10th wrong one", { timeout: 60_000 }, async () => {
    const email = "burst@example.com";
    expect((await new BrowserlessClient(server.url).post("/signup", { name: "Burst", email, password })).status).toBe(302);
    // 39 wrong passwords at once; the right one goes as soon as one of them is refused (or, were none
    // refused, once all are answered): by then ten attempts are counted, their passwords maybe unchecked.
    let someoneRefused: () => void;
    const refusal = new Promise<void>((resolve) => (someoneRefused = resolve));
    const wrong = Array.from({ length: 39 }, (_, i) =>
      new BrowserlessClient(server.url).post("/login", { email, password: `wrong password ${i}` }, fromNewAddress()).then((answer) => {
        if (answer.status === 429) someoneRefused();
        return answer.status;
      }),
    );
    await Promise.race([refusal, Promise.all(wrong)]);
    const right = await new BrowserlessClient(server.url).post("/login", { email, password }, fromNewAddress());
    expect(right.status).toBe(429);
    expect(await right.text()).toMatch(/Too many attempts\. Try again in \d+ seconds\./);
    const statuses = await Promise.all(wrong);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(29);
  });

  it("keeps the email and drops the password when a sign-in is refused", async () => {
    const response = await new BrowserlessClient(server.url).post("/login", { email: "ada@example.com", password: "not my password" }, fromNewAddress());
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('value="ada@example.com"');
    expect(html).not.toContain("not my password");
  });

  it("redirects only to paths on this site after sign-in", async () => {
    for (const [redirectTo, expected] of [
      ["/settings/sessions", "/settings/sessions"],
      ["//evil.example/", "/"],
      ["https://evil.example/", "/"],
      ["/\\evil.example", "/"],
    ]) {
      const response = await new BrowserlessClient(server.url).post("/login", { email: "ada@example.com", password, redirectTo: redirectTo! }, fromNewAddress());
      expect(response.headers.get("location")).toBe(expected);
    }
  });

  it("percent-encodes the redirect target after sign-in, and signs in once", async () => {
    const { db } = database.open();
    const sessions = async () => (await db.selectFrom("sessions").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n;
    try {
      for (const [redirectTo, expected] of [
        ["/w/日本", "/w/%E6%97%A5%E6%9C%AC"],
        ["/w/café?q=crème brûlée#top", "/w/caf%C3%A9?q=cr%C3%A8me%20br%C3%BBl%C3%A9e#top"],
        // Escapes already there are kept, not escaped twice; a lone % stays, as browsers keep it.
        ["/w/%E6%97%A5?q=100%", "/w/%E6%97%A5?q=100%"],
        ['/w/a"<b>', "/w/a%22%3Cb%3E"],
      ]) {
        const before = Number(await sessions());
        const response = await new BrowserlessClient(server.url).post("/login", { email: "ada@example.com", password, redirectTo: redirectTo! }, fromNewAddress());
        expect(response.status).toBe(302);
        expect(response.headers.get("location")).toBe(expected);
        expect(response.headers.getSetCookie().some((c) => c.startsWith("__Host-cairn_session="))).toBe(true);
        expect(Number(await sessions())).toBe(before + 1);
      }
    } finally {
      await db.destroy();
    }
  });

  it("brings a signed-out visitor back to a page whose address is not ASCII", async () => {
    const client = new BrowserlessClient(server.url);
    const page = "/w/%E6%97%A5%E6%9C%AC?q=%C3%A9t%C3%A9";
    const toLogin = await client.get(page);
    expect(toLogin.status).toBe(302);
    const login = new URL(toLogin.headers.get("location")!, server.url);
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("redirectTo")).toBe(page);
    const signedIn = await client.post("/login", { email: "ada@example.com", password, redirectTo: login.searchParams.get("redirectTo")! }, fromNewAddress());
    expect(signedIn.headers.get("location")).toBe(page);
  });

  it("percent-encodes the redirect target after creating an account", async () => {
    const response = await new BrowserlessClient(server.url).post(
      "/signup",
      { name: "Kenji", email: "kenji@example.com", password, redirectTo: "/w/日本" },
      fromNewAddress(),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/w/%E6%97%A5%E6%9C%AC");
  });

  it("gives an unexpected error in an action a digest, not its message", async () => {
    const { db } = database.open();
    await sql`alter table rate_limit_hits rename to rate_limit_hits_gone`.execute(db);
    try {
      const response = await new BrowserlessClient(server.url).post("/login", { email: "ada@example.com", password }, fromNewAddress());
      expect(response.status).toBe(500);
      const html = await response.text();
      expect(html).toContain(unexpectedErrorMessage);
      expect(html).toMatch(/Digest: <code[^>]*>[0-9A-F]{8}<\/code>/);
      expect(html).not.toMatch(/rate_limit_hits|no such table|does not exist/);
    } finally {
      await sql`alter table rate_limit_hits_gone rename to rate_limit_hits`.execute(db);
      await db.destroy();
    }
  });
});
