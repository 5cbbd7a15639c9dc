import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { AddressRefusedError, resolveWebhookTarget } from "./address-guard.server";

/** How long one attempt may take, connection to the end of the answer. */
export const webhookTimeoutMs = 10_000;

/**
 * The `webhook-signature` of Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body`, keyed with the secret's bytes (the base64 after `whsec_`).
 */
export function signWebhook(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64")}`;
}

export type AttemptOutcome = {
  /** A 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The address was refused (not public): trying again cannot help. */
  refused: boolean;
};

/**
 * POSTs one signed message to a webhook: the host is resolved and checked here, at send time, and
 * the connection goes to that checked address (a pinned `lookup`), so DNS cannot swap it between
 * the check and the connect. Redirects are not followed: a 3xx is a failure like any non-2xx.
 */
export async function sendWebhook(message: {
  url: string;
  messageId: string;
  body: string;
  secret: string;
  now: Date;
  allowPrivate: boolean;
  timeoutMs?: number;
}): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = message.timeoutMs ?? webhookTimeoutMs;
  const url = new URL(message.url);
  let target;
  try {
    target = await resolveWebhookTarget(url.hostname, message.allowPrivate);
  } catch (error) {
    // A refused address, or a name that does not resolve: said as it is.
    const refused = error instanceof AddressRefusedError && error.message.startsWith("Refused");
    return { ok: false, statusCode: null, error: error instanceof AddressRefusedError ? error.message : describe(error), durationMs: elapsed(), refused };
  }
  const timestamp = Math.floor(message.now.getTime() / 1000);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, "durationMs" | "refused">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed(), refused: false });
    };
    const request = client.request(
      url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(message.body),
          "user-agent": "Cairn-Webhooks/1",
          "webhook-id": message.messageId,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(message.secret, message.messageId, timestamp, message.body),
        },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        // The answer's body is read (so that the whole answer counts against the timeout) but not kept.
        response.resume();
        response.on("end", () => {
          const ok = statusCode >= 200 && statusCode < 300;
          finish({ ok, statusCode, error: ok ? null : statusCode >= 300 && statusCode < 400 ? `Redirect (${statusCode}) not followed` : `HTTP ${statusCode}` });
        });
        response.on("error", (error) => finish({ ok: false, statusCode, error: describe(error) }));
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, statusCode: null, error: `Timed out after ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    request.on("error", (error) => finish({ ok: false, statusCode: null, error: describe(error) }));
    request.end(message.body);
  });
}

function describe(error: unknown): string {
  const text = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}` : String(error);
  return text.replace(/\s+/g, " ").slice(0, 500);
}
