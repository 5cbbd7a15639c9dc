import { z } from "zod";
import { emailField, idField } from "~/forms/fields.server";
import { roles } from "./roles";
import { workspaceNameField, workspaceSlugField } from "./workspaces.server";

const roleField = z.enum(roles, { error: "Choose a role." });

export const newWorkspaceSchema = z.object({ name: workspaceNameField, slug: workspaceSlugField });
export type NewWorkspaceForm = z.input<typeof newWorkspaceSchema>;

export const workspaceSettingsSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("rename"), name: workspaceNameField }),
  z.object({ intent: z.literal("delete"), confirm: z.string({ error: "Type the workspace's slug to confirm." }) }),
]);
export type RenameWorkspaceForm = { name: string };
export type DeleteWorkspaceForm = { confirm: string };

/** The workspace layout's "Leave workspace" button. */
export const leaveWorkspaceSchema = z.object({ intent: z.literal("leave") });

export const membersSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: emailField, role: roleField }),
  z.object({ intent: z.literal("change-role"), userId: idField, role: roleField }),
  z.object({ intent: z.literal("remove"), userId: idField }),
  z.object({ intent: z.literal("revoke"), invitationId: idField }),
  z.object({ intent: z.literal("resend"), invitationId: idField }),
  z.object({ intent: z.literal("new-link"), invitationId: idField }),
]);
export type InviteForm = { email: string; role: string };
