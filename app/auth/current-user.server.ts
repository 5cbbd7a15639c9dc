import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { appContext, type AppServices } from "~/context/app-context.server";
import { isApiRequest } from "~/api/api-paths";
import { withRequestMemo } from "./request-memo.server";
import { readSessionToken, sessionCookie } from "./session-cookie.server";
import { findSessionUser, type SessionUser } from "./sessions.server";

/** Who is signed in for this request, resolved once by `sessionMiddleware`. */
export const currentUserContext = createContext<SessionUser | null>(null);

/**
 * Resolves the session cookie (one query: the session with its user); a cookie whose session has
 * ended is removed. The rest of a GET request runs with a memo, so that its loaders share their
 * lookups (`request-memo.server.ts`).
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const services = context.get(appContext);
  // While starting only the health checks get here, before the sessions table (and, on PostgreSQL,
  // the session secret) may exist: nobody is signed in.
  if (services.lifecycle.state === "starting") return next();
  // The API authenticates by bearer token alone (app/api/api-route.server.ts): a cookie is not even read.
  if (isApiRequest(request)) return next();
  return withRequestMemo(request, () => resolveSession(services, request, context, next));
};

async function resolveSession(
  services: AppServices,
  request: Request,
  context: Readonly<RouterContextProvider>,
  next: () => Promise<Response>,
): Promise<Response> {
  const token = await readSessionToken(services, request);
  const user = token ? await findSessionUser(services.db, token, new Date()) : null;
  context.set(currentUserContext, user);
  const response = await next();
  if (token && !user && !response.headers.has("Set-Cookie")) {
    response.headers.append("Set-Cookie", await sessionCookie(services, request).serialize("", { maxAge: 0 }));
  }
  return response;
}
