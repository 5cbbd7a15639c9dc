import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "~/logging/logger.server";
import type { Lifecycle } from "~/context/lifecycle.server";

/** After the port closes, how long a connection may stay without a request before it is closed. */
const idleGraceMs = 1000;

/**
 * Closing the port resets the connections the kernel holds for us, whose clients may well have sent
 * their requests already, and Node takes only one of them per turn of the event loop (libuv
 * accepts one at a time). Takes turns until one brings no connection, for at most `limitMs` should
 * clients keep connecting.
 */
async function takeWaitingConnections(server: Server, limitMs: number) {
  let taken = true;
  const onConnection = () => (taken = true);
  server.on("connection", onConnection);
  const until = Date.now() + limitMs;
  while (taken && Date.now() < until) {
    taken = false;
    await new Promise((resolve) => setImmediate(resolve));
  }
  server.off("connection", onConnection);
}

/**
 * On SIGTERM or SIGINT: /readyz turns 503 and every answer not yet started closes its connection; after
 * `drainSeconds` the port closes; every request that reached the server before then is answered,
 * within `timeoutMs`, after which the connections still open are cut; last, `release` sends what is
 * still queued for export and closes the database.
 */
export function stopGracefullyOnSignals(options: {
  server: Server;
  lifecycle: Lifecycle;
  logger: Logger;
  drainSeconds: number;
  timeoutMs?: number;
  release: () => Promise<void>;
}) {
  const { server, lifecycle, logger, drainSeconds, timeoutMs = 10_000, release } = options;
  let stopping = false;
  // Clients (a load balancer's kept-alive connections, say) send their next request elsewhere.
  // libuv runs a signal's callback after the other I/O of its loop turn, so the requests read in
  // that turn are already under way when `stop` runs: their answers, not yet started, close too.
  const answering = new Set<ServerResponse>();
  server.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) {
      response.setHeader("Connection", "close");
      return;
    }
    answering.add(response);
    response.once("close", () => answering.delete(response));
  });

  async function stop(signal: NodeJS.Signals) {
    if (stopping) return;
    stopping = true;
    lifecycle.state = "draining";
    logger.info({ signal, drainSeconds }, "Shutting down: no longer ready");
    for (const response of answering) if (!response.headersSent) response.setHeader("Connection", "close");
    answering.clear();
    await sleep(drainSeconds * 1000);
    await takeWaitingConnections(server, idleGraceMs);

    // http's close() would also end every connection that has no request in progress at once,
    // including those whose request has arrived but is not read yet. net's stops listening only;
    // connections still without a request after a grace are closed, the others as they finish.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    let reaper: NodeJS.Timeout | undefined;
    const grace = setTimeout(() => (reaper = setInterval(() => server.closeIdleConnections(), 200)), idleGraceMs);
    const deadline = setTimeout(() => {
      logger.warn({ timeoutMs }, "Requests still running at the shutdown deadline: closing their connections");
      server.closeAllConnections();
    }, timeoutMs);
    await closed;
    clearTimeout(grace);
    clearInterval(reaper);
    clearTimeout(deadline);

    try {
      await release();
      logger.info("Stopped");
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, "Error while closing the database");
      process.exit(1);
    }
  }

  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
