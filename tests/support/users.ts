import type { Database } from "~/db/database.server";

/**
 * `insertUser(db, name, email)` for tests about something other than signing up: a row written
 * directly, with the file's one precomputed password hash (scrypt is slow) and timestamp.
 */
export function userInserter(passwordHash: () => string, at: Date) {
  return async function insertUser(db: Database, name: string, email: string): Promise<number> {
    const now = at.toISOString();
    const row = await db
      .insertInto("users")
      .values({ email, name, password_hash: passwordHash(), is_instance_admin: 0, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  };
}
