import { data, isRouteErrorResponse, type RouterContextProvider, type ServerBuild } from "react-router";
import { currentUserContext } from "~/auth/current-user.server";
import { PasswordHashingBusyError } from "~/auth/password.server";
import { isDatabaseUnavailable } from "~/db/errors.server";
import { appContext } from "~/context/app-context.server";
import { reportUnexpectedError } from "./report.server";

export const unavailableMessage = "Cairn is unavailable right now. Try again shortly.";

/** Thrown on purpose by our code (`data()`, a Response or a redirect): React Router handles these. */
function isDeliberate(error: unknown): boolean {
  return (
    error instanceof Response ||
    isRouteErrorResponse(error) ||
    (typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit")
  );
}

type HandlerArgs = { request: Request; context: Readonly<RouterContextProvider> };

/**
 * Turns an unexpected error into a 500 route error that carries only its digest. React Router
 * would otherwise replace it with a bare "Unexpected Server Error" in production, losing the
 * digest on document and data requests alike.
 */
async function toRouteError(error: unknown, routeId: string, { request, context }: HandlerArgs): Promise<unknown> {
  if (isDeliberate(error) || request.signal.aborted) return error;
  const services = context.get(appContext);
  if (isDatabaseUnavailable(error)) {
    services.logger.warn({ err: error, route: routeId }, "Database unavailable");
    return data(unavailableMessage, { status: 503, headers: { "Retry-After": "5" } });
  }
  if (error instanceof PasswordHashingBusyError) {
    services.logger.warn({ route: routeId }, "Too busy hashing passwords");
    return data(unavailableMessage, { status: 503, headers: { "Retry-After": String(error.retryAfterSeconds) } });
  }
  const { digest, recorded } = reportUnexpectedError(error, {
    services,
    request,
    route: routeId,
    userId: context.get(currentUserContext)?.id,
  });
  await recorded;
  return data({ digest }, { status: 500 });
}

function guard<A extends HandlerArgs, R extends unknown[], T>(
  routeId: string,
  handler: (args: A, ...rest: R) => T,
): (args: A, ...rest: R) => Promise<Awaited<T>> {
  return async (args, ...rest): Promise<Awaited<T>> => {
    try {
      return await handler(args, ...rest);
    } catch (error) {
      throw await toRouteError(error, routeId, args);
    }
  };
}

type RouteHeaders = NonNullable<ServerBuild["routes"][string]>["module"]["headers"];

/**
 * A `Retry-After` that a loader, an action or an error set (429, 503) reaches the client whichever
 * route answered: React Router passes a route's headers on only through its `headers` export.
 */
function withRetryAfter(own: RouteHeaders): NonNullable<RouteHeaders> {
  return (args) => {
    const headers = new Headers(typeof own === "function" ? own(args) : (own ?? args.parentHeaders));
    const retryAfter = args.errorHeaders?.get("Retry-After") ?? args.actionHeaders.get("Retry-After") ?? args.loaderHeaders.get("Retry-After");
    if (retryAfter) headers.set("Retry-After", retryAfter);
    return headers;
  };
}

/**
 * Wraps every route's loader, action and middleware so that unexpected errors get a digest, and
 * every route's headers so that the Retry-After of a refusal is sent.
 */
export function withErrorDigests(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const module = { ...route.module };
    if (module.loader) module.loader = guard(id, module.loader);
    if (module.action) module.action = guard(id, module.action);
    if (module.middleware) module.middleware = module.middleware.map((fn) => guard(id, fn));
    module.headers = withRetryAfter(module.headers);
    routes[id] = { ...route, module };
  }
  return { ...build, routes };
}
