/**
 * What the pages and the server share about attachments: their addresses, the Markdown that shows
 * them, which of them a text refers to, and how their sizes read.
 */

/** The images a page may show inline; every other type (SVG and HTML too) only downloads. */
export const inlineImageTypes: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * The most pixels an image may have to show in a page: 50 megapixels (a 48-megapixel phone photo,
 * 8000×6000, still shows). A browser decodes an image whole, at 4 bytes a pixel, however small it
 * draws it, and a PNG of a few hundred KB may claim 50,000×50,000 (10 GB decoded). An image over
 * it, or whose size could not be read, is a link to download it: never an `<img>`, its dimensions
 * nowhere in the page.
 */
export const maxPreviewPixels = 50_000_000;

type ImageFacts = { contentType: string; width: number | null; height: number | null };

/** Whether a page shows this file as an image: of a type shown inline, its size known and within maxPreviewPixels. */
export function isPreviewable({ contentType, width, height }: ImageFacts): boolean {
  return inlineImageTypes.has(contentType) && !!width && !!height && width * height <= maxPreviewPixels;
}

/** An image of a type shown inline that is not shown: over maxPreviewPixels, or its size unknown. */
export const isTooLargeToPreview = (file: ImageFacts) => inlineImageTypes.has(file.contentType) && !isPreviewable(file);

/**
 * How a text shows one of its workspace's images (`![…](…)`): inline at its size, or, too large to
 * preview, as a link that says so with its size.
 */
export type ImageInText = { width: number; height: number } | { tooLargeToPreview: true; size: number };

/** A file of an issue as its page shows it (the Attachments list, a comment's files). */
export type AttachmentItem = {
  id: number;
  filename: string;
  url: string;
  size: number;
  /** An image shown inline (isPreviewable); only such an image has its width and height here. */
  image: boolean;
  /** An image too large to preview (isTooLargeToPreview): a link, which says so. */
  tooLargeToPreview: boolean;
  width: number | null;
  height: number | null;
  uploaderName: string | null;
  createdAt: string;
  /** Whether this reader may delete it: its uploader, or an admin. */
  deletable: boolean;
};

/** How many files one form may carry (docs/product.md, Limits). */
export const maxFilesPerRequest = 10;

/**
 * Why these files cannot be sent (docs/product.md, Limits: 10 a form, each at most `maxBytes`), in
 * the words the server's 413 and the browser's own check share; undefined when they can.
 */
export function fileLimitProblem(files: readonly { name: string; size: number }[], maxBytes: number): string | undefined {
  if (files.length > maxFilesPerRequest) return `Attach at most ${maxFilesPerRequest} files at a time.`;
  const large = files.find((file) => file.size > maxBytes);
  return large ? `Files may be at most ${formatBytes(maxBytes)} each: ${large.name} is ${formatBytes(large.size, "up")}.` : undefined;
}

/** Where an attachment is served: `/w/:workspace/attachments/:id/:filename`. */
export function attachmentPath(workspaceSlug: string, id: number, filename: string): string {
  return `/w/${encodeURIComponent(workspaceSlug)}/attachments/${id}/${encodeURIComponent(filename)}`;
}

/** The Markdown that shows an attachment where it is written: an image inline, any other file as a link. */
export function attachmentMarkdown(attachment: { url: string; filename: string; image: boolean }): string {
  // Brackets and backslashes in a name would end or escape the link's text.
  const text = attachment.filename.replace(/[[\]\\]/g, (c) => `\\${c}`);
  // An unbalanced parenthesis (encodeURIComponent leaves them) would end the address early or unmake the link.
  const url = attachment.url.replace(/[()]/g, (c) => (c === "(" ? "%28" : "%29"));
  return `${attachment.image ? "!" : ""}[${text}](${url})`;
}

/** The ids of this workspace's attachments a text links to, in the order they first appear. */
export function attachmentIdsIn(text: string, workspaceSlug: string): number[] {
  const prefix = `/w/${encodeURIComponent(workspaceSlug)}/attachments/`;
  const ids = new Set<number>();
  for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + prefix.length)) {
    const id = /^(\d{1,10})\//.exec(text.slice(at + prefix.length, at + prefix.length + 12))?.[1];
    if (id && Number(id) <= 2_147_483_647) ids.add(Number(id));
  }
  return [...ids];
}

/** The id an image's `src` names when it is one of this workspace's attachments (a path on this site). */
export function attachmentIdOf(src: string, workspaceSlug: string): number | undefined {
  const match = /^\/w\/([^/?#]+)\/attachments\/(\d{1,10})\/[^/?#]+$/.exec(src);
  if (!match || match[1] !== encodeURIComponent(workspaceSlug)) return undefined;
  const id = Number(match[2]);
  return id <= 2_147_483_647 ? id : undefined;
}

const units = ["bytes", "KiB", "MiB", "GiB", "TiB"] as const;

/**
 * `912 bytes`, `240 KiB`, `1.5 MiB`: binary units, as the limits are written. A file over a limit
 * has its size rounded `up`, so that it never reads as the limit itself ("at most 10 MiB: … is 10 MiB").
 */
export function formatBytes(bytes: number, rounding: "nearest" | "up" = "nearest"): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const round = rounding === "up" ? Math.ceil : Math.round;
  const rounded = value < 10 ? round(value * 10) / 10 : round(value);
  return `${rounded} ${units[unit]}`;
}
