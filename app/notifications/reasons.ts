import type { NotificationReason } from "~/db/schema";

/** What the actor did, after their name, as the inbox and the mail say it. */
export const reasonPhrases: Record<NotificationReason, string> = {
  assigned: "assigned you",
  mentioned: "mentioned you",
  commented: "commented",
  status: "changed the status",
  reassigned: "changed the assignee",
  webhook_disabled: "turned off a webhook that failed for a day",
};

/** Which reason an inbox row keeps when one change gives a person several: the most direct. */
export const reasonRank: Record<NotificationReason, number> = { assigned: 5, mentioned: 4, commented: 3, status: 2, reassigned: 1, webhook_disabled: 0 };

/** The reasons that `direct` mail preference mails. */
export const directReasons: ReadonlySet<NotificationReason> = new Set(["assigned", "mentioned"]);
