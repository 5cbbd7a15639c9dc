import type { Transaction } from "kysely";
import type { Database } from "~/db/database.server";
import type { DB } from "~/db/schema";

type Reader = Database | Transaction<DB>;

export type WebhookPerson = { id: number; name: string; handle: string };
export type WebhookLabel = { id: number; name: string; color: string };

export async function people(db: Reader, ids: (number | null | undefined)[]): Promise<Map<number, WebhookPerson>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === "number"))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom("users").select(["id", "name", "handle"]).where("id", "in", wanted).execute();
  return new Map(rows.map((row) => [row.id, { id: row.id, name: row.name, handle: row.handle }]));
}

export async function labelsById(db: Reader, ids: number[]): Promise<Map<number, WebhookLabel>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom("labels").select(["id", "name", "color"]).where("id", "in", [...new Set(ids)]).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The message as sent: the issue's `url` made absolute with PUBLIC_URL (kept a path without it). */
export function withPublicUrl(payload: string, publicUrl: string | undefined): string {
  if (!publicUrl) return payload;
  const message = JSON.parse(payload) as { data?: { issue?: { url?: unknown } } };
  const issue = message.data?.issue;
  if (issue && typeof issue.url === "string" && issue.url.startsWith("/")) issue.url = publicUrl + issue.url;
  return JSON.stringify(message);
}
