import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PermanentJobError } from "~/jobs/jobs.server";
import { createMailer, type Mailer } from "~/mail/mailer.server";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";

describe("the mailer, against a real SMTP server", () => {
  let smtp: TestSmtpServer;
  let mailer: Mailer;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    mailer = createMailer({ smtpUrl: smtp.url, from: "Cairn <cairn@cairn.example.com>", publicUrl: "https://cairn.example.com" });
  });

  afterAll(async () => {
    mailer?.close();
    await smtp?.close();
  });

  beforeEach(() => {
    smtp.refuseRecipients(null);
    smtp.received.length = 0;
  });

  it("sends a plain-text mail, with HTML as its alternative and List-Unsubscribe when given", async () => {
    await mailer.send({
      to: "grace@example.com",
      subject: "WEB-42 was assigned to you",
      text: "Ada assigned WEB-42 to you.\n\nhttps://cairn.example.com/w/acme/p/WEB/issues/42",
      html: "<p>Ada assigned <a href=\"https://cairn.example.com/w/acme/p/WEB/issues/42\">WEB-42</a> to you.</p>",
      unsubscribeUrl: "https://cairn.example.com/settings/notifications",
    });
    const [mail] = await smtp.waitForMail(1);
    expect(mail!.envelopeTo).toEqual(["grace@example.com"]);
    expect(mail!.from?.value).toEqual([{ name: "Cairn", address: "cairn@cairn.example.com" }]);
    expect(mail!.subject).toBe("WEB-42 was assigned to you");
    expect(mail!.text?.trim()).toBe("Ada assigned WEB-42 to you.\n\nhttps://cairn.example.com/w/acme/p/WEB/issues/42");
    expect(mail!.html).toContain('href="https://cairn.example.com/w/acme/p/WEB/issues/42"');
    expect(mail!.headerLines.find((header) => header.key === "list-unsubscribe")?.line).toBe("List-Unsubscribe: <https://cairn.example.com/settings/notifications>");
  });

  it("sends a subject that looks like MIME encoded words as typed: it never decodes to a line break or another header", async () => {
    const subjects = [
      "[WEB-1] =?utf-8?q?Eve=0D=0ABcc:_victim@example.com?=",
      "=?utf-8?b?RXZlDQpCY2M6IHZpY3RpbUBleGFtcGxlLmNvbQ==?=",
      "Ünïcode =?UTF-8?Q?=0A?= and =?iso-8859-1?q?=0D?=",
      "x=?utf-8?q?=0A?=y",
      "Price = 5? Yes =? no",
    ];
    for (const subject of subjects) await mailer.send({ to: "grace@example.com", subject, text: "t" });
    const received = await smtp.waitForMail(subjects.length);
    expect(received.map((mail) => mail.subject)).toEqual(subjects);
    for (const mail of received) {
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(mail.headers.has("bcc")).toBe(false);
    }
  });

  it("fails for good when the server refuses the mailbox, and for now when it says to try later", async () => {
    smtp.refuseRecipients(550);
    await expect(mailer.send({ to: "nobody@example.com", subject: "s", text: "t" })).rejects.toBeInstanceOf(PermanentJobError);
    smtp.refuseRecipients(421);
    const error = await mailer.send({ to: "busy@example.com", subject: "s", text: "t" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PermanentJobError);
    expect(smtp.received).toEqual([]);
  });

  it("signs in with SMTP_URL's user and password, and fails without them", async () => {
    const wrong = createMailer({ smtpUrl: smtp.url.replace("smtp-test-password", "wrong"), from: "cairn@cairn.example.com", publicUrl: "https://cairn.example.com" });
    try {
      await expect(wrong.send({ to: "grace@example.com", subject: "s", text: "t" })).rejects.toThrow(/535|Invalid/);
    } finally {
      wrong.close();
    }
    expect(smtp.received).toEqual([]);
  });
});
