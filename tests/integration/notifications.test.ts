/**
 * Notifications over HTTP on every database, with a real SMTP server (issue 14): a mention and an
 * assignment reach the inbox and the mailbox once each, watchers hear of comments and status
 * changes, each person's mail preference is honoured, nobody hears of their own action, the inbox's
 * read/unread/read-all work, and a notification the outbox took is mailed after a kill -9.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";
import { type ReceivedMail, resetMailbox, startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { addMember } from "../support/workspaces";

const publicUrl = "https://cairn.example.test";
const password = "correct horse battery";
let addresses = 0;
const fromNewAddress = () => ({ "x-forwarded-for": `198.51.100.${++addresses}` });
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Who got which subject, sorted: a duplicate shows as a second entry. */
const delivered = (mails: ReceivedMail[]) => mails.map((mail) => `${mail.envelopeTo.join(",")} ${mail.subject}`).sort();

describe.each(testDialects)("notifications over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let smtp: TestSmtpServer;
  let server: RunningServer;
  const people = {} as Record<"olivia" | "grace" | "linus" | "margaret", { client: BrowserlessClient; id: number }>;
  const env = () => ({ ...database.env, TRUST_PROXY: "loopback", SMTP_URL: smtp.url, PUBLIC_URL: publicUrl, MAIL_FROM: "Cairn <cairn@example.test>" });
  const issuePath = (number: number) => `/w/rockets/p/WEB/issues/${number}`;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    smtp = await startTestSmtpServer();
    server = await startServer(env());
    handle = database.open();
    const names = { olivia: "Olivia Owner", grace: "Grace Hopper", linus: "Linus Torvalds", margaret: "Margaret Hamilton" };
    for (const [handleName, name] of Object.entries(names) as [keyof typeof names, string][]) {
      const client = new BrowserlessClient(server.url);
      expect((await client.post("/signup", { name, email: `${handleName}@example.com`, password }, fromNewAddress())).status).toBe(302);
      const { id } = await handle.db.selectFrom("users").select("id").where("email", "=", `${handleName}@example.com`).executeTakeFirstOrThrow();
      people[handleName] = { client, id };
    }
    const { olivia } = people;
    expect((await olivia.client.post("/w/new", { name: "Rocket Garden", slug: "rockets" })).status).toBe(302);
    const { id: workspaceId } = await handle.db.selectFrom("workspaces").select("id").where("slug", "=", "rockets").executeTakeFirstOrThrow();
    const at = new Date();
    await addMember(handle.db, { workspaceId, userId: people.grace.id, role: "member", at });
    await addMember(handle.db, { workspaceId, userId: people.linus.id, role: "member", at });
    await addMember(handle.db, { workspaceId, userId: people.margaret.id, role: "viewer", at });
    expect((await olivia.client.post("/w/rockets/projects/new", { name: "Website", key: "WEB", description: "" })).status).toBe(302);
  });

  afterAll(async () => {
    await server?.stop();
    await handle?.db.destroy();
    await smtp?.close();
    await database?.drop();
  });

  // Each test starts with the outbox empty (the mails of the one before sent) and no mail received.
  beforeEach(() => resetMailbox(smtp, handle.db));

  /** The mails that arrive within `count`, then a pause in which no other (no duplicate) may come. */
  async function expectMails(count: number): Promise<ReceivedMail[]> {
    if (count) await smtp.waitForMail(count);
    await pause(1500);
    expect(smtp.received).toHaveLength(count);
    return [...smtp.received];
  }

  const inbox = async (who: keyof typeof people) => text(await people[who].client.get("/w/rockets/inbox"));
  const setMail = async (who: keyof typeof people, email: string) =>
    expect((await people[who].client.post("/settings/notifications", { email })).status).toBe(302);

  it("brings an assignment and mentions to the inbox and the mailbox once each, and the author nothing", async () => {
    const filed = await people.olivia.client.post("/w/rockets/p/WEB/issues/new", {
      title: "Launch checklist",
      description: "@linus please review, and @margaret for the record. Not @nobody, nor `@grace` in code, nor olivia@example.com.",
      assigneeId: String(people.grace.id),
    });
    expect(filed.status).toBe(302);

    const mails = await expectMails(3);
    expect(delivered(mails)).toEqual([
      "grace@example.com [WEB-1] Launch checklist",
      "linus@example.com [WEB-1] Launch checklist",
      "margaret@example.com [WEB-1] Launch checklist",
    ]);
    const toGrace = mails.find((mail) => mail.envelopeTo[0] === "grace@example.com")!;
    expect(toGrace.text).toContain("Olivia Owner assigned you on WEB-1 Launch checklist (Rocket Garden).");
    expect(toGrace.text).toContain(`Open the issue: ${publicUrl}${issuePath(1)}`);
    expect(toGrace.headerLines.find((header) => header.key === "list-unsubscribe")?.line).toBe(`List-Unsubscribe: <${publicUrl}/settings/notifications>`);
    expect(toGrace.html).toBe(false);
    expect(mails.find((mail) => mail.envelopeTo[0] === "linus@example.com")!.text).toContain("Olivia Owner mentioned you on WEB-1");

    const graceInbox = await inbox("grace");
    expect(graceInbox).toContain("Launch checklist");
    expect(graceInbox).toContain("Olivia Owner assigned you");
    expect(graceInbox).toMatch(/class="side-count">1<span class="sr-only"> unread<\/span>/);
    expect(await inbox("linus")).toContain("Olivia Owner mentioned you");
    expect(await inbox("margaret")).toContain("Olivia Owner mentioned you");
    expect(await inbox("olivia")).toContain("Nothing here yet.");

    // The mention links to the person; an unknown handle and code stay text.
    const page = await text(await people.olivia.client.get(issuePath(1)));
    expect(page).toMatch(/<a href="\/w\/rockets\/p\/WEB\/issues\?assignee=\d+" title="Linus Torvalds"[^>]*>@linus<\/a>/);
    expect(page).toContain("Not @nobody");
    expect(page).toContain("<code>@grace</code>");

    // Opening the issue reads its notification.
    expect((await people.grace.client.get(issuePath(1))).status).toBe(200);
    expect(await inbox("grace")).not.toContain("side-count");
  });

  it("tells watchers of comments and status changes, mailing each person only what they chose", async () => {
    await setMail("grace", "all");
    await setMail("linus", "none");

    // Grace (the assignee, watching) hears of the comment and, choosing all, gets it by mail; Linus
    // is mentioned but chose no mail; Margaret (mentioned before, so watching) chose direct.
    expect((await people.olivia.client.post(issuePath(1), { intent: "comment", body: "Shipping Friday, @linus." })).status).toBe(302);
    let mails = await expectMails(1);
    expect(delivered(mails)).toEqual(["grace@example.com [WEB-1] Launch checklist"]);
    expect(mails[0]!.text).toContain("Olivia Owner commented on WEB-1");
    expect(mails[0]!.text).toContain("> Shipping Friday, @linus.");
    expect(await inbox("linus")).toContain("Olivia Owner mentioned you");
    expect(await inbox("margaret")).toContain("Olivia Owner commented");

    smtp.received.length = 0;
    expect((await people.olivia.client.post(issuePath(1), { intent: "status", status: "in_progress", version: "1" })).status).toBe(302);
    mails = await expectMails(1);
    expect(mails[0]!.text).toContain("Olivia Owner changed the status to In progress on WEB-1");
    expect(await inbox("grace")).toContain("Olivia Owner changed the status");

    // Back to the default (direct): a comment reaches Grace's inbox, not her mailbox; Olivia, the
    // reporter, hears of Linus's comment; Linus hears nothing of his own.
    await setMail("grace", "direct");
    smtp.received.length = 0;
    expect((await people.linus.client.post(issuePath(1), { intent: "comment", body: "Reviewed." })).status).toBe(302);
    await expectMails(0);
    expect(await inbox("olivia")).toContain("Linus Torvalds commented");
    expect(await inbox("grace")).toContain("Linus Torvalds commented");
    expect(await inbox("linus")).not.toContain("Linus Torvalds commented");

    // Unwatching stops it.
    expect((await people.grace.client.post(issuePath(1), { intent: "unwatch" })).status).toBe(302);
    await handle.db.updateTable("notifications").set({ read_at: new Date().toISOString() }).execute();
    expect((await people.linus.client.post(issuePath(1), { intent: "comment", body: "Once more." })).status).toBe(302);
    expect(await inbox("grace")).not.toContain("side-count");
    expect(await inbox("olivia")).toContain("side-count");
  });

  it("marks one row read or unread and all of them read, only one's own", async () => {
    const row = async (who: keyof typeof people) => {
      const { id } = await handle.db
        .selectFrom("notifications")
        .select("id")
        .where("user_id", "=", people[who].id)
        .orderBy("id")
        .executeTakeFirstOrThrow();
      return String(id);
    };
    const grace = people.grace.client;
    const id = await row("grace");
    expect((await grace.post("/w/rockets/inbox", { intent: "unread", notificationId: id })).status).toBe(302);
    expect(await inbox("grace")).toContain("(unread)");
    expect((await grace.post("/w/rockets/inbox", { intent: "read", notificationId: id })).status).toBe(302);
    expect(await inbox("grace")).not.toContain("(unread)");
    expect((await grace.post("/w/rockets/inbox", { intent: "unread", notificationId: id })).status).toBe(302);
    expect((await grace.post("/w/rockets/inbox?page=1", { intent: "read-all" })).headers.get("location")).toBe("/w/rockets/inbox?page=1");
    expect(await inbox("grace")).not.toContain("(unread)");

    // Someone else's row is not found, and changes nothing; odd input is refused.
    const olivias = await row("olivia");
    expect((await grace.post("/w/rockets/inbox", { intent: "read", notificationId: olivias })).status).toBe(404);
    expect((await grace.post("/w/rockets/inbox", { intent: "read", notificationId: "abc" })).status).toBe(400);
    expect((await grace.post("/w/rockets/inbox", { intent: "archive" })).status).toBe(400);
    expect((await grace.post("/settings/notifications", { email: "sometimes" })).status).toBe(400);
    // Someone outside the workspace has no inbox there.
    const stranger = new BrowserlessClient(server.url);
    expect((await stranger.post("/signup", { name: "Stranger", email: "stranger@example.com", password }, fromNewAddress())).status).toBe(302);
    expect((await stranger.get("/w/rockets/inbox")).status).toBe(404);
  });

  it("mails a notification the outbox took even when the server is killed (-9) while the mail server says to try later", { timeout: 90_000 }, async () => {
    smtp.refuseRecipients(421);
    expect((await people.olivia.client.post(issuePath(1), { intent: "comment", body: "@grace, one more thing." })).status).toBe(302);
    const deadline = Date.now() + 15_000;
    while (!(await handle.db.selectFrom("jobs").select("id").where("done_at", "is", null).where("last_error", "is not", null).execute()).length) {
      if (Date.now() > deadline) throw new Error("the first attempt never failed");
      await pause(50);
    }
    server.process.kill("SIGKILL");
    await server.exited;
    smtp.refuseRecipients(null);
    server = await startServer(env());
    for (const person of Object.values(people)) Object.assign(person, { client: person.client.at(server.url) });
    const [mail] = await smtp.waitForMail(1, 30_000);
    expect(mail!.envelopeTo).toEqual(["grace@example.com"]);
    expect(mail!.text).toContain("Olivia Owner mentioned you on WEB-1");
    await expectMails(1);
  });
});
