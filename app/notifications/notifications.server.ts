import type { Transaction } from "kysely";
import type { Database } from "~/db/database.server";
import type { DB, NotificationEmail, NotificationReason, Status } from "~/db/schema";
import { issueKey, statusLabels } from "~/issues/issue-fields";
import { enqueueJob } from "~/jobs/jobs.server";
import { directReasons, reasonPhrases } from "./reasons";

/** What notification mail needs from the instance: the absolute base of its links. */
export type NotificationMail = { publicUrl: string };

/** Where a person changes which notifications are mailed to them. */
export const notificationSettingsPath = "/settings/notifications";

type Notice = {
  workspaceId: number;
  issueId: number;
  actorId: number;
  now: Date;
  mail: NotificationMail | undefined;
  /** Each person to notify, with the reason their inbox row shows. */
  reasons: ReadonlyMap<number, NotificationReason>;
  /** What the mail quotes: the new status, the comment. */
  details: { status?: Status; comment?: string };
};

/** A comment quoted in mail: its first 2,000 characters. */
const quoted = (text: string) => (text.length > 2000 ? `${text.slice(0, 2000)}…` : text);

/**
 * Notifies people of a change, in its transaction: each one's inbox row for the issue takes the new
 * reason, actor and time and becomes unread; with `mail`, those whose preference asks for it get a
 * mail through the outbox.
 */
