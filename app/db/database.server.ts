import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  PostgresDialect,
  sql,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDatabase,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import type pg from "pg";
import { withNamedStatements } from "./postgres-statements.server";
import { tallyQuery, tallyStatementPrepared } from "./query-tally.server";
import type { DB } from "./schema";

export type Database = Kysely<DB>;
export type Dialect = "sqlite" | "postgres";

export type DatabaseHandle = { db: Database; dialect: Dialect };

export const sqliteFileName = "cairn.sqlite";

/**
 * The PostgreSQL driver is loaded only when DATABASE_URL is set: an instance on SQLite does not
 * carry it in memory (issue 13: ~15 MiB).
 */
function loadPostgresDriver(): typeof pg {
  return createRequire(import.meta.url)("pg") as typeof pg;
}

/** PostgreSQL's timestamps and dates come back as the same strings SQLite stores. */
function postgresTypes(driver: typeof pg): pg.CustomTypesConfig {
  return {
    getTypeParser(oid: number, format?: "text" | "binary") {
      const builtins = driver.types.builtins;
      if (oid === builtins.TIMESTAMPTZ || oid === builtins.TIMESTAMP) {
        const parseDate = driver.types.getTypeParser(oid);
        return (value: string) => (parseDate(value) as Date).toISOString();
      }
      if (oid === builtins.DATE) return (value: string) => value;
      if (oid === builtins.INT8) return (value: string) => Number(value);
      if (oid === builtins.NUMERIC) return (value: string) => Number(value);
      return driver.types.getTypeParser(oid, format);
    },
  };
}

/**
 * Kysely takes no lock for SQLite migrations. Running them in one transaction that first writes to
 * the lock table makes another process migrating the same file wait, then see the work done.
 */
class SqliteMigrationLockAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl() {
    return true;
  }

  override async acquireMigrationLock(db: Kysely<unknown>, options: { lockTable: string; lockRowId: string }) {
    await sql`update ${sql.table(options.lockTable)} set is_locked = 1 where id = ${options.lockRowId}`.execute(db);
  }
}

/**
 * Every transaction of ours writes, so it starts with BEGIN IMMEDIATE: it takes the write lock
 * first and waits (busy_timeout) for another process's. A plain BEGIN that reads first would fail
 * at once with SQLITE_BUSY when another process wrote in between.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class CairnSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }

  override createAdapter(): DialectAdapter {
    return new SqliteMigrationLockAdapter();
  }
}

/** How many distinct statements stay prepared: the app has a few hundred queries' shapes. */
const preparedStatements = 1000;

/**
 * Kysely asks better-sqlite3 to prepare every statement anew (issue 13: 3.5–3.8 % of the issue
 * list's time). The same SQL text gets the same prepared statement back, least recently used
 * dropped first; one that is still being iterated is never handed out twice. Each statement
 * actually prepared is counted into the request's tally.
 */
function withPreparedStatements(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        // Map order is insertion order: moved to the end, it is the most recently used.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      tallyStatementPrepared();
      if (!cached) {
        cache.set(sql, statement);
        if (cache.size > preparedStatements) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}

/**
 * Opens PostgreSQL when a URL is given, otherwise the SQLite file in `dataDir`. Each query is
 * counted into the current request's tally (the Server-Timing header).
 */
export function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  /**
   * Told when a PostgreSQL connection breaks (the server restarts or goes away), whether idle in the
   * pool or in a request's hands. That request fails (503); the pool drops the connection and opens
   * new ones for later queries.
   */
  onConnectionError?: (error: Error) => void;
  /** Told when PostgreSQL turns out not to keep a connection's prepared statements (a pooler in between). */
  onUnkeptStatements?: (error: Error) => void;
}): DatabaseHandle {
  if (options.databaseUrl) {
    const driver = loadPostgresDriver();
    const pool = new driver.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      types: postgresTypes(driver),
      // A server that hangs, or a network that drops packets, fails the request (503) after 5 s
      // instead of holding it until the operating system gives up on TCP; the same bound applies
      // to waiting for a free connection. Keep-alive finds idle connections whose peer has vanished.
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    // A connection emits 'error' when its socket dies, even while a request holds it (between two
    // queries of a transaction, say); with no listener that error would end the process. The pool
    // listens only to the connections it holds idle, so every connection gets one of ours.
    pool.on("connect", (client) => client.on("error", (error) => options.onConnectionError?.(error)));
    // The pool passes an idle connection's error on here as well: told above already.
    pool.on("error", () => {});
    return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool, options.onUnkeptStatements) }), log: tallyQuery }), dialect: "postgres" };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(options.dataDir, sqliteFileName));
  // First, so that the others wait for a process that is setting up the same file.
  sqlite.pragma("busy_timeout = 5000");
  turnOnWriteAheadLog(sqlite);
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // A deleted row's pages are overwritten with zeros rather than left in the file's free pages: a
  // deleted attachment's bytes are gone from the file, not merely unlisted (docs/product.md).
  sqlite.pragma("secure_delete = ON");
  return {
    db: new Kysely<DB>({ dialect: new CairnSqliteDialect({ database: withPreparedStatements(sqlite) }), log: tallyQuery }),
    dialect: "sqlite",
  };
}

/**
 * Puts the file in WAL mode (it stays so). Already in it, nothing is changed, so no lock is waited
 * for; a new file's switch waits for another process that is creating or migrating the same file,
 * up to a minute (several instances starting together on a busy machine), not only busy_timeout's 5 s.
 */
function turnOnWriteAheadLog(sqlite: SQLite.Database) {
  for (let attempt = 1; ; attempt++) {
    try {
      if (sqlite.pragma("journal_mode", { simple: true }) !== "wal") sqlite.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if (!String((error as { code?: unknown }).code ?? "").startsWith("SQLITE_BUSY") || attempt >= 12) throw error;
    }
  }
}
