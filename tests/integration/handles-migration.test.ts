import { describe, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import { createTestDatabase, testDialects } from "../support/databases";
import { migrateBefore } from "../support/migrations";

describe.each(testDialects)("the handles migration on %s", (dialect) => {
  it("gives the accounts that existed before it a handle from their email, told apart in the order they were made", async () => {
    const database = await createTestDatabase(dialect);
    const handle = database.open();
    try {
      const db = await migrateBefore(handle, dialect, "0014");
      const now = new Date().toISOString();
      for (const email of ["ada@example.com", "Ada@other.example", "jo@example.com", "ada.lovelace@example.com", "ada@third.example"]) {
        await db.insertInto("users").values({ email, name: "Someone", password_hash: "x", is_instance_admin: 0, created_at: now, updated_at: now }).execute();
      }

      expect(await migrateToLatest(handle)).toContain("0014_user_handles");
      const users = await handle.db.selectFrom("users").select(["email", "handle"]).orderBy("id").execute();
      expect(users.map((user) => user.handle)).toEqual(["ada", "ada-2", "jo-user", "ada-lovelace", "ada-3"]);
      // Unique from now on.
      await expect(handle.db.updateTable("users").set({ handle: "ada" }).where("email", "=", "jo@example.com").execute()).rejects.toThrow();
    } finally {
      await handle.db.destroy();
      await database.drop();
    }
  });
});
