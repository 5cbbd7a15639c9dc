import { z } from "zod";
import { checkboxField } from "~/forms/fields.server";
import { viewNameField } from "./saved-views.server";

/** The list's "Save view" form (intent=save-view): `query` is the list's query string, made canonical by saveView. */
export const saveViewSchema = z.object({
  intent: z.literal("save-view"),
  name: viewNameField,
  shared: checkboxField,
  query: z.string().max(10_000, "This list's address is too long to save.").default(""),
});
export type SaveViewForm = { name: string; shared: boolean };

/** A view's page: rename it, or delete it. */
export const viewActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("rename"), name: viewNameField }),
  z.object({ intent: z.literal("delete") }),
]);
export type RenameViewForm = { name: string };
