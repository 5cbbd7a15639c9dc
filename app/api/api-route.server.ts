import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { type ApiCaller, authenticateApiToken } from "~/auth/api-tokens.server";
import { appContext, type AppServices } from "~/context/app-context.server";
import { isDatabaseUnavailable } from "~/db/errors.server";
import { reportUnexpectedError } from "~/errors/report.server";
import { unavailableMessage } from "~/errors/route-errors.server";
import { apiErrorCodeOf, apiErrorResponse, ApiRefusal, type FieldMessages } from "./api-errors.server";

type RouteArgs = { request: Request; params: Record<string, string | undefined>; context: Readonly<RouterContextProvider> };

/** What an API handler gets: the route's arguments, who is calling, and the request's services. */
export type ApiArgs<Params> = { request: Request; url: URL; params: Params; caller: ApiCaller; services: AppServices };

/** What the token needs: reading (any token), or writing (a `write` token; the user's role decides the rest). */
type Access = "read" | "write";

const bearerChallenge = { "WWW-Authenticate": 'Bearer realm="Cairn"' };

/**
 * An API route's loader or action: authenticates the bearer token (never a cookie), counts the
 * request against the token's rate limit, refuses a `read` token's writes, runs the handler and
 * answers JSON — its result with 200, or the Response it made. Whatever goes wrong is a JSON error:
 * a refusal as its code, an unexpected error as 500 with only its digest (logged and recorded as
 * every unexpected error is).
 */
export function apiRoute<Args extends RouteArgs>(
  access: Access,
  handler: (args: ApiArgs<Args["params"]>) => Promise<unknown>,
): (args: Args) => Promise<Response> {
  return async (args) => {
    const services = args.context.get(appContext);
    const { request } = args;
    let rateHeaders: Record<string, string> = {};
    const answer = (response: Response) => {
      for (const [name, value] of Object.entries(rateHeaders)) response.headers.set(name, value);
      response.headers.set("Cache-Control", "private, no-store");
      return response;
    };
    try {
      const raw = /^Bearer +(\S+) *$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
      if (!raw) {
        throw new ApiRefusal("unauthenticated", "Send a personal access token (made at /settings/tokens) as Authorization: Bearer <token>.", { headers: bearerChallenge });
      }
      const authenticated = await authenticateApiToken(services.db, raw, { now: new Date(), perMinute: services.config.apiRatePerMinute });
      if (!authenticated) {
        throw new ApiRefusal("unauthenticated", "This token is not valid: it is unknown, revoked or expired.", {
          headers: { "WWW-Authenticate": 'Bearer realm="Cairn", error="invalid_token"' },
        });
      }
      const { caller, rate } = authenticated;
      rateHeaders = {
        "RateLimit-Limit": String(rate.limit),
        "RateLimit-Remaining": String(rate.remaining),
        "RateLimit-Reset": String(rate.resetSeconds),
        "RateLimit-Policy": `${rate.limit};w=60`,
      };
      if (rate.exceeded) {
        throw new ApiRefusal("rate_limited", `Too many requests. Try again in ${rate.resetSeconds} seconds.`, { headers: { "Retry-After": String(rate.resetSeconds) } });
      }
      if (access === "write" && caller.scope !== "write") throw new ApiRefusal("forbidden", "This token can only read: make a write token to change things.");
      const result = await handler({ request, url: new URL(request.url), params: args.params, caller, services });
      return answer(result instanceof Response ? result : Response.json(result));
    } catch (error) {
      return answer(apiError(error, services, request));
    }
  };
}

/** Any error as the API's JSON answer. */
function apiError(error: unknown, services: AppServices, request: Request): Response {
  if (error instanceof ApiRefusal) return apiErrorResponse(error.code, error.message, { fields: error.extra.fields, headers: error.extra.headers });
  // The pages' gates (app/auth/authorization.server.ts) throw `data(message, { status })`.
  if (isThrownData(error)) return apiErrorResponse(apiErrorCodeOf(error.init?.status ?? 500), String(error.data));
  if (isDatabaseUnavailable(error)) {
    services.logger.warn({ err: error, route: "api" }, "Database unavailable");
    return apiErrorResponse("unavailable", unavailableMessage, { headers: { "Retry-After": "5" } });
  }
  const { digest } = reportUnexpectedError(error, { services, request, route: "api" });
  return apiErrorResponse("unexpected", "Application error: something went wrong on our side.", { digest });
}

function isThrownData(error: unknown): error is { data: unknown; init: ResponseInit | null } {
  return typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit";
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A JSON body, validated by `schema` (the same field rules as the forms): 415 for another content
 * type, 400 for a body that is not UTF-8 JSON, 400 with each bad field's messages.
 */
export async function readJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.output<Schema>> {
  const type = request.headers.get("Content-Type")?.split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw new ApiRefusal("unsupported_media_type", "Send the body as JSON, with Content-Type: application/json.");
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(await request.arrayBuffer()));
  } catch {
    throw new ApiRefusal("validation", "The body is not valid JSON (in UTF-8).");
  }
  return validated(schema, value);
}

/** `value` as `schema` reads it, or a 400 naming each bad field. */
export function validated<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiRefusal("validation", "Some fields are not valid.", { fields: fieldMessages(parsed.error.issues) });
}

function fieldMessages(issues: readonly z.core.$ZodIssue[]): FieldMessages {
  const fields: FieldMessages = {};
  for (const issue of issues) {
    const name = issue.path.length ? issue.path.join(".") : "body";
    (fields[name] ??= []).push(issue.message);
  }
  return fields;
}

/** The answer to a method the URL does not take. */
export function methodNotAllowed(allowed: string[]): never {
  throw new ApiRefusal("method_not_allowed", `Use ${allowed.join(" or ")} here.`, { headers: { Allow: allowed.join(", ") } });
}

/** A domain function's refusal of one field (`{ field, message }`) as the API's 400. */
export function refuseField(problem: { field: string; message: string }): never {
  throw new ApiRefusal("validation", problem.message, { fields: { [problem.field]: [problem.message] } });
}
