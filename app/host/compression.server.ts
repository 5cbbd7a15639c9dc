import compression from "compression";
import type { RequestHandler } from "express";

/**
 * `compression` hands the 'drain' listeners of a response to its zlib stream, so a listener added
 * with `once` (as React Router does each time it waits for the stream to drain) is never removed:
 * a long page leaked listeners and logged MaxListenersExceededWarning (expressjs/compression#135).
 * Here `once('drain')` removes the listener from whatever emitted the event, stream or response.
 */
const drainOnceThroughCompression: RequestHandler = (_req, res, next) => {
  const once = res.once.bind(res) as (event: string | symbol, listener: (...args: any[]) => void) => typeof res;
  res.once = ((event: string | symbol, listener: (...args: any[]) => void) => {
    if (event !== "drain") return once(event, listener);
    const removeThenCall = function (this: NodeJS.EventEmitter, ...args: unknown[]) {
      this.removeListener("drain", removeThenCall);
      listener.apply(this, args);
    };
    // Through `res.on`, which `compression` has replaced: the listener goes where 'drain' comes from.
    return res.on("drain", removeThenCall);
  }) as typeof res.once;
  next();
};

/** gzip/brotli for responses that are worth it, as `compression` decides. */
export const compressResponses: RequestHandler[] = [compression(), drainOnceThroughCompression];
