import { parseWithZod } from "@conform-to/zod/v4";
import type { $ZodType } from "zod/v4/core";

/** The one way a route reads a submitted form: parsed and validated on the server with Zod. */
export async function parseForm<Schema extends $ZodType>(request: Request, schema: Schema) {
  return parseWithZod(await request.formData(), { schema });
}
