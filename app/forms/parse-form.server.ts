import type { Readable } from "node:stream";
import { parseWithZod } from "@conform-to/zod/v4";
import Busboy, { type BusboyInstance } from "@fastify/busboy";
import { data } from "react-router";
import type { $ZodType } from "zod/v4/core";

/** What a route's error boundary shows when a form's body is not a form (docs/product.md, Errors: 415, or 400). */
export const unreadableFormMessage = "This form could not be read. Reload the page and try again.";

/** The encodings a browser gives a form (and React Router's fetchers, with JavaScript). */
const formContentTypes = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** A field that, left empty, takes a value made from another (a workspace's slug from its name). */
type Suggestion = { field: string; from: string; make: (text: string) => string };

/**
 * Where the files of a form that takes them go as they arrive (app/attachments/upload-receiver.server.ts),
 * so that the form is never whole in memory.
 */
export type FileReceiver = {
  /** A file part (its field, its name as sent, its bytes as they arrive): reads it to the end, and answers the File the form keeps of it. */
  receive(part: { field: string; filename: string; content: Readable }): Promise<File>;
};

/**
 * The one way a route reads a submitted form: parsed and validated on the server with Zod.
 * `keepEmptyValues` leaves "" as "" (instead of missing), for forms where an empty value means
 * "clear this" and a missing one "leave it as it is". `files`: a form that takes files is read as
 * it arrives, each file handed to the receiver (without one, a form is read whole, within the
 * 1 MiB every other body may have). `suggest` fills a field left empty before the form is
 * checked, so that the suggestion is checked, and shown when refused, as if typed.
 * A body of another content type (or none) is refused with 415, a form body that cannot be parsed
 * (or that is not UTF-8) with 400: what a client sent is never a 500.
 */
export async function parseForm<Schema extends $ZodType>(
  request: Request,
  schema: Schema,
  options: { keepEmptyValues?: boolean; files?: FileReceiver; suggest?: Suggestion } = {},
) {
  const form = await readFormData(request, options.files);
  if (options.suggest) fillSuggestion(form, options.suggest);
  return parseWithZod(form, { schema, disableAutoCoercion: options.keepEmptyValues });
}

function fillSuggestion(form: FormData | URLSearchParams, { field, from, make }: Suggestion) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  if (text(field) === "") form.set(field, make(text(from)));
}

/**
 * A form's `intent`, read from a copy of the request (the same rules as parseForm: 415, 400), for
 * an action whose intents need different permissions before the form is parsed.
 */
export async function peekIntent(request: Request): Promise<string | undefined> {
  const intent = (await readFormData(request.clone())).get("intent");
  return typeof intent === "string" ? intent : undefined;
}

/** The route's error boundary shows the status text as its title and the message under it. */
const unreadableForm = (status: 400 | 415) => data(unreadableFormMessage, { status, statusText: "Form not readable" });

async function readFormData(request: Request, files?: FileReceiver): Promise<FormData | URLSearchParams> {
  const type = request.headers.get("Content-Type")?.split(";")[0]!.trim().toLowerCase();
  if (!type || !formContentTypes.has(type)) throw unreadableForm(415);
  if (type === "multipart/form-data" && files) return readMultipart(request, files);
  // A multipart body without its boundary or otherwise malformed, or a body cut short, is unreadable.
  const read = type === "multipart/form-data" ? request.formData() : request.arrayBuffer();
  const body = await read.catch(() => undefined);
  if (body === undefined) throw unreadableForm(400);
  if (body instanceof FormData) return body;
  const bytes = new Uint8Array(body);
  if (!isUtf8Urlencoded(bytes)) throw unreadableForm(400);
  return new URLSearchParams(new TextDecoder().decode(bytes));
}

/** A form with files may have as much else as any other body (docs/product.md, Limits): 1 MiB of text, in 2,000 fields. */
const maxTextBytes = 1024 * 1024;
const maxTextFields = 2000;
/** Far more file parts than a form may attach (10): past them the form is refused whole. */
const maxFileParts = 100;

