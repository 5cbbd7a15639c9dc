import { z } from "zod";
import { idField } from "~/forms/fields.server";
import { labelColorField, labelNameField } from "./labels.server";

export const labelsSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), name: labelNameField, color: labelColorField }),
  z.object({ intent: z.literal("update"), labelId: idField, name: labelNameField, color: labelColorField }),
  z.object({ intent: z.literal("delete"), labelId: idField }),
]);
export type LabelForm = { name: string; color: string };
