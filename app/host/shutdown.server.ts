import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import { setImmediate as afterPoll, setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "~/logging/logger.server";
import type { Lifecycle } from "~/context/lifecycle.server";

/** After the port closes, how long a connection may stay without a request before it is closed. */
const idleGraceMs = 1000;
/** The port closes once no client has connected, nor been answered (it then connects again), for this long… */
const quietMs = 50;
/** …as seen right after a turn of the event loop this short: during a longer one clients connected unseen. */
const quickTurnMs = 10;

/**
 * On SIGTERM or SIGINT: /readyz turns 503 and every answer not yet started closes its connection; after
 * `drainSeconds` the port closes once clients have stopped connecting; every request that reached
 * the server before then is answered, within `timeoutMs`, after which the connections still open
 * are cut; last, `release` sends what is still queued for export and closes the database.
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
  // When a client last connected, or was answered (after `Connection: close` it connects again).
  let lastArrival = 0;
  server.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) response.setHeader("Connection", "close");
    else answering.add(response);
    response.once("close", () => {
      answering.delete(response);
      lastArrival = performance.now();
    });
  });
  // Connections that arrive while the port is closing are taken but not read (below).
  let held: Socket[] | undefined;
  server.on("connection", (socket: Socket) => {
    lastArrival = performance.now();
    held?.push(socket);
  });
  // net.Server reads its `pauseOnConnect` option anew for each connection it takes.
  const pauseOnConnect = (paused: boolean) => ((server as { pauseOnConnect?: boolean }).pauseOnConnect = paused);

  /**
   * Closing the port resets every connection the kernel has completed but Node not yet taken, whose
   * clients may well have sent their requests already. So the port closes once clients have stopped
   * connecting: a connection that arrives from now on is taken but not read, so that its client
   * waits for its answer instead of being answered and connecting again; when no client has
   * connected nor been answered for `quietMs` (within `timeoutMs` in any case), the port closes right
   * after the event loop has taken what the kernel held. Then the connections held are read.
   */
  async function closePortOnceQuiet() {
    held = [];
    pauseOnConnect(true);
    const started = performance.now();
    for (;;) {
      await sleep(5);
      const polling = performance.now();
      await afterPoll();
      const now = performance.now();
      // A long turn (requests answered, or the process kept off the CPU) gave clients time to connect unseen.
      if ((now - polling < quickTurnMs && now - lastArrival >= quietMs) || now - started >= timeoutMs) break;
    }
    // http's close() would also end every connection that has no request in progress at once,
    // including those whose request has arrived but is not read yet. net's stops listening only.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    pauseOnConnect(false);
    for (const socket of held) socket.resume();
    held = undefined;
    // Wrapped: an async function's result would wait for it.
    return { closed };
  }

  async function stop(signal: NodeJS.Signals) {
    if (stopping) return;
    stopping = true;
    lifecycle.state = "draining";
    logger.info({ signal, drainSeconds }, "Shutting down: no longer ready");
    for (const response of answering) if (!response.headersSent) response.setHeader("Connection", "close");
    answering.clear();
    await sleep(drainSeconds * 1000);
    const { closed } = await closePortOnceQuiet();

    // Connections still without a request after a grace are closed (each sweep right after a poll,
    // so that a request the kernel holds is read, not reset), the others as they finish.
    let reaper: NodeJS.Timeout | undefined;
    const sweep = () => setImmediate(() => server.closeIdleConnections());
    const grace = setTimeout(() => (reaper = setInterval(sweep, 200)), idleGraceMs);
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

  // Every time, not once: a second signal must not cut the shutdown short (SIGKILL does). One can
  // come on the heels of the first, from a supervisor or an operator who sends it again.
  const onSignal = (signal: NodeJS.Signals) => {
    stop(signal).catch((error: unknown) => {
      logger.error({ err: error }, "Error while shutting down");
      process.exit(1);
    });
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
