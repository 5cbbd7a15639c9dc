import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";
import { type ReceivedMail, startTestSmtpServer, type TestSmtpServer } from "../support/smtp";

const publicUrl = "https://cairn.example.test";
const password = "correct horse battery";

/** The invitation link's path in a mail. */
function invitationPath(mail: ReceivedMail): string {
  const link = new RegExp(`${publicUrl}(/invitations/[\\w-]+)`).exec(mail.text ?? "");
  if (!link) throw new Error(`No invitation link in: ${mail.text}`);
  return link[1]!;
}

const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

describe.each(testDialects)("invitations by mail over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let server: RunningServer;
  let owner: BrowserlessClient;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    smtp = await startTestSmtpServer();
    server = await startServer({ ...database.env, SMTP_URL: smtp.url, PUBLIC_URL: publicUrl });
    owner = new BrowserlessClient(server.url);
    expect((await owner.post("/signup", { name: "Olivia Owner", email: "olivia@example.com", password })).status).toBe(302);
    expect((await owner.post("/w/new", { name: "Rocket Garden", slug: "rockets" })).status).toBe(302);
  });

  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await database?.drop();
  });

  const members = "/w/rockets/settings/members";
  const pendingId = async () => /name="invitationId" value="(\d+)"/.exec(await text(await owner.get(members)))![1]!;

  it("mails the invitation; Resend mails a new link and the old one stops working; New link shows one and mails nothing", async () => {
    const invited = await owner.post(members, { intent: "invite", email: "grace@example.com", role: "member" });
    expect(invited.status).toBe(302);
    const page = await text(await owner.get(members));
    expect(page).toContain("Invitation mailed to grace@example.com. Its link works for 7 days.");
    expect(page).toContain("Resend");

    const [first] = await smtp.waitForMail(1);
    expect(first!.envelopeTo).toEqual(["grace@example.com"]);
    expect(first!.subject).toBe("Olivia Owner invited you to Rocket Garden on Cairn");
    expect(first!.text).toContain("invited you to join the workspace Rocket Garden on Cairn, as member.");
    const firstPath = invitationPath(first!);
    expect(await text(await new BrowserlessClient(server.url).get(firstPath))).toContain("grace@example.com is invited to <strong>Rocket Garden</strong>");

    expect((await owner.post(members, { intent: "resend", invitationId: await pendingId() })).status).toBe(302);
    expect(await text(await owner.get(members))).toContain("Invitation mailed again to grace@example.com; the earlier link no longer works.");
    const [, second] = await smtp.waitForMail(2);
    const secondPath = invitationPath(second!);
    expect(secondPath).not.toBe(firstPath);
    expect((await new BrowserlessClient(server.url).get(firstPath)).status).toBe(404);

    expect((await owner.post(members, { intent: "new-link", invitationId: await pendingId() })).status).toBe(302);
    const shown = /value="(http:\/\/127\.0\.0\.1:\d+\/invitations\/[\w-]+)"/.exec(await text(await owner.get(members)))?.[1];
    expect(shown).toBeDefined();
    expect((await new BrowserlessClient(server.url).get(secondPath)).status).toBe(404);

    // Grace signs up through the newest link and is a member.
    const grace = new BrowserlessClient(server.url);
    const token = shown!.split("/").pop()!;
    const joined = await grace.post("/signup", { name: "Grace", email: "grace@example.com", password, invitation: token });
    expect(joined.headers.get("location")).toBe("/w/rockets");
    expect((await grace.get("/w/rockets")).status).toBe(200);

    // Two mails in all: the invitation and its resend; the shown link mailed nothing.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.received.map((mail) => mail.envelopeTo)).toEqual([["grace@example.com"], ["grace@example.com"]]);
    // A used invitation cannot be renewed.
    expect((await owner.post(members, { intent: "new-link", invitationId: "987654" })).status).toBe(404);
  });
});
