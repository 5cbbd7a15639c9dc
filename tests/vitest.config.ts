import { availableParallelism } from "node:os";
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
    // Most integration files wait on servers they spawn, on PostgreSQL or on scrypt, and each uses a
    // database of its own: a file more than the machine has cores keeps both cores busy (Vitest's
    // default, cores − 1, runs one file at a time on a 2-core machine).
    maxWorkers: availableParallelism() + 1,
  },
});
