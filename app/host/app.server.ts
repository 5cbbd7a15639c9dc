import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { createRequestHandler } from "@react-router/express";
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import { pinoHttp } from "pino-http";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { formatBytes, maxFilesPerRequest } from "~/attachments/attachments";
import type { AttachmentLimits, Config } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/database.server";
import type { ApiErrorBody, ApiErrorCode } from "~/api/api-errors.server";
import { isApiPath } from "~/api/api-paths";
import { reportUnexpectedError } from "~/errors/report.server";
import { unavailableMessage } from "~/errors/route-errors.server";
import type { Logger } from "~/logging/logger.server";
import type { Telemetry } from "~/monitoring/telemetry.server";
import { appContext, type AppServices, requestServices } from "~/context/app-context.server";
import { serveBuiltAssets } from "./assets.server";
import { compressResponses } from "./compression.server";
import { refuseCrossSiteMutations } from "./cross-site.server";
import type { Lifecycle } from "~/context/lifecycle.server";
import { refuseMalformedRequests } from "./malformed-requests.server";
import { beforeResponseHead } from "./response-head.server";
import { plainPage, sendRefusal } from "./plain-page.server";
import { cspNonce, securityHeaders } from "./security-headers.server";
import { serverTiming } from "./server-timing.server";

export type HostOptions = {
  config: Config;
  logger: Logger;
  lifecycle: Lifecycle;
  telemetry: Telemetry;
  database: DatabaseHandle;
  /** Known once the app is ready: refuseWhileStarting keeps every request that signs a cookie out until then. */
  sessionSecret: () => string;
  /** Development: loaded anew for every request (Vite recompiles it). Production: loaded once. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Development: Vite serves assets and compiles on demand. Production: the built client files. */
  assets: { vite: ViteDevServer } | { clientDir: string };
};

/** docs/product.md, Limits: no request body over 1 MiB, but for forms that carry files. */
const maxBodyBytes = 1024 * 1024;

/**
 * The forms that carry files (`multipart/form-data`): a new issue, an issue (attach, comment) and
 * the upload of a file dropped into a text box — each as a page's URL or, with JavaScript, its `.data`.
 */
const uploadPath = /^\/w\/[^/]+\/(?:attachments|p\/[^/]+\/issues\/(?:new|\d+))(?:\.data)?$/;
const requestIdPattern = /^[\w.:-]{1,128}$/;

