import type { Server } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "~/logging/logger.server";
import type { Lifecycle } from "./lifecycle.server";

/**
 * On SIGTERM or SIGINT: /readyz turns 503; after `drainSeconds` the port closes; requests in flight
 * may finish within `timeoutMs`, then their connections are cut; last, `release` sends what is still
 * queued for export and closes the database.
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

  async function stop(signal: NodeJS.Signals) {
    if (stopping) return;
    stopping = true;
    lifecycle.state = "draining";
    logger.info({ signal, drainSeconds }, "Shutting down: no longer ready");
    if (drainSeconds > 0) await sleep(drainSeconds * 1000);

    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Connections that finish their request while we wait would otherwise idle until keep-alive ends.
    const reaper = setInterval(() => server.closeIdleConnections(), 200);
    const deadline = setTimeout(() => {
      logger.warn({ timeoutMs }, "Requests still running at the shutdown deadline: closing their connections");
      server.closeAllConnections();
    }, timeoutMs);
    await closed;
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
