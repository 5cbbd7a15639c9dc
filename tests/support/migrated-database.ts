import { afterAll, beforeAll } from "vitest";
import type { Database, DatabaseHandle, Dialect } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createTestDatabase, type TestDatabase } from "./databases";

export type MigratedDatabase = { database: TestDatabase; handle: DatabaseHandle; db: Database };

/**
 * One new database of `dialect` for the surrounding describe block, migrated before its tests
 * (handed to `opened`) and dropped after them. One per block, not per test: creating a
 * PostgreSQL database is slow, so tests empty what they use instead.
 */
export function withMigratedDatabase(dialect: Dialect, opened: (migrated: MigratedDatabase) => void): void {
  let migrated: MigratedDatabase | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    const handle = database.open();
    migrated = { database, handle, db: handle.db };
    await migrateToLatest(handle);
    opened(migrated);
  });
  afterAll(async () => {
    await migrated?.handle.db.destroy();
    await migrated?.database.drop();
  });
}
