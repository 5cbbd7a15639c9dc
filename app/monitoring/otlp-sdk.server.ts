import { type Attributes, diag, DiagLogLevel, type LogRecord, SeverityNumber } from "@opentelemetry/api";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider } from "@opentelemetry/sdk-logs";
import type { OtlpExport } from "~/config/env.server";
import type { Logger } from "~/logging/logger.server";
import { clientErrorDigest, pathOnly } from "./browser-events.server";
import type { Telemetry } from "./telemetry.server";

/** Telemetry over OTLP/HTTP, as app/monitoring/otlp-export.server.ts describes. */
/** Long enough for one batch to reach a healthy collector; short against an orchestrator's stop timeout. */
const shutdownTimeoutMs = 5000;

export function createOtlpTelemetry(otlp: OtlpExport, logger: Logger): Telemetry {

  // The SDK reports failed exports through OpenTelemetry's diagnostic logger, silent by default.
  diag.setLogger(
    {
      error: (message) => logger.warn(`OTLP export: ${message}`),
      warn: (message) => logger.warn(`OTLP export: ${message}`),
      info() {},
      debug() {},
      verbose() {},
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );

  const provider = new LoggerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, as the SDK defines them, override ours.
    resource: defaultResource()
      .merge(resourceFromAttributes({ "service.name": "cairn" }))
      .merge(detectResources({ detectors: [envDetector] })),
    processors: [
      new BatchLogRecordProcessor({
        // Headers, timeout, compression and certificates come from the standard OTEL_EXPORTER_OTLP_* variables.
        exporter: new OTLPLogExporter({ url: otlp.logsUrl }),
        scheduledDelayMillis: otlp.scheduleDelayMs,
      }),
    ],
  });
  const otelLogger = provider.getLogger("cairn.monitoring");
  // Not the whole URL: it may carry credentials.
  const { origin, pathname } = new URL(otlp.logsUrl);
  logger.info({ url: origin + pathname }, "Exporting server errors and browser events over OTLP");

  function emit(record: LogRecord) {
    try {
      otelLogger.emit(record);
    } catch (error) {
      logger.warn({ err: error }, "OTLP export: could not queue a log record");
    }
  }

  return {
    serverError(error, event) {
      emit({
        timestamp: event.at,
        severityNumber: SeverityNumber.ERROR,
        severityText: "ERROR",
        body: event.message,
        attributes: presentOnly({
          "cairn.event.kind": "server_error",
          "cairn.digest": event.digest,
          "cairn.route": event.route,
          "cairn.request_id": event.requestId,
          "exception.type": error.name,
          "exception.message": error.message,
          "exception.stacktrace": event.stack,
          "http.request.method": event.method,
          "url.path": pathOnly(event.url),
          "user.id": event.userId?.toString(),
          "user_agent.original": event.userAgent,
        }),
      });
    },

    browserEvents(events, sender) {
      const common = {
        "cairn.request_id": sender.requestId,
        "user.id": sender.userId?.toString(),
        "user_agent.original": sender.userAgent,
      };
      for (const event of events) {
        const where = { "http.route": event.route, "url.path": pathOnly(event.url) };
        if (event.kind === "client_error") {
          emit({
            timestamp: sender.at,
            severityNumber: SeverityNumber.ERROR,
            severityText: "ERROR",
            body: event.message,
            attributes: presentOnly({
              "cairn.event.kind": "client_error",
              "cairn.digest": clientErrorDigest(event),
              "exception.message": event.message,
              "exception.stacktrace": event.stack,
              ...where,
              ...common,
            }),
          });
        } else {
          emit({
            timestamp: sender.at,
            severityNumber: SeverityNumber.INFO,
            severityText: "INFO",
            body: `${event.name} ${event.value} (${event.rating})`,
            attributes: presentOnly({
              "cairn.event.kind": "web_vital",
              "cairn.web_vital.name": event.name,
              "cairn.web_vital.value": event.value,
              "cairn.web_vital.rating": event.rating,
              ...where,
              ...common,
            }),
          });
        }
      }
    },

    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timed out">((resolve) => {
        timer = setTimeout(() => resolve("timed out"), shutdownTimeoutMs);
      });
      const flushed = provider.shutdown().then(
        () => "flushed" as const,
        (error: unknown) => {
          logger.warn({ err: error }, "OTLP export: could not send the last log records");
          return "failed" as const;
        },
      );
      if ((await Promise.race([flushed, timedOut])) === "timed out") {
        logger.warn({ timeoutMs: shutdownTimeoutMs }, "OTLP export: gave up sending the last log records");
      }
      clearTimeout(timer);
    },
  };
}

/** Absent values are left out rather than sent as empty ones. */
function presentOnly(attributes: Record<string, string | number | null | undefined>): Attributes {
  return Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== null && value !== undefined));
}
