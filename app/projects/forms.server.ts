import { z } from "zod";
import { projectDescriptionField, projectKeyField, projectNameField } from "./projects.server";

export const newProjectSchema = z.object({ name: projectNameField, key: projectKeyField, description: projectDescriptionField });
export type NewProjectForm = z.input<typeof newProjectSchema>;

export const projectSettingsSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("update"), name: projectNameField, description: projectDescriptionField }),
  z.object({ intent: z.literal("archive") }),
  z.object({ intent: z.literal("unarchive") }),
]);
export type ProjectSettingsForm = { name: string; description: string };
