import type { Kysely } from "kysely";
import type { Dialect } from "~/db/database.server";

/**
 * Every user gets a handle (`@ada`, for mentions): unique, 3–39 of a–z, 0–9 and single hyphens.
 * Existing accounts get one from their email's local part, told apart by "-2", "-3"… in the order
 * they were created. (The rule is written out here, not imported, so that this migration does
 * tomorrow what it does today.)
 */
export async function up(db: Kysely<any>, _dialect: Dialect) {
  await db.schema.alterTable("users").addColumn("handle", "text").execute();
  const users: { id: number; email: string }[] = await db.selectFrom("users").select(["id", "email"]).orderBy("id").execute();
  const taken = new Set<string>();
  for (const user of users) {
    const base = fromEmail(user.email);
    let handle = base;
    for (let n = 2; taken.has(handle); n++) handle = `${base}-${n}`;
    taken.add(handle);
    await db.updateTable("users").set({ handle }).where("id", "=", user.id).execute();
  }
  await db.schema.createIndex("users_handle").on("users").column("handle").unique().execute();
}

function fromEmail(email: string): string {
  const base = (email.split("@")[0] ?? "")
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 35)
    .replace(/-+$/, "");
  if (base.length >= 3) return base;
  return base ? `${base}-user` : "user";
}
