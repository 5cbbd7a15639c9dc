import { z } from "zod";
import { notificationEmails } from "~/db/schema";
import { idField } from "~/forms/fields.server";

/** The inbox's buttons: one row read or unread, or all of them read. */
export const inboxSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), notificationId: idField }),
  z.object({ intent: z.literal("unread"), notificationId: idField }),
  z.object({ intent: z.literal("read-all") }),
]);

/** /settings/notifications: which notifications are mailed. */
export const notificationSettingsSchema = z.object({
  email: z.enum(notificationEmails, { error: "Choose which notifications are mailed to you." }),
});
