import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "~/db/migrate.server";
import { storedBytes } from "../support/attachments";
import { createTestDatabase, testDialects } from "../support/databases";
import { migrateBefore } from "../support/migrations";

const KiB = 1024;

describe.each(testDialects)("the attachment-chunks migration on %s", (dialect) => {
  it("cuts every kept file into chunks of 256 KiB, bytes unchanged, and drops the column that held them", async () => {
    const database = await createTestDatabase(dialect);
    const handle = database.open();
    try {
      const db = await migrateBefore(handle, dialect, "0025");
      const at = "2026-11-01T09:00:00.000Z";
      const stamps = { created_at: at, updated_at: at };
      const user = (await db.insertInto("users").values({ email: "ada@example.com", name: "Ada", handle: "ada", password_hash: "x", is_instance_admin: 0, ...stamps }).returning("id").executeTakeFirstOrThrow()).id;
      const workspace = (await db.insertInto("workspaces").values({ slug: "acme", name: "Acme", ...stamps }).returning("id").executeTakeFirstOrThrow()).id;
      const files = { "empty.txt": Buffer.alloc(0), "small.txt": Buffer.from("hello"), "one-chunk.bin": randomBytes(256 * KiB), "just-over.bin": randomBytes(256 * KiB + 1), "three.bin": randomBytes(600 * KiB) };
      const ids: Record<string, number> = {};
      for (const [filename, content] of Object.entries(files)) {
        const row = { workspace_id: workspace, uploader_id: user, filename, content_type: "application/octet-stream", size: content.length, created_at: at, content };
        ids[filename] = (await db.insertInto("attachments").values(row).returning("id").executeTakeFirstOrThrow()).id;
      }

      expect(await migrateToLatest(handle)).toContain("0025_attachment_chunks");
      for (const [filename, content] of Object.entries(files)) {
        expect((await storedBytes(handle.db, ids[filename]!)).equals(content), filename).toBe(true);
      }
      const chunks = await handle.db.selectFrom("attachment_chunks").select(["attachment_id", "position", (eb) => eb.fn<number>("length", ["content"]).as("bytes")]).orderBy("attachment_id").orderBy("position").execute();
      const sizes = (filename: string) => chunks.filter((chunk) => chunk.attachment_id === ids[filename]).map((chunk) => [chunk.position, Number(chunk.bytes)]);
      expect(sizes("empty.txt")).toEqual([]);
      expect(sizes("small.txt")).toEqual([[0, 5]]);
      expect(sizes("one-chunk.bin")).toEqual([[0, 256 * KiB]]);
      expect(sizes("just-over.bin")).toEqual([[0, 256 * KiB], [1, 1]]);
      expect(sizes("three.bin")).toEqual([[0, 256 * KiB], [1, 256 * KiB], [2, 88 * KiB]]);
      // The rows keep everything but the bytes.
      const [row] = await handle.db.selectFrom("attachments").selectAll().where("id", "=", ids["small.txt"]!).execute();
      expect(row).toEqual({ id: ids["small.txt"], workspace_id: workspace, issue_id: null, comment_id: null, uploader_id: user, filename: "small.txt", content_type: "application/octet-stream", size: 5, width: null, height: null, created_at: at });
      // Deleting a file deletes its chunks.
      await handle.db.deleteFrom("attachments").where("id", "=", ids["three.bin"]!).execute();
      expect(sizes("three.bin")).toHaveLength(3);
      expect(await handle.db.selectFrom("attachment_chunks").select("position").where("attachment_id", "=", ids["three.bin"]!).execute()).toEqual([]);
    } finally {
      await handle.db.destroy();
      await database.drop();
    }
  });
});
