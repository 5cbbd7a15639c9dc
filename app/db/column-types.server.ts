import type { ColumnDefinitionBuilder, CreateTableBuilder } from "kysely";
import type { Dialect } from "./database.server";

/** The few column types that are spelled differently on SQLite and PostgreSQL. */
export function columnTypes(dialect: Dialect) {
  const postgres = dialect === "postgres";
  return {
    timestamp: postgres ? "timestamptz" : "text",
    date: postgres ? "date" : "text",
    bytes: postgres ? "bytea" : "blob",
    /** Adds an auto-numbered integer primary key named `id`. */
    withId<T extends string>(table: CreateTableBuilder<T, never>) {
      return table.addColumn("id", "integer", (col: ColumnDefinitionBuilder) =>
        postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
      );
    },
  } as const;
}