export async function notify(trx: Transaction<DB>, notice: Notice): Promise<void> {
  const now = notice.now.toISOString();
  await trx
    .insertInto("notifications")
    .values(
      [...notice.reasons].map(([userId, reason]) => ({
        user_id: userId,
        workspace_id: notice.workspaceId,
        issue_id: notice.issueId,
        reason,
        actor_id: notice.actorId,
        read_at: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(["user_id", "issue_id"]).doUpdateSet((eb) => ({
        reason: eb.ref("excluded.reason"),
        actor_id: eb.ref("excluded.actor_id"),
        updated_at: eb.ref("excluded.updated_at"),
        read_at: null,
      })),
    )
    .execute();
  if (notice.mail) await mailNotifications(trx, notice, notice.mail);
}

async function mailNotifications(trx: Transaction<DB>, notice: Notice, mail: NotificationMail) {
  const recipients = await trx
    .selectFrom("users")
    .select(["id", "email", "notification_email"])
    .where("id", "in", [...notice.reasons.keys()])
    .execute();
  const mailed = recipients.filter((user) => {
    const reason = notice.reasons.get(user.id)!;
    return user.notification_email === "all" || (user.notification_email === "direct" && directReasons.has(reason));
  });
  if (!mailed.length) return;
  const issue = await trx
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .innerJoin("workspaces", "workspaces.id", "projects.workspace_id")
    .select(["issues.number", "issues.title", "projects.key", "workspaces.slug", "workspaces.name as workspaceName"])
    .where("issues.id", "=", notice.issueId)
    .executeTakeFirstOrThrow();
  const actor = await trx.selectFrom("users").select("name").where("id", "=", notice.actorId).executeTakeFirst();
  const key = issueKey(issue.key, issue.number);
  const link = `${mail.publicUrl}/w/${encodeURIComponent(issue.slug)}/p/${issue.key}/issues/${issue.number}`;
  const unsubscribeUrl = `${mail.publicUrl}${notificationSettingsPath}`;
  for (const user of mailed) {
    const reason = notice.reasons.get(user.id)!;
    const said = `${actor?.name ?? "Someone"} ${reasonPhrases[reason]}`;
    const status = reason === "status" && notice.details.status ? ` to ${statusLabels[notice.details.status]}` : "";
    const comment = notice.details.comment && (reason === "commented" || reason === "mentioned") ? notice.details.comment : undefined;
    await enqueueJob(trx, {
      kind: "mail",
      now: notice.now,
      payload: {
        to: user.email,
        subject: `[${key}] ${issue.title}`,
        text: [
          `${said}${status} on ${key} ${issue.title} (${issue.workspaceName}).`,
          ...(comment ? ["", ...quoted(comment).split("\n").map((line) => `> ${line}`)] : []),
          "",
          `Open the issue: ${link}`,
          "",
          `You get this mail because ${user.notification_email === "all" ? "you chose mail for all your notifications" : "you were assigned or mentioned"}.`,
          `Choose which mail you get: ${unsubscribeUrl}`,
        ].join("\n"),
        unsubscribeUrl,
      },
    });
  }
}

/** One page of the inbox. */
export const inboxPageSize = 50;

export type InboxRow = {
  id: number;
  reason: NotificationReason;
  actorName: string | null;
  at: string;
  read: boolean;
} & (
  | { issue: { number: number; title: string; status: Status; projectKey: string }; webhook?: undefined }
  /** A webhook Cairn turned off (reason `webhook_disabled`): no issue. */
  | { issue?: undefined; webhook: { url: string } }
);

/** A person's inbox in a workspace, a page at a time: one row per issue, the latest first. */
export async function listInbox(db: Database, inbox: { userId: number; workspaceId: number; page: number }) {
  const mine = db
    .selectFrom("notifications")
    .where("notifications.user_id", "=", inbox.userId)
    .where("notifications.workspace_id", "=", inbox.workspaceId);
  const [rows, counted] = await Promise.all([
    mine
      .leftJoin("issues", "issues.id", "notifications.issue_id")
      .leftJoin("projects", "projects.id", "issues.project_id")
      .leftJoin("webhooks", "webhooks.id", "notifications.webhook_id")
      .leftJoin("users as actor", "actor.id", "notifications.actor_id")
      .select([
        "notifications.id",
        "notifications.reason",
        "notifications.updated_at",
        "notifications.read_at",
        "issues.number",
        "issues.title",
        "issues.status",
        "projects.key",
        "webhooks.url as webhookUrl",
        "actor.name as actorName",
      ])
      .orderBy("notifications.updated_at", "desc")
      .orderBy("notifications.id", "desc")
      .limit(inboxPageSize)
      .offset((inbox.page - 1) * inboxPageSize)
      .execute(),
    mine.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
  ]);
  const total = Number(counted.total);
  return {
    rows: rows.map((row): InboxRow => {
      const common = { id: row.id, reason: row.reason, actorName: row.actorName, at: row.updated_at, read: row.read_at !== null };
      return row.number === null
        ? { ...common, webhook: { url: row.webhookUrl ?? "" } }
        : { ...common, issue: { number: row.number, title: row.title!, status: row.status!, projectKey: row.key! } };
    }),
    total,
    page: inbox.page,
    pageCount: Math.max(1, Math.ceil(total / inboxPageSize)),
  };
}

/** How many of a person's inbox rows in a workspace are unread (the sidebar's count). */
export async function unreadCount(db: Database, userId: number, workspaceId: number): Promise<number> {
  const { count } = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("workspace_id", "=", workspaceId)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Marks one of a person's rows read or unread; false when they have no such row in the workspace. */
export async function markNotification(
  db: Database,
  mark: { userId: number; workspaceId: number; notificationId: number; read: boolean; now: Date },
): Promise<boolean> {
  const marked = await db
    .updateTable("notifications")
    .set({ read_at: mark.read ? mark.now.toISOString() : null })
    .where("id", "=", mark.notificationId)
    .where("user_id", "=", mark.userId)
    .where("workspace_id", "=", mark.workspaceId)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/** "Mark all as read" in one workspace. */
export async function markAllRead(db: Database, mark: { userId: number; workspaceId: number; now: Date }): Promise<void> {
  await db
    .updateTable("notifications")
    .set({ read_at: mark.now.toISOString() })
    .where("user_id", "=", mark.userId)
    .where("workspace_id", "=", mark.workspaceId)
    .where("read_at", "is", null)
    .execute();
}

/** Opening an issue reads its notification. */
export async function markIssueRead(db: Database, mark: { userId: number; issueId: number; now: Date }): Promise<void> {
  await db
    .updateTable("notifications")
    .set({ read_at: mark.now.toISOString() })
    .where("user_id", "=", mark.userId)
    .where("issue_id", "=", mark.issueId)
    .where("read_at", "is", null)
    .execute();
}

export async function emailPreference(db: Database, userId: number): Promise<NotificationEmail> {
  const row = await db.selectFrom("users").select("notification_email").where("id", "=", userId).executeTakeFirstOrThrow();
  return row.notification_email;
}

export async function setEmailPreference(db: Database, change: { userId: number; email: NotificationEmail; now: Date }): Promise<void> {
  await db
    .updateTable("users")
    .set({ notification_email: change.email, updated_at: change.now.toISOString() })
    .where("id", "=", change.userId)
    .execute();
}
