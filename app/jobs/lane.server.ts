import type { Logger } from "~/logging/logger.server";

/**
 * Work of one kind with an outbox table of its own (a job kind, the webhooks' deliveries), run by
 * its own loop so that nothing of another kind waits on it (decision record 025). Items are claimed
 * with a lease that the loop renews while each runs, and only as many as the lane has room to start.
 */
export type Lane<Item extends { id: number } = { id: number }> = {
  /** For the log: "mail", "webhooks". */
  name: string;
  /** At most this many items run at once in this instance. */
  concurrency: number;
  /** Claims up to `limit` due items for this instance, leased until `now + leaseMs`, and counts the attempt. */
  claim(claim: { now: Date; leaseMs: number; limit: number }): Promise<Item[]>;
  /** Runs one claimed item and records how it ended (only while this instance still holds it). */
  run(item: Item, clock: () => Date): Promise<void>;
  /** Extends to `now + leaseMs` the leases of those of `ids` this instance still holds. */
  renew(renewal: { ids: number[]; now: Date; leaseMs: number }): Promise<void>;
  /** Gives back items claimed but not started (the instance is stopping): due again at once, the attempt not counted. */
  release(ids: number[]): Promise<void>;
};

export type LaneLoopOptions = {
  logger: Logger;
  /** How often to look for due items when the last look found fewer than there was room for. */
  pollMs: number;
  /** How long a claim holds unless renewed; renewed every third of it while the item runs. */
  leaseMs: number;
  clock: () => Date;
};

export type LaneLoop = {
  /** Stops claiming, and waits for the items it is running (their leases renewed meanwhile). */
  stop(): Promise<void>;
};

/**
 * Runs a lane: claims what there is room for, starts each item at once, and looks again as soon as
 * one ends (the next event of an issue may be due) or, when a look found less than it had room
 * for, after `pollMs`. A slow item takes one place of its own lane and nothing else.
 */
export function startLaneLoop(lane: Lane, options: LaneLoopOptions): LaneLoop {
  const { logger, pollMs, leaseMs, clock } = options;
  const running = new Map<number, Promise<void>>();
  let stopping = false;
  let looking: Promise<void> | undefined;
  let lookAgain = false;
  let timer: NodeJS.Timeout | undefined;

  async function claimAndStart(): Promise<void> {
    const room = lane.concurrency - running.size;
    if (room <= 0) return;
    const items = await lane.claim({ now: clock(), leaseMs, limit: room });
    if (stopping) {
      if (items.length) await lane.release(items.map((item) => item.id));
      return;
    }
    for (const item of items) {
      const done = lane
        .run(item, clock)
        .catch((error: unknown) => logger.warn({ err: error, lane: lane.name, id: item.id }, "Could not run an item of a lane"))
        .finally(() => {
          running.delete(item.id);
          look();
        });
      running.set(item.id, done);
    }
  }

  function look() {
    if (stopping) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    clearTimeout(timer);
    looking = claimAndStart()
      // The database is down, say: the work waits for it.
      .catch((error: unknown) => logger.warn({ err: error, lane: lane.name }, "Could not claim work"))
      .finally(() => {
        looking = undefined;
        if (lookAgain) {
          lookAgain = false;
          look();
        } else if (!stopping) {
          timer = setTimeout(look, pollMs);
          // Waiting for the next look keeps no process alive.
          timer.unref();
        }
      });
  }

  // The leases of what runs are renewed every third of a lease: a live instance keeps its claims,
  // a dead one's are free again within a lease.
  const heartbeat = setInterval(() => {
    if (!running.size) return;
    lane.renew({ ids: [...running.keys()], now: clock(), leaseMs }).catch((error: unknown) => logger.warn({ err: error, lane: lane.name }, "Could not renew leases"));
  }, leaseMs / 3);
  heartbeat.unref();

  look();
  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await looking;
      await Promise.all(running.values());
      clearInterval(heartbeat);
    },
  };
}
