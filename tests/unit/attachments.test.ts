/**
 * What attachments are, before any database: the type found in a file's bytes (never its name or the
 * browser's claim), a name safe to keep and show, the Markdown that shows a file, which of a
 * workspace's files a text links to, and sizes in binary units.
 */
import { describe, expect, it } from "vitest";
import { attachmentIdOf, attachmentIdsIn, attachmentMarkdown, attachmentPath, formatBytes, isPreviewable, isTooLargeToPreview } from "~/attachments/attachments";
import { safeFilename, uploadProblem } from "~/attachments/attachments.server";
import { ContentDetector, detectContent } from "~/attachments/content-type.server";
import { gifBytes, hostileHtml, hostileSvg, jpegBytes, pdfBytes, pngBytes, webpBytes } from "../support/files.js";

describe("detectContent", () => {
  it("finds the images shown inline, with their dimensions", async () => {
    expect(await detectContent(pngBytes(640, 480))).toEqual({ contentType: "image/png", width: 640, height: 480 });
    expect(await detectContent(jpegBytes(300, 200))).toEqual({ contentType: "image/jpeg", width: 300, height: 200 });
    expect(await detectContent(gifBytes(16, 9))).toEqual({ contentType: "image/gif", width: 16, height: 9 });
    expect(await detectContent(webpBytes(1200, 30))).toEqual({ contentType: "image/webp", width: 1200, height: 30 });
  });

  it("takes an HTML page or an SVG for text, whatever it is called: neither is ever a page or an image of Cairn", async () => {
    expect(await detectContent(hostileHtml())).toEqual({ contentType: "text/plain; charset=utf-8", width: null, height: null });
    expect((await detectContent(hostileSvg())).contentType).toBe("text/plain; charset=utf-8");
  });

  it("names other known formats, and unknown bytes as octet-stream", async () => {
    expect((await detectContent(pdfBytes())).contentType).toBe("application/pdf");
    expect((await detectContent(Buffer.from([0, 1, 2, 0xff, 0xfe]))).contentType).toBe("application/octet-stream");
    // Not UTF-8: not text.
    expect((await detectContent(Buffer.from([0x68, 0x69, 0xc3]))).contentType).toBe("application/octet-stream");
  });

  it("keeps a broken image's type but not its dimensions", async () => {
    const truncated = pngBytes(10, 10).subarray(0, 16);
    expect(await detectContent(truncated)).toEqual({ contentType: "image/png", width: null, height: null });
  });

  it("finds the same piece by piece, as a file streams in: text cut inside a character, a NUL or a broken character far on", async () => {
    const inPieces = (...pieces: (string | Uint8Array)[]) => {
      const detector = new ContentDetector();
      for (const piece of pieces) detector.push(typeof piece === "string" ? new TextEncoder().encode(piece) : piece);
      return detector.result();
    };
    const euro = new TextEncoder().encode("€");
    const text = { contentType: "text/plain; charset=utf-8", width: null, height: null };
    const binary = { contentType: "application/octet-stream", width: null, height: null };
    expect(await inPieces("price: 5 ", euro.subarray(0, 1), euro.subarray(1), " each")).toEqual(text);
    // Text for 2 MiB, past the bytes kept for the signature, then a NUL or a lone byte.
    const long = "x".repeat(2 * 1024 * 1024);
    expect(await inPieces(long, "\u0000")).toEqual(binary);
    expect(await inPieces(long, new Uint8Array([0xc3]))).toEqual(binary);
    expect(await inPieces(long, "€")).toEqual(text);
    // An image's header split across pieces.
    const png = pngBytes(40, 30);
    expect(await inPieces(png.subarray(0, 10), png.subarray(10))).toEqual({ contentType: "image/png", width: 40, height: 30 });
  });
});

describe("safeFilename", () => {
  it("keeps the last part of a path, without control or direction-changing characters", () => {
    expect(safeFilename("C:\\Users\\ada\\Desktop\\screen shot.png")).toBe("screen shot.png");
    expect(safeFilename("../../etc/passwd")).toBe("passwd");
    expect(safeFilename("invoice\u202Egnp.exe")).toBe("invoicegnp.exe");
    expect(safeFilename("a\u0000b\r\nc.txt")).toBe("abc.txt");
    expect(safeFilename("  many   spaces .txt ")).toBe("many spaces .txt");
  });

  it("answers 'file' when nothing is left, and never a hidden name", () => {
    expect(safeFilename("")).toBe("file");
    expect(safeFilename("/")).toBe("file");
    expect(safeFilename("\u202E")).toBe("file");
    expect(safeFilename("...env")).toBe("env");
  });

  it("shortens a long name to 200 characters, its extension kept", () => {
    const long = safeFilename(`${"ü".repeat(300)}.jpeg`);
    expect([...long]).toHaveLength(200);
    expect(long.endsWith("ü.jpeg")).toBe(true);
    expect([...safeFilename("😀".repeat(250))]).toHaveLength(200);
  });
});

