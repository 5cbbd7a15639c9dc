/**
 * The job runner's lanes (decision record 025) on every database, against production servers and
 * real counterparts on 127.0.0.1: a webhook receiver that never answers, a mail conversation that
 * stalls, an SMTP server that never greets. What is slow holds back only its own work — another
 * workspace's delivery and a password-reset mail arrive while the slow counterpart still holds its
 * connections open (before Cairn gives up on them); an instance claims only the work it starts, and
 * what a killed instance held is sent by another once its short lease (JOB_LEASE_SECONDS) ends.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requestPasswordReset } from "~/auth/password-resets.server";
import type { DatabaseHandle } from "~/db/database.server";
import { createIssue } from "~/issues/issues.server";
import { enqueueJob } from "~/jobs/jobs.server";
import { createWebhook } from "~/webhooks/webhooks.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { issueFields } from "../support/issues";
import { type RunningServer, startServer } from "../support/server";
import { type SilentSmtpServer, startSilentSmtpServer, startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { type HangingReceiver, type Receiver, startHangingReceiver, startReceiver } from "../support/webhook-receivers";
import { type SeededProject, seedTestWorkspace } from "../support/workspaces";

const publicUrl = "https://cairn.example.test";
type Workspace = { id: number; owner: number; project: SeededProject };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds (30 s at most: what is tested arrives in a second or two). */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await pause(25);
  }
}

