import { storedUserAgent } from "~/forms/fields.server";
import type { AppServices } from "~/context/app-context.server";
import { recordServerError } from "~/monitoring/server-errors.server";
import { errorDigest } from "./digest.server";

export type UnexpectedErrorReport = {
  digest: string;
  /** Settles once the error is stored for /admin/monitoring; never rejects. */
  recorded: Promise<void>;
};

/**
 * The one place an unexpected server error is handled: it gets a digest, is logged once in full
 * with the request's details, is recorded for /admin/monitoring, and is exported over OTLP when
 * that is configured. Only the digest may reach the browser.
 */
export function reportUnexpectedError(
  error: unknown,
  where: { services: AppServices; request: Request; route: string; userId?: number | null },
): UnexpectedErrorReport {
  const { services, request, route, userId = null } = where;
  const digest = errorDigest(error, route);
  const url = new URL(request.url);
  const err = error instanceof Error ? error : new Error(String(error));
  services.logger.error(
    { err, digest, route, method: request.method, url: url.pathname + url.search, userId },
    `Unexpected error, digest ${digest}`,
  );
  const event = {
    digest,
    route,
    url: url.pathname + url.search,
    method: request.method,
    message: `${err.name}: ${err.message}`,
    stack: err.stack ?? null,
    userId,
    userAgent: storedUserAgent(request),
    requestId: services.requestId,
    at: new Date(),
  };
  const recorded = recordServerError(services.db, event).catch((recordError: unknown) => {
    services.logger.warn({ err: recordError, digest }, "Could not record the error for monitoring");
  });
  services.telemetry.serverError(err, event);
  return { digest, recorded };
}
