import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { $ZodType } from "zod/v4/core";

/** What a route's error boundary shows when a form's body is not a form (docs/product.md, Errors: 415, or 400). */
export const unreadableFormMessage = "This form could not be read. Reload the page and try again.";

/** The encodings a browser gives a form (and React Router's fetchers, with JavaScript). */
const formContentTypes = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** A field that, left empty, takes a value made from another (a workspace's slug from its name). */
type Suggestion = { field: string; from: string; make: (text: string) => string };

/**
 * The one way a route reads a submitted form: parsed and validated on the server with Zod.
 * `keepEmptyValues` leaves "" as "" (instead of missing), for forms where an empty value means
 * "clear this" and a missing one "leave it as it is". `suggest` fills a field left empty before
 * the form is checked, so that the suggestion is checked, and shown when refused, as if typed.
 * A body of another content type (or none) is refused with 415, a form body that cannot be parsed
 * (or that is not UTF-8) with 400: what a client sent is never a 500.
 */
export async function parseForm<Schema extends $ZodType>(request: Request, schema: Schema, options: { keepEmptyValues?: boolean; suggest?: Suggestion } = {}) {
  const form = await readFormData(request);
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

async function readFormData(request: Request): Promise<FormData | URLSearchParams> {
  const type = request.headers.get("Content-Type")?.split(";")[0]!.trim().toLowerCase();
  if (!type || !formContentTypes.has(type)) throw unreadableForm(415);
  // A multipart body without its boundary or otherwise malformed, or a body cut short, is unreadable.
  const read = type === "multipart/form-data" ? request.formData() : request.arrayBuffer();
  const body = await read.catch(() => undefined);
  if (body === undefined) throw unreadableForm(400);
  if (body instanceof FormData) return body;
  const bytes = new Uint8Array(body);
  if (!isUtf8Urlencoded(bytes)) throw unreadableForm(400);
  return new URLSearchParams(new TextDecoder().decode(bytes));
}

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
