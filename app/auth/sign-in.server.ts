import { redirect } from "react-router";
import type { DatabaseHandle } from "~/db/database.server";
import { storedUserAgent } from "~/forms/fields.server";
import type { AppServices } from "~/context/app-context.server";
import { authenticate } from "./accounts.server";
import { sessionCookie } from "./session-cookie.server";
import { createSession } from "./sessions.server";
import { signInSucceeded, takeSignInAttempt, withdrawSignInAttempt } from "./sign-in-limit.server";

export type SignInCheck = { userId: number } | { incorrect: true } | { retryAfter: number };

/**
 * Checks an email and password within the sign-in limit: the attempt is counted first, then the
 * password is checked outside the limit's transaction (scrypt takes a while).
 */
export async function checkSignIn(
  handle: DatabaseHandle,
  credentials: { email: string; password: string; ip: string | null; now: Date },
): Promise<SignInCheck> {
  const taken = await takeSignInAttempt(handle, { email: credentials.email, ip: credentials.ip }, credentials.now);
  if ("retryAfter" in taken) return taken;
  let user: { id: number } | null;
  try {
    user = await authenticate(handle.db, credentials.email, credentials.password);
  } catch (error) {
    await withdrawSignInAttempt(handle.db, taken.attempt);
    throw error;
  }
  if (!user) return { incorrect: true };
  await signInSucceeded(handle.db, taken.attempt);
  return { userId: user.id };
}

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
