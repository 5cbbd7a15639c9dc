import { createHash } from "node:crypto";
import type pg from "pg";
import type { PostgresPool, PostgresPoolClient } from "kysely";
import { tallyStatementPrepared } from "./query-tally.server";

// Named prepared statements on PostgreSQL (docs/decisions/031-postgres-named-statements.md): a query
// Kysely runs with parameters, outside a transaction, is parsed once per connection and then only
// bound and executed.

/**
 * Named statements one connection keeps (pg never deallocates them): about four times the distinct
 * statements 78 varied page requests ran (decision record 031). A connection that would need more
 * is closed when released, and the pool opens a fresh one.
 */
export const statementsPerConnection = 200;


/** Per connection: the names it has prepared, and whether it is to be closed once released. */
type Prepared = { names: Set<string>; full: boolean };

const postgresError = (error: unknown) => error as { code?: unknown; message?: unknown };

/** A statement prepared before a migration changed the columns it returns (`select *`). */
const isResultTypeChange = (error: unknown) =>
  postgresError(error).code === "0A000" && postgresError(error).message === "cached plan must not change result type";

/**
 * The server does not hold the statements this connection prepared (26000), or holds one this
 * connection never prepared (42P05): a pooler that shares server connections between clients, or
 * a DISCARD, stands between them.
 */
const isUnkeptStatement = (error: unknown) => postgresError(error).code === "26000" || postgresError(error).code === "42P05";

/**
 * `pool` as Kysely's PostgresDialect takes it, its connections reusing named statements. The name is
 * a hash of the SQL text, so one name always stands for one text. Only statements with parameters
 * are named: they already go through the extended protocol, which a statement of several commands
 * (a migration's raw SQL) cannot. In a transaction statements stay unnamed: a statement that fails
 * there cannot be run again, and the failures below are retried. Each of them happens before the
 * statement runs: a statement whose result type a migration changed is prepared again under a new
 * name; when the server turns out not to keep a connection's statements, naming stops for the pool
 * (`onUnkeptStatements` is told) and the statement runs unnamed.
 */
export function withNamedStatements(pool: pg.Pool, onUnkeptStatements: (error: Error) => void = () => {}): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  // Bumped when a migration changed a statement's result type: every statement gets a new name.
  let generation = 0;
  let naming = true;
  const nameOf = (text: string) => `cairn_${generation}_${createHash("sha256").update(text).digest("base64url").slice(0, 32)}`;

  function wrap(client: pg.PoolClient): PostgresPoolClient {
    const prepared: Prepared = { names: new Set(), full: false };
    const unnamed = (text: string, values: unknown[]) => {
      tallyStatementPrepared();
      return client.query(text, values);
    };
    async function named(text: string, values: unknown[], retried = false): Promise<pg.QueryResult> {
      const name = nameOf(text);
      if (!prepared.names.has(name)) {
        if (prepared.names.size >= statementsPerConnection) {
          prepared.full = true;
          return unnamed(text, values);
        }
        prepared.names.add(name);
        tallyStatementPrepared();
      }
      try {
        return await client.query({ name, text, values });
      } catch (error) {
        if (retried) throw error;
        if (isResultTypeChange(error)) {
          if (nameOf(text) === name) generation += 1;
          return named(text, values, true);
        }
        if (isUnkeptStatement(error) && naming) {
          naming = false;
          onUnkeptStatements(error as Error);
          return unnamed(text, values);
        }
        throw error;
      }
    }
    // Kysely calls query with a SQL text and its values, or with a cursor (a Submittable).
    const wrapped = {
      query(text: unknown, values?: unknown[]) {
        if (typeof text !== "string") return client.query(text as pg.Submittable);
        if (naming && values?.length && client.getTransactionStatus() === "I") return named(text, values);
        return unnamed(text, values ?? []);
      },
      release() {
        client.release(prepared.full);
      },
    };
    return wrapped as unknown as PostgresPoolClient;
  }

  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) clients.set(client, (wrapped = wrap(client)));
      return wrapped;
    },
    end: () => pool.end(),
    // Kysely connects with these to cancel an aborted query.
    options: pool.options,
  };
}
