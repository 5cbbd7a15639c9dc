import { readdirSync } from "node:fs";
import path from "node:path";
import express, { type Express } from "express";
import expressStaticGzip from "express-static-gzip";

/**
 * The production build's browser files. Only paths known at start-up reach the file system: every
 * other URL goes straight on to React Router, without a `stat()` per page request.
 * - `/assets/…`: names carry a content hash, so they are cached for good; the build wrote a brotli
 *   and a gzip copy beside each (vite.config.ts), sent as the browser accepts them.
 * - the files of `public/` (the favicon): cached for an hour.
 */
export function serveBuiltAssets(app: Express, clientDir: string): void {
  app.use(
    "/assets",
    expressStaticGzip(path.join(clientDir, "assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      serveStatic: { immutable: true, maxAge: "1y", index: false, fallthrough: false },
    }),
  );
  const publicFiles = new Set(
    readdirSync(clientDir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${entry.name}`),
  );
  const servePublic = express.static(clientDir, { maxAge: "1h", index: false });
  app.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));
}