/** The Express application: logging, security headers, malformed requests, liveness, assets, then React Router. */
export function createHostApp(options: HostOptions): express.Express {
  const { config, logger, lifecycle, assets } = options;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);

  app.use(settleUnreadBodies);
  app.use(
    pinoHttp({
      logger,
      quietReqLogger: true,
      genReqId(req, res) {
        // A request id from a trusted proxy links our log line to its own.
        const incoming = req.headers["x-request-id"];
        const id =
          config.trustProxy && typeof incoming === "string" && requestIdPattern.test(incoming) ? incoming : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      // 503 is the expected answer while starting or draining (health checks ask): a warning, not an error.
      customLogLevel: (_req, res, error) => (error || (res.statusCode >= 500 && res.statusCode !== 503) ? "error" : res.statusCode === 503 ? "warn" : "info"),
      // The error itself is logged once, with its digest, where it happened; not again here.
      customErrorObject: (_req, _res, _error, { err: _err, ...line }) => line,
      serializers: {
        req: (req: { method: string; url: string; remoteAddress?: string }) => ({
          method: req.method,
          url: req.url,
          remoteAddress: req.remoteAddress,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(cspNonce, securityHeaders({ development: !config.production }));
  app.use(refuseMalformedRequests);
  // Liveness answers here, not in React Router, whose root middleware looks up the session in the
  // database: an outage must not make the process look dead.
  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").type("text/plain").send("ok\n");
  });
  if ("vite" in assets) app.use(assets.vite.middlewares);
  else serveBuiltAssets(app, assets.clientDir);
  app.use(compressResponses);

  app.use(refuseWhileStarting(lifecycle), refuseLargeBodies(config.attachments), refuseCrossSiteMutations, serverTiming, retryAfterWhenUnavailable);
  app.use(
    createRequestHandler({
      build: options.build,
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(appContext, services(options, req, res.locals.cspNonce));
        return context;
      },
    }),
  );
  app.use(lastResortErrorHandler(options));
  return app;
}

function services(options: HostOptions, req: Request, nonce: string): AppServices {
  const { config, lifecycle, telemetry, sessionSecret, database } = options;
  return requestServices(
    { ...database, config, lifecycle, telemetry, sessionSecret },
    { logger: req.log, requestId: String(req.id), clientIp: req.ip ?? null, cspNonce: nonce },
  );
}

/** Until migrations are done only the health checks answer (/healthz is answered before this). */
function refuseWhileStarting(lifecycle: Lifecycle): RequestHandler {
  return (req, res, next) => {
    if (lifecycle.state !== "starting" || req.path === "/readyz") return next();
    res.set("Retry-After", "5");
    sendRefusal(req, res, { status: 503, title: "Unavailable", message: unavailableMessage });
  };
}

/**
 * Every 503 says when to try again. Routes set their own Retry-After, but React Router drops the
 * headers of an error thrown by a middleware (the session lookup, when the database is down).
 */
const retryAfterWhenUnavailable: RequestHandler = (_req, res, next) => {
  beforeResponseHead(res, (response, status) => {
    if (status === 503 && !response.hasHeader("Retry-After")) response.setHeader("Retry-After", "5");
  });
  next();
};

/**
 * docs/product.md, Limits: a request body is at most 1 MiB; one that carries files to where files go,
 * at most 10 of them at ATTACHMENT_MAX_BYTES each (each file's own size is the route's to refuse,
 * with the rest of its form kept). A body must say its length (browsers always do), so that it is
 * refused before it is read; a streamed one without a length gets 411.
 */
function refuseLargeBodies(limits: AttachmentLimits): RequestHandler {
  const maxUploadBytes = maxFilesPerRequest * limits.maxBytes + maxBodyBytes;
  const uploadLimit = `Files may be at most ${formatBytes(limits.maxBytes)} each, ${maxFilesPerRequest} at a time.`;
  return (req, res, next) => {
    const length = req.headers["content-length"];
    if (length === undefined && req.headers["transfer-encoding"]) {
      if (isApiPath(req.path)) apiRefusal(res, 411, "validation", "Send the request with a Content-Length of at most 1 MiB.");
      else sendRefusal(req, res, { status: 411, title: "Length required", message: "Send the request with a Content-Length of at most 1 MiB." });
      return;
    }
    const upload = req.method === "POST" && uploadPath.test(req.path) && req.is("multipart/form-data") === "multipart/form-data";
    if (Number(length ?? 0) <= (upload ? maxUploadBytes : maxBodyBytes)) return next();
    if (isApiPath(req.path)) apiRefusal(res, 413, "payload_too_large", "That is too large. Requests may be at most 1 MiB.");
    else sendRefusal(req, res, { status: 413, title: "Too large", message: upload ? `That is too large. ${uploadLimit}` : "That is too large. Requests may be at most 1 MiB." });
  };
}

/** A refusal made here, before React Router, to an API request: JSON like the API's own (app/api/api-errors.server.ts). */
function apiRefusal(res: Response, status: number, code: ApiErrorCode, message: string) {
  res.status(status).json({ error: { code, message } } satisfies ApiErrorBody);
}

/**
 * Many answers are decided on a request's head alone, its body unread: the limits above, a route's
 * 413, 415 or 429, a sign-in or an API refusal, a redirect to sign in. A connection can carry the
 * client's next request only once that body is off the wire, and Node discards an unread body only
 * when nothing started reading it — React Router's adapter always has. So, whoever answers: an answer
 * that starts before its request's body has all arrived closes its connection (lingering, below),
 * and an answered request's body that arrived but was not read is discarded.
 */
const settleUnreadBodies: RequestHandler = (req, res, next) => {
  if (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined) return next();
  beforeResponseHead(res, () => {
    if (!req.complete) closeAfterRefusingBody(req, res);
  });
  res.once("finish", () => discardUnreadBody(req));
  next();
};

/** What Node does with a body no one read (`IncomingMessage._dump`), for one whose reader gave up. */
function discardUnreadBody(req: Request) {
  if (req.readableEnded) return;
  req.removeAllListeners("data");
  req.resume();
}

/** How long a refused body may keep arriving before its connection is cut. */
const lingerMs = 2000;

/**
 * The body of a refused request is never read, so its connection is closed after the answer: kept
 * alive, it would wait for that body and read the client's next request as part of it. But closing
 * a socket with data still arriving resets the connection, and the client — which, like a browser
 * posting a form, may still be sending — can lose the answer. So the answer is sent and the sending
 * side closed, then what the client still sends is read and dropped until it closes its side, for
 * at most `lingerMs` ("lingering close", as nginx and Apache do).
 */
function closeAfterRefusingBody(req: Request, res: Response) {
  res.set("Connection", "close");
  const socket = req.socket;
  // Node closes a `Connection: close` socket with destroySoon once the answer is written.
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    const cut = setTimeout(() => this.destroy(), lingerMs);
    this.once("close", () => clearTimeout(cut));
    this.once("end", () => this.destroy());
    this.resume();
  };
}

/** Errors that escape React Router (they should not): logged with a digest like any other. */
function lastResortErrorHandler(options: HostOptions): ErrorRequestHandler {
  return (error, req, res, _next) => {
    // Errors Express raises itself for a bad request (a missing asset, say) keep their status.
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      sendRefusal(req, res, status === 404 ? { status, title: "Not found", message: "Page not found." } : { status, title: "Bad request", message: "That request was not valid." });
      return;
    }
    const request = new globalThis.Request(new URL(req.originalUrl, "http://cairn.invalid"), { method: req.method });
    const { digest } = reportUnexpectedError(error, {
      services: services(options, req, res.locals.cspNonce),
      request,
      route: "host",
    });
    if (res.headersSent) return res.end();
    res
      .status(500)
      .type("html")
      .send(plainPage("Something went wrong", "Application error: something went wrong on our side.", digest));
  };
}
