import { type AddressInfo, createServer, type Socket } from "node:net";
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
  /**
   * Until called again with null, a mail to `address` stalls at its RCPT TO: the server keeps the
   * connection open and never answers (until it closes, when the conversation is told to try later).
   */
  stallRecipient(address: string | null): void;
  /** Conversations stalled so far, and how many of them have ended since (the client gave up). */
  stalled: { opened: number; closed: number };
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
  let stalledAddress: string | null = null;
  const stalled = { opened: 0, closed: 0 };
  const stalledSessions = new Set<string>();
  const stalledAnswers: ((error: Error) => void)[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onRcptTo(address, session, callback) {
      if (address.address === stalledAddress) {
        stalled.opened += 1;
        stalledSessions.add(session.id);
        stalledAnswers.push(callback);
      } else if (refusal === null) callback();
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
    onClose(session) {
      if (stalledSessions.delete(session.id)) stalled.closed += 1;
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
    stallRecipient(address) {
      stalledAddress = address;
    },
    stalled,
    async waitForMail(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`Expected ${count} mails, got ${received.length} in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received;
    },
    close: () => {
      for (const answer of stalledAnswers.splice(0)) answer(Object.assign(new Error("Closing"), { responseCode: 421 }));
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type SilentSmtpServer = {
  /** SMTP_URL for Cairn. */
  url: string;
  /** Connections accepted so far, and how many of them the client has closed since (it gave up). */
  opened: number;
  closed: number;
  close(): Promise<void>;
};

/**
 * A mail server that accepts connections and never says a word, not even its greeting: a relay
 * that hangs. Every conversation with it lasts as long as the client is willing to wait.
 */
export async function startSilentSmtpServer(): Promise<SilentSmtpServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    silent.opened += 1;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("close", () => {
      sockets.delete(socket);
      if (!closing) silent.closed += 1;
    });
  });
  let closing = false;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const silent: SilentSmtpServer = {
    url: `smtp://${user}:${password}@127.0.0.1:${(server.address() as AddressInfo).port}`,
    opened: 0,
    closed: 0,
    close: () => {
      closing = true;
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return silent;
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
