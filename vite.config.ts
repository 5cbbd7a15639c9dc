import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

export default defineConfig(({ command }) => ({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  environments: {
    ssr: {
      // The production server is one bundle with its dependencies (decision record 015): loading
      // a few files rather than ~1,500 modules costs ~12 MiB less memory for as long as it runs.
      // Left out: the SQLite driver (native code), pino (its transports load files by path), and
      // React and React DOM (CommonJS, which a bundle would reach through a getter on every use);
      // `pg` is loaded on demand with `require`. The development server loads them as they are.
      resolve: command === "build" ? { noExternal: true, external: ["better-sqlite3", "pino", "pino-http", "react", "react-dom"] } : {},
      // The server bundle's entry is our Express host, which imports React Router's build. Its
      // source maps let the bench's profiles name the package each function came from.
      build: { sourcemap: true, rollupOptions: { input: "./app/host/main.server.ts" } },
    },
  },
  plugins: [tailwindcss(), reactRouter(), precompressedAssets()],
}));

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The browser's files are compressed once, when they are built, at the highest levels (brotli 11,
 * gzip 9): the server sends the `.br` or `.gz` beside each file (app/host/assets.server.ts) instead
 * of compressing it for every request. It runs after the server build, which writes the last of
 * them (React Router's browser manifest).
 */
function precompressedAssets(): Plugin {
  let assetsDir = "";
  return {
    name: "cairn:precompressed-assets",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    configResolved(config) {
      assetsDir = path.resolve(config.root, config.environments.client?.build.outDir ?? "build/client", "assets");
    },
    async closeBundle() {
      const files = (await readdir(assetsDir)).filter((name) => /\.(js|css|svg)$/.test(name));
      await Promise.all(
        files.map(async (name) => {
          const source = await readFile(path.join(assetsDir, name));
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
            gzipped(source, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(path.join(assetsDir, `${name}.br`), br), writeFile(path.join(assetsDir, `${name}.gz`), gz)]);
        }),
      );
    },
  };
}
