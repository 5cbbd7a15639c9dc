/**
 * Prepared statements (issue 31): a request that repeats one already served has the database
 * prepare (parse) nothing anew, on SQLite (better-sqlite3's statements, cached by SQL text) and on
 * PostgreSQL (named statements per connection, docs/decisions/031-postgres-named-statements.md);
 * and on PostgreSQL, what could go wrong with statements kept on the server does not: a migration
 * that changes a statement's columns, a connection that has prepared its share, a server that
 * forgets them.
 */
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { openDatabase } from "~/db/database.server";
import { statementsPerConnection } from "~/db/postgres-statements.server";
import { countingQueries } from "~/db/query-tally.server";
import { createIssue } from "~/issues/issues.server";
import { searchIssues } from "~/search/search.server";
import { testDialects, type TestDatabase } from "../support/databases";
import { issueFields } from "../support/issues";
import { withMigratedDatabase } from "../support/migrated-database";
import { emptyWorkspaceTables, seedTestWorkspace } from "../support/workspaces";

const t0 = new Date("2025-03-01T12:00:00.000Z");

/** The tally of what `work` ran: its queries, and the statements prepared for them. */
async function tallied(work: () => Promise<unknown>) {
  return countingQueries(async (tally) => {
    await work();
    return { ...tally };
  });
}

describe.each(testDialects)("prepared statements on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let acme: number;

  withMigratedDatabase(dialect, (opened) => ({ database, handle, db } = opened));

  beforeEach(async () => {
    await emptyWorkspaceTables(db);
    const seeded = await seedTestWorkspace(db, { slug: "acme", at: t0, members: { Ada: "owner" }, projects: { WEB: "WEB" } });
    acme = seeded.id;
    for (const title of ["Login fails on Safari", "Login button misaligned", "Logout keeps the session"]) {
      await createIssue(db, { project: seeded.projects.WEB, reporterId: seeded.users.Ada, fields: issueFields({ title, description: "After the login, nothing." }), now: t0 });
    }
  });

  it("prepares nothing for a search it ran before", async () => {
    // "logn" is a typo away from "login": the close words' query runs too.
    const search = () => searchIssues(handle, { workspaceId: acme, q: "logn safari", page: 1 });
    const first = await tallied(search);
    const again = await tallied(search);
    expect(first.prepared).toBeGreaterThan(0);
    expect(again.count).toBe(first.count);
    expect(again.prepared).toBe(0);
    expect((await search()).results.map((result) => result.title)).toEqual(["Login fails on Safari"]);
  });

  describe.runIf(dialect === "postgres")("on PostgreSQL", () => {
    const probeRows = (on: Database) => sql<Record<string, unknown>>`select * from statement_probe where id > ${0} order by id`.execute(on);

    beforeEach(async () => {
      await sql`drop table if exists statement_probe`.execute(db);
      await sql`create table statement_probe (id integer primary key)`.execute(db);
      await sql`insert into statement_probe values (1), (2)`.execute(db);
    });

    it("prepares a statement again when a migration changed its columns", async () => {
      expect((await probeRows(db)).rows).toEqual([{ id: 1 }, { id: 2 }]);
      await sql`alter table statement_probe add column note text`.execute(db);
      expect((await probeRows(db)).rows).toEqual([
        { id: 1, note: null },
        { id: 2, note: null },
      ]);
    });

    it(`keeps at most ${statementsPerConnection} statements on a connection`, async () => {
      for (let i = 0; i < statementsPerConnection + 50; i++) {
        expect((await sql<{ n: number }>`select ${sql.lit(i)} + ${1}::int as n`.execute(db)).rows).toEqual([{ n: i + 1 }]);
      }
      // Run one after the other, the queries above and this one share the pool's connection in turn.
      const { rows } = await sql<{ kept: number }>`select count(*)::int as kept from pg_prepared_statements`.execute(db);
      expect(rows[0]!.kept).toBeGreaterThan(0);
      expect(rows[0]!.kept).toBeLessThanOrEqual(statementsPerConnection);
    });

    it("runs statements unnamed once the server forgot a connection's (a pooler in transaction mode, DISCARD)", async () => {
      const unkept: Error[] = [];
      const own = openDatabase({ databaseUrl: database.env.DATABASE_URL, dataDir: database.dataDir, onUnkeptStatements: (error) => unkept.push(error) });
      try {
        expect((await probeRows(own.db)).rows).toHaveLength(2);
        expect((await tallied(() => probeRows(own.db))).prepared).toBe(0);
        await sql`discard all`.execute(own.db);
        expect((await probeRows(own.db)).rows).toHaveLength(2);
        expect(unkept).toHaveLength(1);
        expect((await tallied(() => probeRows(own.db))).prepared).toBe(1);
        expect(unkept).toHaveLength(1);
      } finally {
        await own.db.destroy();
      }
    });
  });
});
