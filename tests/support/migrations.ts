import { readdirSync } from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { type Migration, Migrator } from "kysely/migration";
import type { CairnMigration } from "~/db/migrate.server";
import type { DatabaseHandle, Dialect } from "~/db/database.server";
import { repoRoot } from "./paths";

/** Every migration in /migrations, in the order they run. */
export const allMigrations = readdirSync(path.join(repoRoot, "migrations"))
  .filter((file) => file.endsWith(".ts"))
  .map((file) => file.replace(/\.ts$/, ""))
  .sort();

const migrationModules = import.meta.glob<CairnMigration>("../../migrations/*.ts", { eager: true });

/**
 * Runs the migrations named before `first` (e.g. "0016"), so that a test can write rows as they were
 * then and see what `first` and the later ones make of them. Returns the database, untyped: its
 * tables are not yet what `DB` says.
 */
export async function migrateBefore(handle: DatabaseHandle, dialect: Dialect, first: string): Promise<Kysely<any>> {
  const before: Record<string, Migration> = {};
  for (const [file, module] of Object.entries(migrationModules)) {
    const name = file.split("/").pop()!.replace(/\.ts$/, "");
    if (name < first) before[name] = { up: (db: Kysely<any>) => module.up(db, dialect) };
  }
  const { error } = await new Migrator({ db: handle.db, provider: { getMigrations: async () => before } }).migrateToLatest();
  if (error) throw error;
  return handle.db;
}
