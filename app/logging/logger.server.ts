import { pino } from "pino";
import type { LogLevel } from "~/config/env.server";

export type Logger = pino.Logger;

/** Structured JSON logs on standard output, one object a line. */
export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    base: { service: "cairn" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
  });
}
