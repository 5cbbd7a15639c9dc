import { fileTypeFromBuffer } from "file-type/core";
import { imageSize } from "image-size";
import { inlineImageTypes } from "./attachments";

export type DetectedContent = { contentType: string; width: number | null; height: number | null };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Text is UTF-8 without NUL characters: what a browser would show as text, were it allowed to. */
function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a file is, from its bytes alone (its signature, as `file-type` knows them), never from its
 * name or the type the browser sent: an HTML page named `.png` is text, and downloads. The images
 * shown inline also get their dimensions (`image-size`), so that a page keeps its layout as they load.
 */
export async function detectContent(bytes: Uint8Array): Promise<DetectedContent> {
  const found = await fileTypeFromBuffer(bytes);
  if (found && inlineImageTypes.has(found.mime)) {
    const size = dimensionsOf(bytes);
    return { contentType: found.mime, width: size?.width ?? null, height: size?.height ?? null };
  }
  const contentType = found?.mime ?? (isText(bytes) ? "text/plain; charset=utf-8" : "application/octet-stream");
  return { contentType, width: null, height: null };
}

/**
 * As the browser shows the image: a JPEG whose EXIF orientation turns it a quarter is drawn with
 * its sides swapped. A broken image still has its type; it only loses its dimensions.
 */
function dimensionsOf(bytes: Uint8Array): { width: number; height: number } | undefined {
  // image-size reads through the whole ArrayBuffer under a view: a view of part of one (a Buffer of
  // Node's pool) is copied, so that a truncated image is not measured from the bytes after it.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  try {
    const { width, height, orientation } = imageSize(own);
    if (!(width > 0 && height > 0 && width <= 100_000 && height <= 100_000)) return undefined;
    return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height };
  } catch {
    return undefined;
  }
}
