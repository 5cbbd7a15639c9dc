import { sql } from "kysely";
import type { Database } from "./database.server";

export async function databaseAnswers(db: Database): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
