import { createWriteStream, openAsBlob } from "node:fs";
import { type Readable, Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { RouterContextProvider } from "react-router";
import { appContext } from "~/context/app-context.server";
import type { AttachmentLimits } from "~/config/env.server";
import type { FileReceiver } from "~/forms/parse-form.server";
import { type TemporaryFiles, temporaryFilesContext } from "~/forms/temporary-files.server";
import { fileLimitProblem, maxFilesPerRequest } from "./attachments";
import { attachmentUsage, quotaRefusal, safeFilename, type UploadRefusal } from "./attachments.server";

/** A file of the form as sent: its name as Cairn keeps it, and its size. */
type SentFile = { name: string; size: number; counted: boolean };

/**
 * The files of a form (`file`, repeated), received as they arrive (decision record 026): each into
 * a temporary file of the request, counted against the limits as its bytes come (docs/product.md,
 * Limits: 10 files a form, each at most ATTACHMENT_MAX_BYTES, all within the room the workspace had
 * when the first one came). Once a limit is crossed nothing more is kept, but the form is read on,
 * its files counted and dropped, so that every other field is kept; `refused` then names the limit,
 * as a 413. The room is checked again as the files are written (attachFiles, uploadUnclaimed).
 */
export class UploadReceiver implements FileReceiver {
  readonly #limits: AttachmentLimits;
  readonly #usage: () => Promise<{ bytes: number }>;
  readonly #temporaryFiles: TemporaryFiles;
  readonly #sent: SentFile[] = [];
  /** What the workspace's files took when the first file arrived. */
  #usedBytes: Promise<number> | undefined;
  #used: number | undefined;
  #sentBytes = 0;
  #keeping = true;

  constructor(options: { limits: AttachmentLimits; usage: () => Promise<{ bytes: number }>; temporaryFiles: TemporaryFiles }) {
    this.#limits = options.limits;
    this.#usage = options.usage;
    this.#temporaryFiles = options.temporaryFiles;
  }

  async receive({ field, filename, content }: { field: string; filename: string; content: Readable }): Promise<File> {
    // A file sent in another field is no upload: the form's schema refuses it.
    if (field !== "file") return dropped(content, filename);
    // A file input left empty sends a part with no name and no bytes: no file, not counted.
    const sent: SentFile = { name: safeFilename(filename), size: 0, counted: filename !== "" };
    this.#sent.push(sent);
    this.#usedBytes ??= this.#usage().then((usage) => usage.bytes);
    this.#used = await this.#usedBytes;
    const path = this.#keeping ? await this.#temporaryFiles.newPath() : undefined;
    const gate = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        sent.size += chunk.length;
        this.#sentBytes += chunk.length;
        sent.counted ||= sent.size > 0;
        if (this.#keeping && !this.#withinLimits(sent)) this.#keeping = false;
        done(null, this.#keeping ? chunk : undefined);
      },
    });
    await pipeline(content, gate, path ? createWriteStream(path) : discard());
    if (!path || !this.#keeping) return dropped(undefined, filename);
    return new File([await openAsBlob(path)], filename);
  }

  /** The limit the form's files crossed, as a 413 at its `file` field; undefined when they may be kept. */
  get refused(): UploadRefusal | undefined {
    const files = this.#sent.filter((file) => file.counted);
    const message = fileLimitProblem(files, this.#limits.maxBytes);
    if (message) return { ok: false, status: 413, message };
    if (this.#used !== undefined && this.#used + this.#sentBytes > this.#limits.workspaceMaxBytes) return quotaRefusal(this.#limits, this.#used);
    return undefined;
  }

  #withinLimits(file: SentFile): boolean {
    const count = this.#sent.filter((sent) => sent.counted).length;
    return count <= maxFilesPerRequest && file.size <= this.#limits.maxBytes && this.#used! + this.#sentBytes <= this.#limits.workspaceMaxBytes;
  }
}

/** The receiver of a route's form with files, for this workspace (the route's middleware has withTemporaryFiles). */
export function receiveUploads(context: Readonly<RouterContextProvider>, workspaceId: number): UploadReceiver {
  const { db, config } = context.get(appContext);
  return new UploadReceiver({ limits: config.attachments, usage: () => attachmentUsage(db, workspaceId), temporaryFiles: context.get(temporaryFilesContext) });
}

/**
 * A file that is not kept stands in the form as its name alone, so that the form reads as sent (a
 * comment of files only is still a comment, refused for its files rather than for being empty).
 */
async function dropped(content: Readable | undefined, filename: string): Promise<File> {
  if (content) await pipeline(content, discard());
  return new File([], filename);
}

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });
