import type { Request, RequestHandler } from "express";
import { badRequestPage } from "./plain-page.server";

/**
 * RFC 9110 §7.2 `host[:port]`: a name or an IPv4 address, or an IPv6 address in brackets. Nothing a
 * URL would read as something else (user information, a path, a query).
 */
const hostPattern = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d*)?$/;

/** Whether a URL can be built on this host, as React Router's adapter does (`300.0.0.1` or port 99999 cannot). */
function isHost(value: string): boolean {
  return hostPattern.test(value) && URL.canParse(`http://${value}/`);
}

/**
 * A path as React Router's adapter resolves it (URL parsing: `..` and `%2e%2e` segments, `\` for
 * `/`), so that what the host decides by the path — the API's exemption from the cross-site check,
 * the uploads' body limit — is decided for the path the router serves.
 */
function resolvedPath(path: string): string {
  const url = new URL(`http://cairn.invalid${path}`);
  return url.pathname + url.search;
}

/** The path a request asks for on this site (resolved), or why it cannot be served. */
function requestedPath(req: Request): { path: string } | { malformed: string } {
  // Exactly one Host (RFC 9112 §3.2); HTTP/1.0 clients must send it too.
  const hosts = req.rawHeaders.filter((_value, index) => index % 2 === 1 && req.rawHeaders[index - 1]!.toLowerCase() === "host");
  if (hosts.length !== 1 || !isHost(hosts[0]!)) return { malformed: "a missing, repeated or invalid Host" };
  // Behind a trusted proxy the URL is built from its X-Forwarded-Host and -Proto instead (and the
  // adapter reads the forwarded port whenever `trust proxy` is on, whoever sent it).
  const forwardedHost = req.get("x-forwarded-host");
  if (req.app.enabled("trust proxy") && forwardedHost !== undefined && !forwardedHost.split(",").every((host) => isHost(host.trim()))) {
    return { malformed: "an invalid X-Forwarded-Host" };
  }
  if (req.protocol !== "http" && req.protocol !== "https") return { malformed: "a forwarded scheme other than http(s)" };
  if (req.url.startsWith("/")) return { path: resolvedPath(req.url) };
  // An absolute-form target (RFC 9112 §3.2.2) is served as the path it names, on this host only:
  // Cairn is no proxy.
  const target = URL.canParse(req.url) ? new URL(req.url) : null;
  if (!target || (target.protocol !== "http:" && target.protocol !== "https:") || target.username || target.password) {
    return { malformed: "a request target that is neither a path nor a URL" };
  }
  if (target.host !== new URL(`${target.protocol}//${hosts[0]}`).host) return { malformed: "a request target naming another host" };
  // Resolved as a URL already.
  return { path: target.pathname + target.search };
}

/**
 * A request whose Host (or trusted X-Forwarded-Host/-Proto) or target cannot make a URL of this
 * site gets 400 here, before React Router's adapter builds the request's URL from them and fails.
 * The connection is closed too: a client that sends this may have framed its request wrongly.
 */
export const refuseMalformedRequests: RequestHandler = (req, res, next) => {
  const requested = requestedPath(req);
  if ("path" in requested) {
    req.url = req.originalUrl = requested.path;
    return next();
  }
  req.log.debug({ reason: requested.malformed }, "Malformed request refused");
  res.status(400).set("Connection", "close").type("html").send(badRequestPage);
};