describe("uploadProblem", () => {
  const limits = { maxBytes: 1024, workspaceMaxBytes: 10_000 };
  const file = (size: number, name = "f.bin") => new File([new Uint8Array(size)], name);

  it("refuses a file over the limit with 413, naming the limit and the file", () => {
    expect(uploadProblem([file(1024), file(1025, "big.bin")], limits)).toEqual({ ok: false, status: 413, message: "Files may be at most 1 KiB each: big.bin is 1.1 KiB." });
    expect(uploadProblem([file(1024)], limits)).toBeUndefined();
  });

  it("refuses more than 10 files at a time", () => {
    expect(uploadProblem(Array.from({ length: 11 }, () => file(1)), limits)).toMatchObject({ status: 413, message: "Attach at most 10 files at a time." });
  });
});

describe("isPreviewable", () => {
  const png = (width: number | null, height: number | null) => ({ contentType: "image/png", width, height });
  it("shows an image of the inline types up to 50 megapixels, and no other", () => {
    expect(isPreviewable(png(5_000, 10_000))).toBe(true);
    expect(isPreviewable(png(5_000, 10_001))).toBe(false);
    expect(isPreviewable(png(50_000, 50_000))).toBe(false);
    // Its size unknown (a broken or unusual header): never shown, as it might be anything.
    expect(isPreviewable(png(null, null))).toBe(false);
    expect(isPreviewable({ contentType: "application/pdf", width: null, height: null })).toBe(false);
  });

  it("says which images are too large to preview: those of the inline types not shown", () => {
    expect(isTooLargeToPreview(png(50_000, 50_000))).toBe(true);
    expect(isTooLargeToPreview(png(null, null))).toBe(true);
    expect(isTooLargeToPreview(png(640, 480))).toBe(false);
    expect(isTooLargeToPreview({ contentType: "text/plain; charset=utf-8", width: null, height: null })).toBe(false);
  });
});

describe("addresses and Markdown", () => {
  it("puts the workspace, the id and the encoded name in the address", () => {
    expect(attachmentPath("acme", 7, "my file #1?.png")).toBe("/w/acme/attachments/7/my%20file%20%231%3F.png");
  });

  it("shows an image inline and any other file as a link, with brackets in its name escaped", () => {
    expect(attachmentMarkdown({ url: "/w/acme/attachments/7/a.png", filename: "a.png", image: true })).toBe("![a.png](/w/acme/attachments/7/a.png)");
    expect(attachmentMarkdown({ url: "/w/acme/attachments/8/x", filename: "notes [draft].txt", image: false })).toBe("[notes \\[draft\\].txt](/w/acme/attachments/8/x)");
  });

  it("finds the ids of this workspace's files a text links to, once each, in order", () => {
    const text = "see ![a](/w/acme/attachments/12/a.png) and [b](/w/acme/attachments/3/b.txt), ![a again](/w/acme/attachments/12/a.png), /w/other/attachments/5/c and /w/acme/attachments/99999999999/x";
    expect(attachmentIdsIn(text, "acme")).toEqual([12, 3]);
    expect(attachmentIdsIn("no files", "acme")).toEqual([]);
  });

  it("knows an image's id only for a path of this workspace's files", () => {
    expect(attachmentIdOf("/w/acme/attachments/12/a.png", "acme")).toBe(12);
    expect(attachmentIdOf("/w/other/attachments/12/a.png", "acme")).toBeUndefined();
    expect(attachmentIdOf("https://evil.example/w/acme/attachments/12/a.png", "acme")).toBeUndefined();
    expect(attachmentIdOf("/w/acme/attachments/12/a.png?x=1", "acme")).toBeUndefined();
    expect(attachmentIdOf("/w/acme/attachments/3000000000/a.png", "acme")).toBeUndefined();
  });
});

describe("formatBytes", () => {
  it("writes sizes in binary units, as the limits are", () => {
    expect([0, 1, 912, 1024, 1536, 10 * 1024 * 1024, 1024 ** 3, 250 * 1024 * 1024].map((n) => formatBytes(n))).toEqual(["0 bytes", "1 byte", "912 bytes", "1 KiB", "1.5 KiB", "10 MiB", "1 GiB", "250 MiB"]);
    // A size over a limit never reads as the limit.
    expect([1025, 10 * 1024 * 1024 + 1, 10.3 * 1024 * 1024].map((n) => formatBytes(n, "up"))).toEqual(["1.1 KiB", "11 MiB", "11 MiB"]);
  });
});
