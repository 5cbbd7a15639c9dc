import { parseWithZod } from "@conform-to/zod/v4";
import type { $ZodType } from "zod/v4/core";

/**
 * The one way a route reads a submitted form: parsed and validated on the server with Zod.
 * `keepEmptyValues` leaves "" as "" (instead of missing), for forms where an empty value means
 * "clear this" and a missing one "leave it as it is".
 */
export async function parseForm<Schema extends $ZodType>(request: Request, schema: Schema, options: { keepEmptyValues?: boolean } = {}) {
  return parseWithZod(await request.formData(), { schema, disableAutoCoercion: options.keepEmptyValues });
}
