import { createTransport } from "nodemailer";
import type { MailConfig } from "~/config/env.server";
import { PermanentJobError } from "~/jobs/jobs.server";
import type { OutgoingMail } from "./outgoing-mail";
import { mailSubject } from "./subject.server";

export type Mailer = {
  /** Sends one mail; throws PermanentJobError when the server refuses it for good. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
};

/** SMTP replies that no retry changes: no such mailbox, not allowed, too large, refused. */
const permanentReplies = new Set([550, 551, 552, 553, 554]);

/**
 * Mail over SMTP as SMTP_URL says (nodemailer): `smtp://` upgrades with STARTTLS whenever the server
 * offers it, `smtps://` is TLS from the start. Every step has a time limit, so that a server that
 * stops answering fails the attempt rather than holding one of the mail lane's places (decision
 * record 025: the lane sends 3 at once, each on a connection of its own, and renews their leases).
 */
export function createMailer(config: MailConfig): Mailer {
  const transport = createTransport(
    { url: config.smtpUrl, connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000, dnsTimeout: 20_000 },
    { from: config.from },
  );
  return {
    async send(mail) {
      try {
        await transport.sendMail({
          to: mail.to,
          subject: mailSubject(mail.subject),
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          ...(mail.unsubscribeUrl ? { list: { unsubscribe: mail.unsubscribeUrl } } : {}),
        });
      } catch (error) {
        const reply = (error as { responseCode?: unknown }).responseCode;
        if (typeof reply === "number" && permanentReplies.has(reply)) {
          throw new PermanentJobError(`The mail server refused the mail to ${mail.to}: ${(error as Error).message}`);
        }
        throw error;
      }
    },
    close() {
      transport.close();
    },
  };
}
