import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import { inlineImageTypes } from "./attachments";

export type DetectedContent = { contentType: string; width: number | null; height: number | null };

/**
 * How much of a file's beginning its type and an image's dimensions are read from: signatures sit
 * in the first bytes, and a JPEG's size after its EXIF and colour profile (64 KiB a segment).
 */
const headBytes = 1024 * 1024;

/**
 * What a file is, from its bytes alone (its signature, as `file-type` knows them), never from its
 * name or the type the browser sent: an HTML page named `.png` is text, and downloads. The images
 * shown inline also get their dimensions (`image-size`), so that a page keeps its layout as they load.
 * The bytes are given as they are read (`push`), so that a file is never whole in memory: its
 * first MiB is kept, and whether it is text (UTF-8 without NUL) is decided as it goes.
 */
export class ContentDetector {
  #head: Uint8Array[] = [];
  #headLength = 0;
  #text: TextDecoder | undefined = new TextDecoder("utf-8", { fatal: true });

  push(bytes: Uint8Array) {
    if (this.#headLength < headBytes) {
      const part = bytes.subarray(0, headBytes - this.#headLength);
      // A copy: the caller may reuse its buffer.
      this.#head.push(part.slice());
      this.#headLength += part.length;
    }
    if (this.#text && (bytes.includes(0) || !decodes(this.#text, bytes))) this.#text = undefined;
  }

  async result(): Promise<DetectedContent> {
    const head = concat(this.#head, this.#headLength);
    const found = await fileTypeFromBuffer(head);
    if (found && inlineImageTypes.has(found.mime)) {
      const size = dimensionsOf(head);
      return { contentType: found.mime, width: size?.width ?? null, height: size?.height ?? null };
    }
    // Text ends on a whole character.
    const isText = !!this.#text && decodes(this.#text);
    return { contentType: found?.mime ?? (isText ? "text/plain; charset=utf-8" : "application/octet-stream"), width: null, height: null };
  }
}

/** What these bytes are (ContentDetector, all at once). */
export async function detectContent(bytes: Uint8Array): Promise<DetectedContent> {
  const detector = new ContentDetector();
  detector.push(bytes);
  return detector.result();
}

/** Whether the decoder takes these bytes (and, without any, ends on a whole character). */
function decodes(decoder: TextDecoder, bytes?: Uint8Array): boolean {
  try {
    if (bytes) decoder.decode(bytes, { stream: true });
    else decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** One buffer of its own (image-size reads through the whole ArrayBuffer under a view). */
function concat(parts: Uint8Array[], length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/**
 * As the browser shows the image: a JPEG whose EXIF orientation turns it a quarter is drawn with
 * its sides swapped. A broken image still has its type; it only loses its dimensions.
 */
function dimensionsOf(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height, orientation } = imageSize(bytes);
    if (!(width > 0 && height > 0 && width <= 100_000 && height <= 100_000)) return undefined;
    return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height };
  } catch {
    return undefined;
  }
}
