import type { Database } from "~/db/database.server";

/** A file's bytes as stored: its chunks (attachment_chunks), in order, joined. */
export async function storedBytes(db: Database, attachmentId: number): Promise<Buffer> {
  const chunks = await db.selectFrom("attachment_chunks").select("content").where("attachment_id", "=", attachmentId).orderBy("position").execute();
  return Buffer.concat(chunks.map((chunk) => chunk.content));
}
