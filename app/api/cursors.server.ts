import { createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { ApiRefusal } from "./api-errors.server";

/*
 * A page's `next` cursor: where the page ended, as base64url JSON, signed with a key derived from
 * the session secret. Only a cursor Cairn made is read back: a changed one is refused (400) before
 * any of its values reaches a query.
 */

const signature = (payload: string, secret: string) =>
  createHmac("sha256", createHmac("sha256", secret).update("cairn api cursor").digest()).update(payload).digest().subarray(0, 16);

export function encodeCursor(value: unknown, secret: string): string {
  const payload = Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${payload}.${signature(payload, secret).toString("base64url")}`;
}

/** The refusal of a cursor that is not the `next` of this list (or of this sort). */
export const invalidCursor = () => new ApiRefusal("validation", "Some fields are not valid.", { fields: { cursor: ["This cursor is not valid: use the `next` of the previous page, with the same sort."] } });

/** The cursor's value, as `schema` reads it; 400 for one Cairn did not make (or made for another list). */
export function decodeCursor<Schema extends z.ZodType>(raw: string, secret: string, schema: Schema): z.output<Schema> {
  const [payload, signed, ...rest] = raw.split(".");
  if (!payload || !signed || rest.length) throw invalidCursor();
  const expected = signature(payload, secret);
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
