import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiToken } from "~/auth/api-tokens.server";
import type { DatabaseHandle } from "~/db/database.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";
import { type ReceivedMail, resetMailbox, startTestSmtpServer, type TestSmtpServer } from "../support/smtp";

const publicUrl = "https://cairn.example.test";
const oldPassword = "correct horse battery";
const newPassword = "a brand new staple";
let addresses = 0;
/** Each request from a client address of its own (X-Forwarded-For, from a trusted local proxy), unless a test wants one. */
const fromNewAddress = () => ({ "x-forwarded-for": `198.51.100.${++addresses}` });

/** The reset link's path in a mail, e.g. `/reset-password/abc…`. */
function resetPath(mail: ReceivedMail): string {
  const link = new RegExp(`${publicUrl}(/reset-password/[\\w-]+)`).exec(mail.text ?? "");
  if (!link) throw new Error(`No reset link in: ${mail.text}`);
  return link[1]!;
}

const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, "");

describe.each(testDialects)("password reset over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let smtp: TestSmtpServer;
  let server: RunningServer;
  const env = () => ({ ...database.env, TRUST_PROXY: "loopback", SMTP_URL: smtp.url, PUBLIC_URL: publicUrl, MAIL_FROM: "Cairn <cairn@example.test>" });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    smtp = await startTestSmtpServer();
    server = await startServer(env());
    handle = database.open();
    for (const [name, email] of [["Ada", "ada@example.com"], ["Grace", "grace@example.com"], ["Linus", "linus@example.com"], ["Margaret", "margaret@example.com"]]) {
      expect((await new BrowserlessClient(server.url).post("/signup", { name: name!, email: email!, password: oldPassword }, fromNewAddress())).status).toBe(302);
    }
  });

  afterAll(async () => {
    await server?.stop();
    await handle?.db.destroy();
    await smtp?.close();
    await database?.drop();
  });

  // Each test starts with the outbox empty (the mails of the one before sent) and no mail received.
  beforeEach(() => resetMailbox(smtp, handle.db));

  const signIn = async (email: string, password: string) => {
    const client = new BrowserlessClient(server.url);
    const response = await client.post("/login", { email, password }, fromNewAddress());
    return { client, signedIn: response.status === 302 && response.headers.get("location") === "/" };
  };
  const askForLink = (email: string, headers: Record<string, string> = fromNewAddress()) =>
    new BrowserlessClient(server.url).post("/forgot-password", { email }, headers);

  const apiStatus = async (token: string) => (await fetch(`${server.url}/api/v1/user`, { headers: { Authorization: `Bearer ${token}` } })).status;

  it("mails a one-hour link once; the new password works, the old one, every session and every API token do not, and the link works once", async () => {
    const laptop = await signIn("ada@example.com", oldPassword);
    const phone = await signIn("ada@example.com", oldPassword);
    expect((await laptop.client.get("/settings")).status).toBe(200);
    const { id: adaId } = await handle.db.selectFrom("users").select("id").where("email", "=", "ada@example.com").executeTakeFirstOrThrow();
    const apiTokens: string[] = [];
    for (const name of ["CI", "Chat bot"]) {
      const made = await createApiToken(handle.db, { userId: adaId, name, scope: "write", expiresInDays: null, now: new Date() });
      if (!made.ok) throw new Error(made.message);
      apiTokens.push(made.token);
    }
    for (const token of apiTokens) expect(await apiStatus(token)).toBe(200);

    const client = new BrowserlessClient(server.url);
    expect((await client.get("/login").then(text))).toContain('href="/forgot-password"');
    const asked = await client.post("/forgot-password", { email: "Ada@Example.com" }, fromNewAddress());
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe("/login");
    expect(await client.get("/login").then(text)).toContain("If an account uses ada@example.com, a link to choose a new password is on its way there. It works for an hour.");

    const [mail] = await smtp.waitForMail(1);
    expect(mail!.envelopeTo).toEqual(["ada@example.com"]);
    expect(mail!.subject).toBe("Reset your Cairn password");
    expect(mail!.text).toContain("The link works for an hour, and once");
    const path = resetPath(mail!);

    const form = await client.get(path);
    expect(form.status).toBe(200);
    const page = await text(form);
    expect(page).toContain("Choose a new password");
    expect(page).toContain("For ada@example.com. Every session of this account will be signed out, and every API token of it revoked.");

    const saved = await client.post(path, { password: newPassword });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/login");
    expect(await client.get("/login").then(text)).toContain(
      "Your password was changed, every session of your account signed out and its 2 API tokens revoked. Sign in with the new password.",
    );

    for (const session of [laptop, phone]) expect((await session.client.get("/settings")).status).toBe(302);
    for (const token of apiTokens) expect(await apiStatus(token)).toBe(401);
    expect((await signIn("ada@example.com", oldPassword)).signedIn).toBe(false);
    expect((await signIn("ada@example.com", newPassword)).signedIn).toBe(true);

    // Once only.
    expect((await client.get(path)).status).toBe(404);
    const again = await client.post(path, { password: "yet another password" });
    expect(again.status).toBe(404);
    expect(await text(again)).toContain("This link no longer works");
    expect((await signIn("ada@example.com", newPassword)).signedIn).toBe(true);
    // The link's token is stored hashed.
    const rows = await handle.db.selectFrom("password_resets").select(["token_hash", "used_at"]).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toBe(path.split("/").pop());
    expect(rows[0]!.used_at).not.toBeNull();
    expect(smtp.received).toHaveLength(1);
  });

  it("answers the same for an address with no account, and mails nothing", async () => {
    const known = await askForLink("grace@example.com");
    const unknown = await askForLink("nobody@example.com");
    expect([unknown.status, unknown.headers.get("location")]).toEqual([known.status, known.headers.get("location")]);
    await smtp.waitForMail(1);
    const jobs = await handle.db.selectFrom("jobs").select("payload").where("kind", "=", "mail").execute();
    expect(jobs.filter((job) => job.payload.includes("nobody@example.com"))).toEqual([]);
    expect(smtp.received.map((mail) => mail.envelopeTo)).toEqual([["grace@example.com"]]);
  });

  it("refuses a link older than an hour, and a new password that breaks the rules (keeping the link)", async () => {
    await askForLink("linus@example.com");
    const path = resetPath((await smtp.waitForMail(1))[0]!);
    const client = new BrowserlessClient(server.url);

    const weak = await client.post(path, { password: "linus@example.com" });
    expect(weak.status).toBe(400);
    expect(await text(weak)).toContain("Your password must not be your email address.");
    expect((await client.post(path, { password: "short" })).status).toBe(400);
    expect((await client.get(path)).status).toBe(200);

    await handle.db.updateTable("password_resets").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("used_at", "is", null).execute();
    const expired = await client.get(path);
    expect(expired.status).toBe(404);
    expect(await text(expired)).toContain('href="/forgot-password"');
    expect((await client.post(path, { password: newPassword })).status).toBe(404);
    expect((await signIn("linus@example.com", oldPassword)).signedIn).toBe(true);
  });

  it("limits requests per account and per client address, alike whether the account exists", async () => {
    for (const email of ["margaret@example.com", "ghost@example.com"]) {
      for (let i = 0; i < 5; i++) expect((await askForLink(email)).status).toBe(302);
      const refused = await askForLink(email);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    }
    const oneAddress = fromNewAddress();
    for (let i = 0; i < 5; i++) expect((await askForLink(`someone${i}@example.com`, oneAddress)).status).toBe(302);
    expect((await askForLink("someone-else@example.com", oneAddress)).status).toBe(429);
  });

  it("delivers a mail the outbox took even when the server is killed (-9) while the mail server says to try later", { timeout: 90_000 }, async () => {
    smtp.refuseRecipients(421);
    expect((await askForLink("ada@example.com")).status).toBe(302);
    // The first attempt failed and the job waits for its retry.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const failed = await handle.db.selectFrom("jobs").select("id").where("done_at", "is", null).where("last_error", "is not", null).execute();
      if (failed.length) break;
      if (Date.now() > deadline) throw new Error("the first attempt never failed");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    server.process.kill("SIGKILL");
    await server.exited;
    smtp.refuseRecipients(null);
    server = await startServer(env());
    const [mail] = await smtp.waitForMail(1, 30_000);
    expect(mail!.envelopeTo).toEqual(["ada@example.com"]);
    // Once: no duplicate arrives after it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.received).toHaveLength(1);
  });

  it("says so, and sends nothing, when no mail server is configured; the instance admin makes reset links then", async () => {
    const noMail = await startServer({ ...database.env, TRUST_PROXY: "loopback" });
    try {
      const client = new BrowserlessClient(noMail.url);
      const page = await client.get("/forgot-password").then(text);
      expect(page).toContain("This Cairn does not send mail.");
      expect(page).not.toContain('name="email"');
      const refused = await client.post("/forgot-password", { email: "ada@example.com" }, fromNewAddress());
      expect(refused.status).toBe(409);
      expect(await text(refused)).toContain("This Cairn does not send mail.");

      // The instance admin (Ada, the first account; her password is the one the first test chose) makes the link instead.
      const linus = await handle.db.selectFrom("users").select("id").where("email", "=", "linus@example.com").executeTakeFirstOrThrow();
      const grace = new BrowserlessClient(noMail.url);
      expect((await grace.post("/login", { email: "grace@example.com", password: oldPassword }, fromNewAddress())).status).toBe(302);
      expect((await grace.get("/admin/users")).status).toBe(404);
      expect((await grace.post("/admin/users", { intent: "reset-link", userId: String(linus.id) })).status).toBe(404);

      const admin = new BrowserlessClient(noMail.url);
      expect((await admin.post("/login", { email: "ada@example.com", password: newPassword }, fromNewAddress())).status).toBe(302);
      const list = await admin.get("/admin/users").then(text);
      expect(list).toContain("This instance sends no mail");
      expect(list).toContain("linus@example.com");
      expect((await admin.post("/admin/users", { intent: "reset-link", userId: "987654" })).status).toBe(404);
      expect((await admin.post("/admin/users", { intent: "reset-link", userId: "x" })).status).toBe(400);
      const made = await admin.post("/admin/users", { intent: "reset-link", userId: String(linus.id) });
      expect(made.status).toBe(200);
      const shown = await text(made);
      expect(shown).toContain("A link for linus@example.com to choose a new password.");
      const url = new RegExp(`value="(${noMail.url}/reset-password/[\\w-]+)"`).exec(shown)?.[1];
      expect(url).toBeDefined();
      // Shown once: the page does not show it again.
      expect(await admin.get("/admin/users").then(text)).not.toContain(url!);
      const linusClient = new BrowserlessClient(noMail.url);
      expect((await linusClient.get(url!)).status).toBe(200);
      expect((await linusClient.post(url!, { password: newPassword })).status).toBe(302);
      expect((await linusClient.post("/login", { email: "linus@example.com", password: newPassword }, fromNewAddress())).status).toBe(302);
      expect(smtp.received).toEqual([]);
    } finally {
      await noMail.stop();
    }
  });
});
