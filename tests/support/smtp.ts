import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Database } from "~/db/database.server";

export type ReceivedMail = ParsedMail & { envelopeTo: string[] };

export type TestSmtpServer = {
  /** SMTP_URL for Cairn: `smtp://user:password@127.0.0.1:<port>`. */
  url: string;
  /** Every mail accepted so far, parsed, in the order it arrived. */
  received: ReceivedMail[];
  /** Until `answer` is changed, every recipient is refused with `code` (421 for "try later", 550 for "no such mailbox"). */
  refuseRecipients(code: number | null): void;
  /** Waits (at most `timeoutMs`) until `count` mails have arrived; returns them all. */
  waitForMail(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

const user = "cairn";
const password = "smtp-test-password";

/**
 * A real SMTP server on 127.0.0.1 (smtp-server), as an operator's mail relay is: it requires the
 * password of SMTP_URL and keeps what it is sent. Plain SMTP (no STARTTLS offered), so that the test
 * needs no certificate.
 */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let refusal: number | null = null;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, callback) {
      if (refusal === null) callback();
      else callback(Object.assign(new Error(refusal >= 500 ? "No such mailbox" : "Try again later"), { responseCode: refusal }));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((r) => r.address) }));
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    received,
    refuseRecipients(code) {
      refusal = code;
    },
    async waitForMail(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`Expected ${count} mails, got ${received.length} in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Starts a test from a quiet mailbox: mail accepted again, the outbox's due jobs all sent (the mails
 * of the test before), and what arrived forgotten.
 */
export async function resetMailbox(smtp: TestSmtpServer, db: Database, timeoutMs = 30_000): Promise<void> {
  smtp.refuseRecipients(null);
  const deadline = Date.now() + timeoutMs;
  while ((await db.selectFrom("jobs").select("id").where("done_at", "is", null).where("failed_at", "is", null).execute()).length) {
    if (Date.now() > deadline) throw new Error("The outbox did not empty");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  smtp.received.length = 0;
}
