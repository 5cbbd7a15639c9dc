import { redirect } from "react-router";
import { storedUserAgent } from "~/forms/fields.server";
import type { AppServices } from "~/host/app-context.server";
import { sessionCookie } from "./session-cookie.server";
import { createSession } from "./sessions.server";

/** Starts a session for the user and sends them on, with the session cookie. */
export async function signInAndRedirect(services: AppServices, request: Request, userId: number, to: string) {
  const token = await createSession(services.db, {
    userId,
    userAgent: storedUserAgent(request),
    ip: services.clientIp,
    now: new Date(),
  });
  return redirect(to, { headers: { "Set-Cookie": await sessionCookie(services, request).serialize(token) } });
}
