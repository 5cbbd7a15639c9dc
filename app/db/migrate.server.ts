import { setTimeout as sleep } from "node:timers/promises";
import type { Kysely } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import type { DatabaseHandle, Dialect } from "./database.server";

/** A file in /migrations: it is told which database it runs on, for the few types that differ. */
export type CairnMigration = {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
};

// Bundled into the server build, so production needs no TypeScript at run time.
const migrationModules = import.meta.glob<CairnMigration>("../../migrations/*.ts", { eager: true });

function provider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations() {
      const migrations: Record<string, Migration> = {};
      for (const [file, module] of Object.entries(migrationModules)) {
        const name = file.split("/").pop()!.replace(/\.ts$/, "");
        migrations[name] = { up: (db) => module.up(db, dialect) };
      }
      return migrations;
    },
  };
}

/**
 * Brings the schema up to date. On PostgreSQL Kysely holds an advisory lock while it migrates, so
 * instances starting together run each migration once.
 */
export async function migrateToLatest({ db, dialect }: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({ db, provider: provider(dialect) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    // SQLite: another process migrated the file under us (SQLITE_BUSY_SNAPSHOT): try again, briefly.
    if (error && dialect === "sqlite" && isSqliteBusy(error) && attempt < 50) {
      await sleep(100);
      continue;
    }
    if (error) throw error;
    return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  }
}

function isSqliteBusy(error: unknown): boolean {
  return String((error as { code?: unknown }).code ?? "").startsWith("SQLITE_BUSY");
}
