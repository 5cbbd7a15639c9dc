import { currentUserContext } from "~/auth/current-user.server";
import { storedUserAgent } from "~/forms/fields.server";
import { appContext } from "~/context/app-context.server";
import { beaconLimits, beaconSchema, recordBeacon, takeBeaconSlot } from "~/monitoring/browser-events.server";
import { appRoutePatterns, withRoutePatterns } from "~/monitoring/route-patterns.server";
import type { Route } from "./+types/monitoring";

/**
 * `POST /monitoring`: the browser's error and web-vital beacons (docs/product.md, Monitoring), sent by
 * app/monitoring/reporting.client.ts with navigator.sendBeacon. A beacon is JSON of at most 64 KiB
 * (docs/product.md, Limits), `{ events: [...] }` with 1 to 50 events; a client sends at most 60 a minute. Anything
 * else is refused (400, 413, 415, 429) and nothing of it is recorded or exported. Same-origin only: the host
 * refuses cross-site POSTs before they get here.
 */
export function loader() {
  return plain(405, "Send monitoring beacons with POST.", { Allow: "POST" });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return plain(405, "Send monitoring beacons with POST.", { Allow: "POST" });
  if (!acceptedContentType(request.headers.get("Content-Type"))) {
    return plain(415, "A monitoring beacon is JSON, sent as application/json or text/plain.");
  }
  const tooLarge = () => plain(413, `That is too large. A monitoring beacon may be at most ${beaconLimits.maxBytes / 1024} KiB.`);
  // Refused before a byte is read when the length says so (the host refuses bodies without one).
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (!Number.isSafeInteger(length) || length > beaconLimits.maxBytes) return tooLarge();

  const services = context.get(appContext);
  const now = new Date();
  const retryAfter = await takeBeaconSlot(services, services.clientIp ?? "unknown", now);
  if (retryAfter !== null) {
    return plain(429, `Too many attempts. Try again in ${retryAfter} seconds.`, { "Retry-After": String(retryAfter) });
  }

  const body = await readAtMost(request, beaconLimits.maxBytes);
  if (body === "too large") return tooLarge();
  if (body === "unreadable") return plain(400, "That is not a valid monitoring beacon.");
  const parsed = beaconSchema.safeParse(parseJson(body));
  if (!parsed.success) return plain(400, "That is not a valid monitoring beacon.");
  const beacon = withRoutePatterns(parsed.data, await appRoutePatterns());
  if (!beacon) return plain(400, "That is not a valid monitoring beacon.");

  const user = context.get(currentUserContext);
  const sender = {
    userId: user?.id ?? null,
    userAgent: storedUserAgent(request),
    requestId: services.requestId,
    at: now,
  };
  const stored = await recordBeacon(services, beacon, sender);
  // Only what was accepted and stored is exported.
  services.telemetry.browserEvents(stored, sender);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

function plain(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(`${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/** navigator.sendBeacon sends a Blob's type (application/json), or text/plain for a string. */
function acceptedContentType(header: string | null): boolean {
  const type = header?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" || type === "text/plain";
}

/**
 * The body's bytes, "too large" as soon as there are more than `max` of them, or "unreadable" when
 * the client went away mid-body.
 */
async function readAtMost(request: Request, max: number): Promise<Uint8Array | "too large" | "unreadable"> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      return "unreadable";
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return "too large";
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The JSON value of UTF-8 bytes, or undefined for anything that is not (which the schema refuses). */
function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}
