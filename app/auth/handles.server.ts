import { z } from "zod";
import type { Database } from "~/db/database.server";

/** docs/product.md, Rules: 3–39 of a–z and 0–9, hyphens only single and between them. */
export const handleRules = { minLength: 3, maxLength: 39 } as const;
const handleShape = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const handleTakenMessage = "This handle is taken: choose another.";

/** A handle typed into a form: kept lower-case, without a leading `@`. */
export const handleField = z
  .string({ error: "Enter a handle." })
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^@/, ""))
  .pipe(
    z
      .string()
      .min(handleRules.minLength, `Use at least ${handleRules.minLength} characters.`)
      .max(handleRules.maxLength, `Use at most ${handleRules.maxLength} characters.`)
      .regex(handleShape, "Use a–z, 0–9 and single hyphens, not at the start or the end."),
  );

/**
 * The handle an email suggests: its local part in a–z, 0–9 and single hyphens ("Ada.Lovelace+x" →
 * "ada-lovelace-x"), padded to 3 and cut to leave room for a "-N" that tells two apart.
 */
export function handleFromEmail(email: string): string {
  const local = email.split("@")[0] ?? "";
  const base = local
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, handleRules.maxLength - 4)
    .replace(/-+$/, "");
  if (base.length >= handleRules.minLength) return base;
  return base ? `${base}-user` : "user";
}

/** `base`, or the first of `base-2`, `base-3`… that nobody has. */
export async function freeHandle(db: Database, base: string): Promise<string> {
  const taken = new Set(
    (await db.selectFrom("users").select("handle").where((eb) => eb.or([eb("handle", "=", base), eb("handle", "like", `${base}-%`)])).execute()).map(
      (row) => row.handle,
    ),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
