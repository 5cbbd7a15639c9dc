import type { OtlpExport } from "~/config/env.server";
import type { Logger } from "~/logging/logger.server";
import type { Telemetry } from "./telemetry.server";

/**
 * docs/product.md, Monitoring: with OTEL_EXPORTER_OTLP_ENDPOINT set, what Cairn monitors is also sent to the operator's
 * monitoring service over OTLP/HTTP (JSON), one OpenTelemetry log record per unexpected server error
 * and per accepted browser event. Records are queued and sent in batches in the background: sending
 * never holds up or fails a request, and a failed send is a warning in Cairn's own log.
 *
 * Attributes follow the OpenTelemetry semantic conventions where one fits (`exception.*`,
 * `http.request.method`, `url.path`, `http.route`, `user.id`, `user_agent.original`); the rest are
 * `cairn.*`: `cairn.event.kind` (server_error, client_error, web_vital), `cairn.digest` (as in the
 * log and /admin/monitoring), `cairn.request_id`, `cairn.web_vital.*`. A server error's `cairn.route`
 * is what its log line calls the route (a route id such as `routes/index`, not a path template).
 */

/** When no endpoint is configured: nothing is exported, and no OpenTelemetry object exists. */
export const noTelemetry: Telemetry = {
  serverError() {},
  browserEvents() {},
  shutdown: async () => {},
};

/**
 * The OpenTelemetry SDK is loaded only when an endpoint is configured (app/monitoring/otlp-sdk.server.ts):
 * an instance that exports nothing does not carry it in memory (issue 13: ~17 MiB).
 */
export async function createTelemetry(otlp: OtlpExport | undefined, logger: Logger): Promise<Telemetry> {
  if (!otlp) return noTelemetry;
  const { createOtlpTelemetry } = await import("./otlp-sdk.server");
  return createOtlpTelemetry(otlp, logger);
}
