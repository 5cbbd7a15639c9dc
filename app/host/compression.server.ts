import compression from "compression";
import type { RequestHandler } from "express";

/**
 * `compression` hands the 'drain' listeners of a response to its zlib stream, so a listener added
 * with `once` (as React Router does each time it waits for the stream to drain) is never removed:
 * a long page leaked listeners and logged MaxListenersExceededWarning (expressjs/compression#135).
 * Here `once('drain')` removes the listener from whatever emitted the event, stream or response.
 */
const drainOnceThroughCompression: RequestHandler = (_req, res, next) => {
  const once = res.once.bind(res) as (event: string | symbol, listener: (...args: unknown[]) => void) => typeof res;
  res.once = ((event: string | symbol, listener: (...args: unknown[]) => void) => {
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

/**
 * React Router's Express adapter flushes the response after every chunk it writes, and each flush
 * makes `compression` end a deflate block (Z_SYNC_FLUSH) and hand it out. Nothing Cairn sends needs
 * to arrive in parts — pages are rendered whole, loaders never defer (decision record 012) — so the
 * flushes are dropped and each response is compressed in one go, which is faster and smaller.
 */
const noFlushes: RequestHandler = (_req, res, next) => {
  (res as typeof res & { flush?: () => void }).flush = () => {};
  next();
};

/** gzip/brotli for responses that are worth it, as `compression` decides. */
export const compressResponses: RequestHandler[] = [compression(), drainOnceThroughCompression, noFlushes];
