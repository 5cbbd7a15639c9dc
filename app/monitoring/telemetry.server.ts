import type { BeaconSender, BrowserEvent } from "./browser-events.server";
import type { ServerErrorEvent } from "./server-errors.server";

/**
 * What Cairn monitors, handed on to the operator's monitoring service (otlp-export.server.ts
 * describes how). A module of its own so that the exporter that picks one and the SDK that
 * implements it (loaded only when configured) each depend on it rather than on each other.
 */
export type Telemetry = {
  /** An unexpected server error, as reportUnexpectedError logged and recorded it. */
  serverError(error: Error, event: ServerErrorEvent): void;
  /** The events of a beacon that was accepted and recorded. */
  browserEvents(events: readonly BrowserEvent[], sender: BeaconSender): void;
  /** Sends what is still queued, waiting at most a few seconds; never rejects. For shutdown. */
  shutdown(): Promise<void>;
};
