import type { Database } from "~/db/database.server";

/** An instance without accounts invites its first visitor to create the instance admin. */
export async function instanceHasUsers(db: Database): Promise<boolean> {
  const row = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Users shown on a page of /admin/users. */
export const usersPageSize = 100;

/** A page (1-based) of the instance's accounts, oldest first, and how many there are. */
export async function listUsers(db: Database, page: number) {
  const [users, { count }] = await Promise.all([
    db
      .selectFrom("users")
      .select(["id", "name", "email", "is_instance_admin", "created_at"])
      .orderBy("id")
      .limit(usersPageSize)
      .offset((page - 1) * usersPageSize)
      .execute(),
    db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { users, total: Number(count), pageCount: Math.max(1, Math.ceil(Number(count) / usersPageSize)) };
}
