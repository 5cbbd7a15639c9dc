import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createContext, type MiddlewareFunction } from "react-router";

/**
 * The files a request receives before it keeps them (a form's uploads): in a directory of its own
 * under the system's temporary directory (`TMPDIR`), made when first needed and removed once the
 * request is answered (withTemporaryFiles).
 */
export class TemporaryFiles {
  #directory: Promise<string> | undefined;
  #count = 0;
  #removed = false;

  /** The path of a new file of this request. */
  async newPath(): Promise<string> {
    if (this.#removed) throw new Error("This request's temporary files were removed: it was answered.");
    this.#directory ??= mkdtemp(path.join(os.tmpdir(), "cairn-upload-"));
    return path.join(await this.#directory, String(++this.#count));
  }

  async removeAll(): Promise<void> {
    this.#removed = true;
    const directory = await this.#directory?.catch(() => undefined);
    if (directory) await rm(directory, { recursive: true, force: true });
  }
}

export const temporaryFilesContext = createContext<TemporaryFiles>();

/** The middleware of the routes whose forms take files: what they received is removed once they have answered. */
export const withTemporaryFiles: MiddlewareFunction<Response> = async ({ context }, next) => {
  const files = new TemporaryFiles();
  context.set(temporaryFilesContext, files);
  try {
    return await next();
  } finally {
    await files.removeAll();
  }
};
