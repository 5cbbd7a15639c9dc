import { createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { ApiRefusal } from "./api-errors.server";

/*
 * A page's `next` cursor: where the page ended, as base64url JSON, signed with a key derived from
 * the session secret. The signature covers the list the cursor pages through too (a project's
 * issues with their filters and sort, an issue's comments): that list is not in the cursor, so a
 * cursor read back on another list fails its signature. Only a cursor Cairn made for this list is
 * read back: any other is refused (400) before any of its values reaches a query.
 */

const signature = (list: string, payload: string, secret: string) =>
  createHmac("sha256", createHmac("sha256", secret).update("cairn api cursor").digest()).update(`${list}\n${payload}`).digest().subarray(0, 16);

/** `list` names the list the page is of, the same way each time (e.g. JSON of its project, filters and sort). */
export function encodeCursor(value: unknown, list: string, secret: string): string {
  const payload = Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${payload}.${signature(list, payload, secret).toString("base64url")}`;
}

/** The refusal of a cursor that is not a `next` of this list. */
const invalidCursor = () =>
  new ApiRefusal("validation", "Some fields are not valid.", {
    fields: { cursor: ["This cursor is not valid: use the `next` of the previous page of this list, with the same filters and sort."] },
  });

/** The cursor's value, as `schema` reads it; 400 for one Cairn did not make, or made for another list. */
export function decodeCursor<Schema extends z.ZodType>(raw: string, list: string, secret: string, schema: Schema): z.output<Schema> {
  const [payload, signed, ...rest] = raw.split(".");
  if (!payload || !signed || rest.length) throw invalidCursor();
  const expected = signature(list, payload, secret);
  const given = Buffer.from(signed, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidCursor();
  return parsed.data;
}
