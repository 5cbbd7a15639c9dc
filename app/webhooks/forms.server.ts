import { z } from "zod";
import { webhookEventTypes } from "~/db/schema";
import { idField, textProblem } from "~/forms/fields.server";

/** The longest webhook URL accepted. */
export const maxWebhookUrlLength = 2000;

/**
 * Why a webhook URL cannot be used, or undefined: an absolute http:// or https:// URL with a host,
 * without a user name or password in it, at most 2,000 characters. (Where it leads is checked when
 * it is called: the address it resolves to then must be public.)
 */
export function webhookUrlProblem(url: string): string | undefined {
  if (url.length > maxWebhookUrlLength) return `Use at most ${maxWebhookUrlLength.toLocaleString("en")} characters.`;
  if (textProblem(url, "single") || /\s/.test(url)) return "Enter a URL without spaces or invisible characters.";
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return "Enter an http:// or https:// URL, such as https://example.com/hooks/cairn.";
  if (!parsed.hostname) return "Enter a URL with a host name.";
  if (parsed.username || parsed.password) return "Take the user name and password out of the URL: Cairn signs each delivery instead.";
  return undefined;
}

const urlField = z
  .string({ error: "Enter the URL Cairn should send events to." })
  .trim()
  .min(1, { message: "Enter the URL Cairn should send events to.", abort: true })
  .superRefine((url, ctx) => {
    const problem = webhookUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** `events` repeated; none chosen means all of them. */
const eventsField = z
  .preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(z.string()).max(webhookEventTypes.length * 2, "Choose from the events listed."))
  .superRefine((events, ctx) => {
    const unknown = events.filter((event) => !(webhookEventTypes as readonly string[]).includes(event));
    if (unknown.length) ctx.addIssue({ code: "custom", message: `Choose from the events listed (${webhookEventTypes.join(", ")}).` });
  })
  .transform((events) => events as (typeof webhookEventTypes)[number][]);

export const webhooksSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), url: urlField, events: eventsField }),
  z.object({ intent: z.literal("enable"), webhookId: idField }),
  z.object({ intent: z.literal("disable"), webhookId: idField }),
  z.object({ intent: z.literal("delete"), webhookId: idField }),
  z.object({ intent: z.literal("redeliver"), deliveryId: idField }),
]);
export type NewWebhookForm = { url: string; events: string[] };
