// Latency a user feels: requests sent at a fixed rate whatever the server does (an open loop), one
// every 1/rate seconds whether or not the earlier ones were answered, each timed from its sending to
// its response's last byte. autocannon's closed loop (a connection waits for its answer before it
// asks again) measures the queue at saturation instead, and slows its own sending when the server
// slows, which hides the wait a request sent at that moment would have had.
import http from "node:http";

const timeoutMs = 30_000;

/**
 * The nearest-rank percentile: the smallest value that `p` % of the values are at most.
 * @param {number[]} values @param {number} p from 0 to 100 @returns {number | null} null when there are none
 */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return /** @type {number} */ (sorted[rank - 1]);
}

/**
 * @typedef {{ rate: number, seconds: number, sent: number, answered: number, non2xx: number, errors: number, p50Ms: number | null, p99Ms: number | null, maxMs: number | null, maxSendLagMs: number }} OpenLoopResult
 */

/**
 * Sends GET `target` `rate` times a second for `seconds`, on keep-alive connections (as many as the
 * requests in flight need), and waits for every answer.
 * @param {string} target @param {Record<string, string>} headers @param {{ rate: number, seconds: number }} options
 * @returns {Promise<OpenLoopResult>} latencies in ms; `maxSendLagMs`, how late the sender was at
 *   worst (this process's own event loop), so that a busy client shows instead of passing for a slow server
 */
export async function openLoop(target, headers, { rate, seconds }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const interval = 1000 / rate;
  const total = Math.round(rate * seconds);
  /** @type {number[]} */
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  let maxSendLagMs = 0;
  /** @type {Promise<void>[]} */
  const answers = [];
  /** @param {number} due when it should be sent (performance.now()) @returns {Promise<void>} */
  const send = (due) =>
    new Promise((resolve) => {
      const sentAt = performance.now();
      maxSendLagMs = Math.max(maxSendLagMs, sentAt - due);
      let settled = false;
      /** @param {number | null} status null when it failed */
      const settle = (status) => {
        if (settled) return;
        settled = true;
        if (status === null) errors++;
        else {
          latencies.push(performance.now() - sentAt);
          if (status < 200 || status >= 300) non2xx++;
        }
        resolve();
      };
      const request = http.get(target, { agent, headers, timeout: timeoutMs }, (response) => {
        response.on("data", () => {});
        response.on("end", () => settle(response.statusCode ?? 0));
        response.on("error", () => settle(null));
      });
      // A request unanswered this long counts as failed rather than holding the run.
      request.on("timeout", () => request.destroy(new Error("timed out")));
      request.on("error", () => settle(null));
    });
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    // Each send is due at start + i × interval, not one interval after the last: no drift.
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    answers.push(send(due));
  }
  await Promise.all(answers);
  agent.destroy();
  const round = (/** @type {number | null} */ ms) => (ms === null ? null : Math.round(ms * 10) / 10);
  return {
    rate,
    seconds,
    sent: total,
    answered: latencies.length,
    non2xx,
    errors,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.length ? Math.max(...latencies) : null),
    maxSendLagMs: Math.round(maxSendLagMs * 10) / 10,
  };
}
