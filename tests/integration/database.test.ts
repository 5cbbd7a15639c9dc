import { type AddressInfo, createServer, type Socket } from "node:net";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "~/db/database.server";
import { isDatabaseUnavailable } from "~/db/errors.server";
import { migrateToLatest } from "~/db/migrate.server";
import { findServerError, recordServerError } from "~/monitoring/server-errors.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { allMigrations } from "../support/migrations";

describe.each(testDialects)("database on %s", (dialect) => {
  let database: TestDatabase;
  const handles: DatabaseHandle[] = [];
  const open = () => {
    const handle = database.open();
    handles.push(handle);
    return handle;
  };

  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.db.destroy()));
    await database.drop();
  });

  it("migrates an empty database, and a second run does nothing", async () => {
    database = await createTestDatabase(dialect);
    const handle = open();
    expect(await migrateToLatest(handle)).toEqual(allMigrations);
    expect(await migrateToLatest(handle)).toEqual([]);
    const tables = (await handle.db.introspection.getTables()).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(["users", "monitoring_events"]));
  });

  it("answers the same query again with its new parameters, across a schema change, and beyond a thousand query shapes", async () => {
    database = await createTestDatabase(dialect);
    const { db } = open();
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    await db.insertInto("notes" as never).values([{ id: 1, body: "one" }, { id: 2, body: "two" }] as never).execute();
    const body = async (id: number) =>
      (await sql<{ body: string }>`select body from notes where id = ${id}`.execute(db)).rows[0]?.body;
    // The same SQL text, prepared once and reused on SQLite: each run takes its own parameters.
    expect([await body(1), await body(2), await body(1)]).toEqual(["one", "two", "one"]);
    // A statement prepared before the table changed still reads it as it is now.
    await sql`alter table notes add column title text`.execute(db);
    await sql`update notes set body = 'uno' where id = 1`.execute(db);
    expect(await body(1)).toBe("uno");
    // More distinct statements than are kept prepared: the oldest are dropped, none answers wrongly.
    for (let n = 0; n < 1100; n++) {
      const row = (await sql<{ n: number }>`select ${sql.lit(n)} + id as n from notes where id = ${2}`.execute(db)).rows[0];
      expect(row?.n).toBe(n + 2);
    }
    expect(await body(2)).toBe("two");
  });

  it("groups a repeated server error under its digest with a count", async () => {
    database = await createTestDatabase(dialect);
    const handle = open();
    await migrateToLatest(handle);
    const event = {
      digest: "0A1B2C3D",
      route: "routes/index",
      url: "/",
      method: "GET",
      message: "Error: boom",
      stack: "Error: boom\n    at loader",
      userId: null,
      userAgent: "test",
      requestId: "first",
    };
    await recordServerError(handle.db, { ...event, at: new Date("2026-01-01T10:00:00Z") });
    await recordServerError(handle.db, { ...event, requestId: "second", at: new Date("2026-01-02T10:00:00Z") });
    await recordServerError(handle.db, { ...event, digest: "99999999", at: new Date("2026-01-03T10:00:00Z") });

    expect(await findServerError(handle.db, "0A1B2C3D")).toMatchObject({
      kind: "server_error",
      count: 2,
      first_seen: "2026-01-01T10:00:00.000Z",
      last_seen: "2026-01-02T10:00:00.000Z",
      request_id: "second",
      message: "Error: boom",
    });
    expect(await findServerError(handle.db, "99999999")).toMatchObject({ count: 1 });
  });

  if (dialect === "sqlite") {
    it("uses WAL, foreign keys and a busy timeout", async () => {
      database = await createTestDatabase(dialect);
      const { db } = open();
      const pragma = async (name: string) =>
        Object.values((await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(db)).rows[0]!)[0];
      expect(await pragma("journal_mode")).toBe("wal");
      expect(await pragma("foreign_keys")).toBe(1);
      expect(await pragma("busy_timeout")).toBe(5000);
    });
  }
});

// A PostgreSQL host that accepts the connection and then says nothing (a hung server, or a network
// that drops packets): a query must fail as "unavailable" in bounded time, not wait forever.
describe("a PostgreSQL server that never answers", () => {
  it("fails the query as unavailable instead of hanging", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const handle = openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/cairn`, dataDir: "/nonexistent" });
    try {
      const failure = await sql`select 1`.execute(handle.db).then(() => null, (error: unknown) => error);
      expect(isDatabaseUnavailable(failure)).toBe(true);
    } finally {
      await handle.db.destroy();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
