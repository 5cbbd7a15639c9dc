import { randomBytes } from "node:crypto";
import type { RequestHandler, Response } from "express";
import helmet from "helmet";
import { beforeResponseHead } from "./response-head.server";

/** Gives every response its own CSP nonce, for React Router's scripts. */
export const cspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
};

/** An attachment's address (app/routes/w/$workspace/attachments/$id.$filename.ts), in any case, as React Router matches it. */
const attachmentFilePath = /^\/w\/[^/]+\/attachments\/\d+\/[^/]+$/i;

/**
 * An uploaded file is never a page of Cairn: opened on its own (an HTML file, an SVG), it runs in
 * a sandbox — no scripts, no forms, an origin of its own — and loads nothing but itself. Helmet's
 * `nosniff` keeps the browser to the type Cairn found in its bytes.
 */
const filePolicy = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";

/**
 * Security headers for every response. Scripts run only with this response's nonce (and what they
 * load, through 'strict-dynamic'); the development server's hot reload also needs websockets and
 * inline styles.
 */
export function securityHeaders({ development }: { development: boolean }): RequestHandler[] {
  // Decided as the answer starts, by the path the router served (resolved by then: malformed-requests.server.ts).
  const forFiles: RequestHandler = (req, res, next) => {
    beforeResponseHead(res, (response) => {
      if (attachmentFilePath.test(req.path)) response.setHeader("Content-Security-Policy", filePolicy);
    });
    next();
  };
  const forPages = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": [(_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`, "'strict-dynamic'"],
        "style-src": ["'self'", ...(development ? ["'unsafe-inline'"] : [])],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'", ...(development ? ["ws:"] : [])],
        "form-action": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
      },
    },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  return [forPages, forFiles];
}
