import { randomBytes } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";

/**
 * Files as browsers upload them, made here rather than kept as fixtures: each image with its
 * dimensions in its header, where Cairn reads them. JavaScript, for the bench too (plain Node).
 */

/**
 * A real PNG of `width`×`height` pixels (browsers draw it): of one colour, or of noise, which no
 * compression shrinks (a screenshot's size from few pixels).
 * @param {number} width @param {number} height @param {[number, number, number] | "noise"} [fill]
 * @returns {Buffer}
 */
export function pngBytes(width, height, fill = [79, 79, 79]) {
  /** @param {string} type @param {Buffer} data */
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const frame = Buffer.alloc(8 + data.length + 4);
    frame.writeUInt32BE(data.length, 0);
    body.copy(frame, 4);
    frame.writeUInt32BE(crc32(body), 4 + body.length);
    return frame;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  // Each row: filter type 0, then its pixels.
  const row = () => Buffer.concat([Buffer.from([0]), fill === "noise" ? randomBytes(width * 3) : Buffer.from(Array.from({ length: width }, () => fill).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, row));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(pixels)), chunk("IEND", Buffer.alloc(0))]);
}

/**
 * A PNG's signature and header claiming `width`×`height` pixels, its pixels left out: what a
 * "decompression bomb" (a few hundred KB that a browser must decode to gigapixels) is to Cairn, which
 * reads only the header.
 * @param {number} width @param {number} height
 */
export function pngHeaderBytes(width, height) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const body = Buffer.concat([Buffer.from("IHDR", "latin1"), header]);
  const frame = Buffer.alloc(8 + 13 + 4);
  frame.writeUInt32BE(13, 0);
  body.copy(frame, 4);
  frame.writeUInt32BE(crc32(body), 4 + body.length);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), frame]);
}

/** The headers of the other images shown inline: enough for their type and dimensions, no pixels. */
/** @param {number} width @param {number} height */
export const jpegBytes = (width, height) =>
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9]);

/** @param {number} width @param {number} height */
export function gifBytes(width, height) {
  const bytes = Buffer.alloc(14);
  bytes.write("GIF89a");
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  bytes[13] = 0x3b;
  return bytes;
}

/** @param {number} width @param {number} height */
export function webpBytes(width, height) {
  const bytes = Buffer.alloc(30);
  bytes.write("RIFF");
  bytes.writeUInt32LE(22, 4);
  bytes.write("WEBPVP8X", 8);
  bytes.writeUInt32LE(10, 16);
  bytes.writeUIntLE(width - 1, 24, 3);
  bytes.writeUIntLE(height - 1, 27, 3);
  return bytes;
}

export const pdfBytes = () => Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

/** A page that would run a script if a browser took it for HTML or SVG: what an attacker names `.png`. */
export const hostileHtml = () => Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
export const hostileSvg = () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>');
