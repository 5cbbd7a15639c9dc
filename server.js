// Starts Cairn. By default it serves the production build (building it first if there is none);
// with NODE_ENV=development it runs the TypeScript sources through Vite with hot reload.
// `node server.js backup [FILE]` makes an online copy of the embedded database instead, and
// `node server.js seed [--workspace SLUG] [--issues COUNT]` fills the database with a demo workspace.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

if (process.env.NODE_ENV === "development") {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { start } = await vite.ssrLoadModule("./app/host/main.server.ts");
  await start({ vite });
} else {
  process.env.NODE_ENV = "production";
  const entry = new URL("./build/server/index.js", import.meta.url);
  if (!existsSync(entry)) {
    console.log("There is no production build yet: building it (this takes a minute)…");
    const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  const server = await import(entry.href);
  if (process.argv[2] === "backup") await server.backup(process.argv[3]);
  else if (process.argv[2] === "seed") await server.seed(process.argv.slice(3));
  else await server.start({ clientDir: fileURLToPath(new URL("./build/client", import.meta.url)) });
}
