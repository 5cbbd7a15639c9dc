import { freeHandle, handleFromEmail } from "~/auth/handles.server";
import type { Database } from "~/db/database.server";

/**
 * A user row written directly, for tests about something other than signing up. The email is the
 * first name, lower-cased, at example.com unless given ("Ada Lovelace" is ada@example.com). The
 * password hash is "x" unless given: no password matches it, and scrypt is slow.
 */
export async function insertUser(
  db: Database,
  user: { name: string; email?: string; passwordHash?: string; at: Date },
): Promise<number> {
  const now = user.at.toISOString();
  const email = user.email ?? `${user.name.split(" ")[0]!.toLowerCase()}@example.com`;
  const row = await db
    .insertInto("users")
    .values({
      email,
      name: user.name,
      handle: await freeHandle(db, handleFromEmail(email)),
      password_hash: user.passwordHash ?? "x",
      is_instance_admin: 0,
      created_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
