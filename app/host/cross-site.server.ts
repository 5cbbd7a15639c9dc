import type { RequestHandler } from "express";
import { isApiPath } from "~/api/api-paths";
import { sendRefusal } from "./plain-page.server";

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);
const ownSites = new Set(["same-origin", "none"]);

/**
 * docs/product.md, Errors: a mutation from another origin is refused with 403. Browsers say where a request comes from
 * (Sec-Fetch-Site, or at least Origin), so a forged form post is caught; scripts and browsers that
 * send neither pass, as does the API, which cookies do not authenticate. Behind a TLS proxy, `trust proxy` makes req.protocol the visitor's https.
 */
export const refuseCrossSiteMutations: RequestHandler = (req, res, next) => {
  // The API reads no cookie (a bearer token in a header cannot be forged by another site's form).
  // req.path is the path the router serves (resolved in malformed-requests.server.ts): `/api/v1/../…` is no API path.
  if (safeMethods.has(req.method) || isApiPath(req.path)) return next();
  const site = req.get("sec-fetch-site");
  const origin = req.get("origin");
  const crossSite =
    (site !== undefined && !ownSites.has(site)) ||
    (origin !== undefined && origin !== `${req.protocol}://${req.get("host")}`);
  if (!crossSite) return next();
  sendRefusal(req, res, { status: 403, title: "Forbidden", message: "A request from another site was refused." });
};
