import { type Cookie, createCookie } from "react-router";
import type { AppServices } from "~/context/app-context.server";
import { sessionLifetime } from "./sessions.server";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

type CookieServices = Pick<AppServices, "config" | "sessionSecret">;

/**
 * The session cookie holds only the session's random token. In production it is Secure and
 * `__Host-` prefixed wherever the browser allows it: over HTTPS, and on this machine (browsers
 * treat localhost as secure). A plain-HTTP production install on a LAN address still signs in.
 */
export function sessionCookie(services: CookieServices, request: Request): Cookie {
  const url = new URL(request.url);
  const secure = services.config.production && (url.protocol === "https:" || loopbackHosts.has(url.hostname));
  return createCookie(secure ? "__Host-cairn_session" : "cairn_session", {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: sessionLifetime.absoluteMs / 1000,
    secrets: [services.sessionSecret],
  });
}

/** Cookie headers remembered, and the longest one remembered: a browser's is a few hundred bytes. */
const rememberedHeaders = 500;
const rememberedHeaderLength = 512;

/** Verified Cookie headers and the session token each holds (or null), by secret: see readSessionToken. */
const tokensBySecret = new Map<string, Map<string, string | null>>();

/**
 * The session token the request's signed cookie holds, or null. Checking the signature is a
 * WebCrypto HMAC (about 4 % of a signed-in page's time), and a browser sends the same Cookie header
 * on every request, so the answer is remembered per header: the same header, signed with the same
 * secret, always gives the same answer. Whether the session is still valid is the database's to say.
 */
export async function readSessionToken(services: CookieServices, request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const cookie = sessionCookie(services, request);
  const key = `${cookie.name}\n${header}`;
  let remembered = tokensBySecret.get(services.sessionSecret);
  if (!remembered) tokensBySecret.set(services.sessionSecret, (remembered = new Map()));
  const known = remembered.get(key);
  if (known !== undefined) {
    // Map order is insertion order: moved to the end, it is the most recently used.
    remembered.delete(key);
    remembered.set(key, known);
    return known;
  }
  const value: unknown = await cookie.parse(header);
  const token = typeof value === "string" && value ? value : null;
  if (header.length <= rememberedHeaderLength) {
    remembered.set(key, token);
    if (remembered.size > rememberedHeaders) remembered.delete(remembered.keys().next().value!);
  }
  return token;
}