describe.each(testDialects)("the job lanes on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: RunningServer;
  let smtp: TestSmtpServer;
  let silentSmtp: SilentSmtpServer;
  let fast: Receiver;
  let hanging: HangingReceiver;
  let bystander: Workspace;

  const env = (smtpUrl: string) => ({
    ...database.env,
    PUBLIC_URL: publicUrl,
    SMTP_URL: smtpUrl,
    WEBHOOK_ALLOW_PRIVATE: "true",
    // A failed attempt is not tried again while a test runs.
    WEBHOOK_RETRY_DELAYS: "3600",
    JOB_LEASE_SECONDS: "2",
  });
  /** A workspace of its own owner, with one project. */
  const workspace = async (slug: string): Promise<Workspace> => {
    const seeded = await seedTestWorkspace(handle.db, { slug, at: new Date(), members: { [slug]: "owner" }, projects: { KEY: slug } });
    return { id: seeded.id, owner: seeded.users[slug]!, project: seeded.projects.KEY };
  };
  const hook = async (workspace: Workspace, url: string) => {
    const made = await createWebhook(handle.db, { workspaceId: workspace.id, userId: workspace.owner, url, events: [], now: new Date() });
    if (!made.ok) throw new Error(made.message);
  };
  const file = async (workspace: Workspace, title: string) => {
    const filed = await createIssue(handle.db, { project: workspace.project, reporterId: workspace.owner, fields: issueFields({ title }), now: new Date() });
    if (!("number" in filed)) throw new Error(`${title} was not filed`);
  };
  const mail = (to: string) => enqueueJob(handle.db, { kind: "mail", payload: { to, subject: "Hello", text: "Hi." }, now: new Date() });
  /** Mails being sent to the silent mail server: its connections still open. */
  const sending = () => silentSmtp.opened - silentSmtp.closed;
  const claimed = async () => (await handle.db.selectFrom("jobs").select("id").where("locked_by", "is not", null).execute()).length;
  /** A fresh instance sending through `smtpUrl`; the one before is killed, and its mail connections are gone. */
  const restartOn = async (smtpUrl: string) => {
    server.process.kill("SIGKILL");
    await server.exited;
    await until(() => sending() === 0, "the killed instance's mail connections to close");
    server = await startServer(env(smtpUrl));
  };
  const resetMailTo = (email: string) =>
    requestPasswordReset(handle, { email, ip: null, mail: { smtpUrl: smtp.url, from: "cairn@cairn.example.test", publicUrl }, now: new Date() });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    [smtp, silentSmtp, fast, hanging] = await Promise.all([startTestSmtpServer(), startSilentSmtpServer(), startReceiver(), startHangingReceiver()]);
    server = await startServer(env(smtp.url));
    handle = database.open();
    bystander = await workspace("bystander");
  });

  afterEach(async () => {
    // Every test starts with no webhook on, an empty mail outbox and quiet counterparts; what the server is still sending settles as nothing.
    await handle.db.updateTable("webhooks").set({ enabled: 0 }).execute();
    await handle.db.deleteFrom("jobs").execute();
    hanging.drop();
    smtp.stallRecipient(null);
    fast.received.length = 0;
    smtp.received.length = 0;
  });

  afterAll(async () => {
    await server?.stop();
    await Promise.all([smtp?.close(), silentSmtp?.close(), fast?.close(), hanging?.close()]);
    await handle?.db.destroy();
    await database?.drop();
  });

  it("lets another workspace's delivery and a password-reset mail through while a receiver that never answers holds ten deliveries", { timeout: 60_000 }, async () => {
    const slowpoke = await workspace("slowpoke");
    await hook(slowpoke, hanging.url());
    for (let i = 1; i <= 10; i++) await file(slowpoke, `Slow ${i}`);
    await until(() => hanging.counts.opened > 0, "the slow receiver to be called");

    await hook(bystander, fast.url);
    await file(bystander, "Fast");
    await resetMailTo("bystander@example.com");
    await until(() => (fast.received.length > 0 && smtp.received.length > 0) || hanging.counts.closed > 0, "the delivery and the mail, or a slow attempt to time out");
    expect({ delivered: fast.received.length, mailed: smtp.received.map((m) => m.envelopeTo), slowGivenUp: hanging.counts.closed }).toEqual({
      delivered: 1,
      mailed: [["bystander@example.com"]],
      slowGivenUp: 0,
    });
  });

  it("lets another workspace's delivery through while twenty receivers of one workspace never answer five issues each", { timeout: 60_000 }, async () => {
    const slowpokes = await workspace("slowpokes");
    for (let i = 1; i <= 20; i++) await hook(slowpokes, hanging.url(`/hooks/${i}`));
    for (let i = 1; i <= 5; i++) await file(slowpokes, `Slow ${i}`);
    await until(() => hanging.counts.opened > 0, "the slow receivers to be called");

    await hook(bystander, fast.url);
    await file(bystander, "Fast");
    await until(() => fast.received.length > 0 || hanging.counts.closed > 0, "the delivery, or a slow attempt to time out");
    expect({ delivered: fast.received.length, slowGivenUp: hanging.counts.closed }).toEqual({ delivered: 1, slowGivenUp: 0 });
  });

  it("sends a password-reset mail while another mail's SMTP conversation is stalled", { timeout: 90_000 }, async () => {
    smtp.stallRecipient("stuck@example.com");
    await mail("stuck@example.com");
    await until(() => smtp.stalled.opened > 0, "the stuck mail's conversation");

    await resetMailTo("bystander@example.com");
    await until(() => smtp.received.length > 0 || smtp.stalled.closed > 0, "the reset mail, or the stalled conversation to end");
    expect({ mailed: smtp.received.map((m) => m.envelopeTo), stalledGivenUp: smtp.stalled.closed }).toEqual({ mailed: [["bystander@example.com"]], stalledGivenUp: 0 });
  });

  it("delivers webhooks while an SMTP server that never greets holds ten mails", { timeout: 60_000 }, async () => {
    await restartOn(silentSmtp.url);
    for (let i = 1; i <= 10; i++) await mail(`person${i}@example.com`);
    await until(() => silentSmtp.opened > 0, "the silent mail server to be called");

    await hook(bystander, fast.url);
    await file(bystander, "Fast");
    await until(() => fast.received.length > 0 || silentSmtp.closed > 0, "the delivery, or a mail attempt to time out");
    expect({ delivered: fast.received.length, mailGivenUp: silentSmtp.closed }).toEqual({ delivered: 1, mailGivenUp: 0 });
  });

  it("claims only the mails it is sending", { timeout: 60_000 }, async () => {
    await restartOn(silentSmtp.url);
    for (let i = 1; i <= 6; i++) await mail(`waiting${i}@example.com`);
    await until(async () => sending() > 0 && (await claimed()) === sending(), "every claimed mail to be being sent");
    expect(await claimed()).toBeLessThan(6);
  });

  it("sends what a killed instance held once its lease ends, from another instance", { timeout: 90_000 }, async () => {
    await restartOn(silentSmtp.url);
    const recipients = Array.from({ length: 6 }, (_, i) => `held${i + 1}@example.com`);
    for (const to of recipients) await mail(to);
    await until(async () => sending() > 0 && (await claimed()) > 0, "the mails to be claimed and being sent");

    server.process.kill("SIGKILL");
    await server.exited;
    server = await startServer(env(smtp.url));
    const arrived = await smtp.waitForMail(recipients.length, 30_000);
    expect(arrived.flatMap((m) => m.envelopeTo).sort()).toEqual([...recipients].sort());
    await until(async () => !(await handle.db.selectFrom("jobs").select("id").where("done_at", "is", null).execute()).length, "every mail job to be done");
  });
});
