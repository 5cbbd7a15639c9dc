import { createContext } from "react-router";
import type { Config } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/database.server";
import type { Logger } from "~/logging/logger.server";
import type { Telemetry } from "~/monitoring/telemetry.server";
import type { Lifecycle } from "./lifecycle.server";

/**
 * What every loader and action can reach through `context.get(appContext)`. The host provides it
 * (`requestServices`, once per request); domain code reads it from here and never from the host.
 */
export type AppServices = DatabaseHandle & {
  config: Config;
  sessionSecret: string;
  lifecycle: Lifecycle;
  /** Exports server errors and browser events over OTLP when configured; otherwise does nothing. */
  telemetry: Telemetry;
  /** The request's logger: every line carries the request id. */
  logger: Logger;
  requestId: string;
  /** The client's address (from X-Forwarded-For only when TRUST_PROXY trusts the proxy). */
  clientIp: string | null;
  cspNonce: string;
  /** Set when rendering the document failed, so the error page can show the digest. */
  renderErrorDigest?: string;
};

export const appContext = createContext<AppServices>();

/** What the process has once, for every request. */
export type SharedServices = DatabaseHandle & {
  config: Config;
  lifecycle: Lifecycle;
  telemetry: Telemetry;
  /** Known once the app is ready (it may be made by the first migration). */
  sessionSecret: () => string;
};

/** One request's services: the process's, with the request's logger, id, address and CSP nonce. */
export function requestServices(
  shared: SharedServices,
  request: { logger: Logger; requestId: string; clientIp: string | null; cspNonce: string },
): AppServices {
  const { sessionSecret, ...rest } = shared;
  return {
    ...rest,
    get sessionSecret() {
      return sessionSecret();
    },
    ...request,
  };
}
