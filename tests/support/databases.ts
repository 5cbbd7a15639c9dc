import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type DatabaseHandle, type Dialect } from "~/db/database.server";

/** Integration tests run on SQLite always, and on PostgreSQL when TEST_DATABASE_URL names a server. */
export const testDialects: Dialect[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

export type TestDatabase = {
  dialect: Dialect;
  /** For a server under test: DATABASE_URL (PostgreSQL) or DATA_DIR (SQLite). */
  env: { DATABASE_URL?: string; DATA_DIR: string };
  dataDir: string;
  open(): DatabaseHandle;
  drop(): Promise<void>;
};

async function onAdminConnection<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database of the given kind: a temporary SQLite file, or a new PostgreSQL database. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cairn-test-"));
  if (dialect === "sqlite") {
    return {
      dialect,
      dataDir,
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ databaseUrl: undefined, dataDir }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `cairn_test_${randomBytes(6).toString("hex")}`;
  await onAdminConnection((client) => client.query(`create database ${name}`));
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    dialect,
    dataDir,
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    open: () => openDatabase({ databaseUrl: url.toString(), dataDir }),
    drop: async () => {
      await onAdminConnection((client) => client.query(`drop database if exists ${name} with (force)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until `count` other sessions of the PostgreSQL database `client` is connected to are
 * blocked waiting for a lock: proof that concurrent transactions really do queue behind one.
 */
export async function waitForLockWaiters(client: pg.Client, count: number): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    // pg_stat_activity is read once per transaction unless the snapshot is cleared: `client` may be in one.
    await client.query("select pg_stat_clear_snapshot()");
    const { rows } = await client.query<{ waiting: number }>(
      `select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
    );
    if (rows[0]!.waiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`expected ${count} sessions waiting for a lock`);
}
