import type { Transaction } from "kysely";
import type { Database } from "~/db/database.server";
import type { DB } from "~/db/schema";
import { ContentDetector, type DetectedContent } from "./content-type.server";

/** A file's bytes are rows of 256 KiB (migrations/0025, decision record 026). */
export const chunkBytes = 256 * 1024;

/**
 * Writes a file's bytes as the chunks of its attachment, a chunk at a time as they are read (from
 * the temporary file an upload was received into), and answers what the bytes are: nothing holds
 * more than a chunk of the file, and the type is found on the way (ContentDetector).
 */
export async function storeContent(trx: Transaction<DB>, attachmentId: number, file: Blob): Promise<DetectedContent & { size: number }> {
  const detector = new ContentDetector();
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let position = 0;
  let size = 0;
  const write = async (content: Buffer) => {
    await trx.insertInto("attachment_chunks").values({ attachment_id: attachmentId, position: position++, content }).execute();
  };
  const reader = file.stream().getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const piece = read.value;
    detector.push(piece);
    size += piece.length;
    pending.push(piece);
    pendingBytes += piece.length;
    while (pendingBytes >= chunkBytes) {
      await write(take(pending, chunkBytes));
      pendingBytes -= chunkBytes;
    }
  }
  if (pendingBytes) await write(take(pending, pendingBytes));
  return { ...(await detector.result()), size };
}

/** The first `length` bytes of `pieces`, as one buffer; what is left of them stays in `pieces`. */
function take(pieces: Uint8Array[], length: number): Buffer {
  const taken = Buffer.allocUnsafe(length);
  let at = 0;
  while (at < length) {
    const piece = pieces[0]!;
    const part = piece.subarray(0, length - at);
    taken.set(part, at);
    at += part.length;
    if (part.length === piece.length) pieces.shift();
    else pieces[0] = piece.subarray(part.length);
  }
  return taken;
}

/**
 * A file's bytes as they are sent: each chunk is read when the one before has gone out, so that a
 * download holds one chunk of it. A file deleted while it is sent ends the stream with an error
 * (the connection is cut rather than the file cut short unnoticed).
 */
export function contentStream(db: Database, attachment: { id: number; size: number }): ReadableStream<Uint8Array> {
  let position = 0;
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (sent >= attachment.size) return controller.close();
        const chunk = await db
          .selectFrom("attachment_chunks")
          .select("content")
          .where("attachment_id", "=", attachment.id)
          .where("position", "=", position++)
          .executeTakeFirst();
        if (!chunk) return controller.error(new Error(`Attachment ${attachment.id} was deleted while it was sent.`));
        sent += chunk.content.length;
        controller.enqueue(new Uint8Array(chunk.content.buffer as ArrayBuffer, chunk.content.byteOffset, chunk.content.byteLength));
      },
    },
    { highWaterMark: 0 },
  );
}
