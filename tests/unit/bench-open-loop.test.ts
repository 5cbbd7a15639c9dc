import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { openLoop, percentile } from "../bench/open-loop.js";

describe("percentile", () => {
  it("is the nearest rank: the smallest value that p % of the values are at most", () => {
    const values = Array.from({ length: 200 }, (_, i) => 200 - i);
    expect(percentile(values, 50)).toBe(100);
    expect(percentile(values, 99)).toBe(198);
    expect(percentile(values, 100)).toBe(200);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });
});

describe("openLoop", () => {
  it("sends at its rate whether or not the earlier requests were answered", async () => {
    // Each answer takes 300 ms: a closed loop on one connection has one request in flight; the open
    // loop sends one every 50 ms, so several wait at once.
    let inFlight = 0;
    let mostInFlight = 0;
    const server = createServer((_request, response) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        response.end("ok");
      }, 300);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await openLoop(`http://127.0.0.1:${port}/`, {}, { rate: 20, seconds: 1 });
      expect(result).toMatchObject({ sent: 20, answered: 20, non2xx: 0, errors: 0 });
      expect(result.p50Ms).toBeGreaterThanOrEqual(300);
      expect(mostInFlight).toBeGreaterThanOrEqual(5);
    } finally {
      server.close();
    }
  });
});
