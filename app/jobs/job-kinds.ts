import type { OutgoingMail } from "~/mail/outgoing-mail";

/** Each kind of job the outbox holds, with its payload (stored as JSON). */
export type JobPayloads = {
  /** One mail to send over SMTP (app/mail/mailer.server.ts). */
  mail: OutgoingMail;
};
