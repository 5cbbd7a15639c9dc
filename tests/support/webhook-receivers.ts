import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Received = { headers: IncomingHttpHeaders; body: string; answered: number; path: string };

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** An HTTP receiver on 127.0.0.1 that answers with the next status of `answers` (then 200). */
export async function startReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const status = answers.shift() ?? 200;
      received.push({ headers: request.headers, body, answered: status, path: request.url ?? "" });
      response.writeHead(status, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/cairn`;
  return {
    url,
    received,
    answers,
    async waitFor(count: number, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${received.length}: ${received.map((r) => r.body.slice(0, 40)).join(" | ")}`);
        await pause(50);
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type HangingReceiver = Awaited<ReturnType<typeof startHangingReceiver>>;

/**
 * An HTTP receiver on 127.0.0.1 that reads each request and never answers: a webhook endpoint that
 * hangs. It counts the requests it holds open and those the sender gave up on (closed).
 */
export async function startHangingReceiver() {
  const sockets = new Set<Socket>();
  const dropped = new WeakSet<Socket>();
  const counts = { opened: 0, closed: 0 };
  const server: Server = createServer((request) => {
    counts.opened += 1;
    sockets.add(request.socket);
    request.resume();
    request.socket.once("close", () => {
      sockets.delete(request.socket);
      if (!dropped.has(request.socket)) counts.closed += 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dropAll = () => {
    for (const socket of sockets) {
      dropped.add(socket);
      socket.destroy();
    }
  };
  return {
    /** A URL on this receiver: every path hangs alike, so that many webhooks may point at it. */
    url: (path = "/hooks/hang") => `${origin}${path}`,
    counts,
    /** Drops the requests it holds (not counted as closed by the sender) and starts counting afresh. */
    drop() {
      dropAll();
      counts.opened = 0;
      counts.closed = 0;
    },
    close() {
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