/**
 * A multipart form read as it arrives (busboy): its text fields kept, its files handed to the
 * receiver one after the other, in their order. The whole body is read, even past a file the
 * receiver refuses (so that the fields after it are kept too) or a malformed part (so that the
 * connection stays usable); the host bounds its length first.
 */
async function readMultipart(request: Request, files: FileReceiver): Promise<FormData> {
  const parser = multipartParser(request.headers.get("Content-Type")!);
  const entries: [string, string | Promise<File>][] = [];
  let textBytes = 0;
  let tooLarge = false;
  let malformed = !parser;
  parser?.on("field", (name, value, nameTruncated, valueTruncated) => {
    textBytes += name.length + value.length;
    if (nameTruncated || valueTruncated || textBytes > maxTextBytes) tooLarge = true;
    else entries.push([name, value]);
  });
  parser?.on("file", (field, content, filename) => {
    // A part cut short fails its stream as well as the parser: the parser's error answers it (400),
    // even while the receiver is not yet reading.
    content.on("error", () => {});
    const file = files.receive({ field, filename, content });
    // Awaited once the body is read; until then a failure must not count as unhandled.
    file.catch(() => {});
    entries.push([field, file]);
  });
  for (const limit of ["fieldsLimit", "filesLimit", "partsLimit"] as const) parser?.on(limit, () => (tooLarge = true));
  parser?.on("error", () => (malformed = true));
  const body = request.body?.getReader();
  if (!body) throw unreadableForm(400);
  try {
    for (let read = await body.read(); !read.done; read = await body.read()) {
      if (!malformed && !parser!.write(read.value)) await settled(parser!, "drain");
    }
  } catch {
    // The client went away.
    throw unreadableForm(400);
  }
  if (!malformed) {
    parser!.end();
    await settled(parser!, "finish");
  }
  if (malformed) throw unreadableForm(400);
  const form = new FormData();
  for (const [name, value] of entries) form.append(name, await value);
  if (tooLarge) throw data("That is too large. Requests may be at most 1 MiB.", { status: 413, statusText: "Too large" });
  return form;
}

/** busboy for this Content-Type; undefined when it names no boundary. */
function multipartParser(contentType: string): BusboyInstance | undefined {
  // A part is a file when it has a filename, as browsers (and fetch's FormData) tell them.
  const isPartAFile = (_field: unknown, _type: unknown, filename: string | undefined) => filename !== undefined;
  try {
    return Busboy({ headers: { "content-type": contentType }, isPartAFile, limits: { fieldSize: maxTextBytes, fields: maxTextFields, files: maxFileParts } });
  } catch {
    return undefined;
  }
}

/** When the parser has drained or finished, or has failed (its "error" listener says so). */
const settled = (parser: BusboyInstance, event: "drain" | "finish") =>
  new Promise<void>((resolve) => {
    const done = () => {
      parser.off(event, done).off("error", done);
      resolve();
    };
    parser.once(event, done).once("error", done);
  });

const utf8 = new TextDecoder("utf-8", { fatal: true });
const isHexDigit = (byte: number | undefined) => byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66));

/**
 * Whether a urlencoded body is UTF-8 once percent-decoded. URLSearchParams would turn any byte
 * that is not into U+FFFD — a broken character saved as if typed, such as half of a surrogate pair
 * (`%ED%A0%80`); browsers never send such bytes. A `%` not followed by two hex digits stays itself,
 * as URLSearchParams keeps it.
 */
function isUtf8Urlencoded(body: Uint8Array): boolean {
  const bytes = new Uint8Array(body.length);
  let length = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === 0x25 && isHexDigit(body[i + 1]) && isHexDigit(body[i + 2])) {
      bytes[length++] = Number.parseInt(String.fromCharCode(body[i + 1]!, body[i + 2]!), 16);
      i += 2;
    } else {
      bytes[length++] = body[i]!;
    }
  }
  try {
    utf8.decode(bytes.subarray(0, length));
    return true;
  } catch {
    return false;
  }
}
