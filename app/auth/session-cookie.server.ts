import { createCookie } from "react-router";
import type { AppServices } from "~/host/app-context.server";
import { sessionLifetime } from "./sessions.server";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The session cookie holds only the session's random token. In production it is Secure and
 * `__Host-` prefixed wherever the browser allows it: over HTTPS, and on this machine (browsers
 * treat localhost as secure). A plain-HTTP production install on a LAN address still signs in.
 */
export function sessionCookie(services: Pick<AppServices, "config" | "sessionSecret">, request: Request) {
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
