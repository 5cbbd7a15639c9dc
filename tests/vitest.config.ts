import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { exitUnlessSupportedNode } from "../node-runtime.js";

// The tests load better-sqlite3, which crashes on older Node: say so instead.
exitUnlessSupportedNode();

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root: repoRoot,
  resolve: { alias: { "~": `${repoRoot}app` } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
