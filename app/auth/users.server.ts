import type { Database } from "~/db/database.server";

/** An instance without accounts invites its first visitor to create the instance admin. */
export async function instanceHasUsers(db: Database): Promise<boolean> {
  const row = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  return row !== undefined;
}
