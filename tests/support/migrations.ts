import { readdirSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./paths";

/** Every migration in /migrations, in the order they run. */
export const allMigrations = readdirSync(path.join(repoRoot, "migrations"))
  .filter((file) => file.endsWith(".ts"))
  .map((file) => file.replace(/\.ts$/, ""))
  .sort();
