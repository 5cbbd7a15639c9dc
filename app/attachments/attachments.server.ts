import type { AttachmentLimits } from "~/config/env.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { lockKeys } from "~/db/key-locks.server";
import type { DB } from "~/db/schema";
import type { AttachmentRef } from "~/issues/issue-event-types";
import { recordIssueEvent } from "~/issues/issue-events.server";
import { issueNotFound, type NotFound, type ProjectScope } from "~/issues/write-scope.server";
import type { NotificationMail } from "~/notifications/notifications.server";
import type { Transaction } from "kysely";
import { fileLimitProblem, formatBytes, type ImageInText, inlineImageTypes, isPreviewable } from "./attachments";
import { storeContent } from "./attachment-content.server";
import type { DetectedContent } from "./content-type.server";

/** A refusal of files: too many or too large (413, the limit named), or none at all (400). */
export type UploadRefusal = { ok: false; status: 400 | 413; message: string };

export type AttachmentChange = { ok: true } | { ok: false; status: 403 | 404; message: string };

/** An attachment as a page lists it. */
export type AttachmentSummary = {
  id: number;
  filename: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  commentId: number | null;
  uploaderId: number | null;
  uploaderName: string | null;
  createdAt: string;
};

const maxFilenameLength = 200;

/**
 * A file's name as Cairn keeps and shows it: the last part of a path (some browsers send the
 * whole of it), without control or bidirectional-override characters (a name must not read as
 * something else), at most 200 characters with its extension kept; "file" when nothing is left.
 */
export function safeFilename(name: string): string {
  const base = name.split(/[/\\]/).at(-1) ?? "";
  const clean = base
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  const characters = [...clean];
  if (characters.length <= maxFilenameLength) return clean || "file";
  const extension = /\.[^.]{1,16}$/.exec(clean)?.[0] ?? "";
  return characters.slice(0, maxFilenameLength - [...extension].length).join("") + extension;
}

/** docs/product.md, Limits: 10 files a form, each at most ATTACHMENT_MAX_BYTES. */
export function uploadProblem(files: readonly File[], limits: AttachmentLimits): UploadRefusal | undefined {
  const message = fileLimitProblem(
    files.map((file) => ({ name: safeFilename(file.name), size: file.size })),
    limits.maxBytes,
  );
  return message ? { ok: false, status: 413, message } : undefined;
}

export const quotaRefusal = (limits: AttachmentLimits, used: number): UploadRefusal => ({
  ok: false,
  status: 413,
  message: `This workspace's files may total at most ${formatBytes(limits.workspaceMaxBytes)}, and ${formatBytes(used)} are used: there is no room for these.`,
});

/** How much a workspace's attachments take (docs/product.md, Limits), from the (workspace, size) index alone. */
export async function attachmentUsage(db: Database | Transaction<DB>, workspaceId: number): Promise<{ bytes: number; files: number }> {
  const row = await db
    .selectFrom("attachments")
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number | string>("size"), eb.lit(0)).as("bytes"), eb.fn.countAll<number | string>().as("files")])
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirstOrThrow();
  // PostgreSQL sums and counts as bigint, which its driver hands over as text.
  return { bytes: Number(row.bytes), files: Number(row.files) };
}

const total = (files: readonly { size: number }[]) => files.reduce((sum, file) => sum + file.size, 0);

/** A file kept: its id, its name as kept, and what its bytes were found to be. */
type StoredFile = AttachmentRef & DetectedContent & { size: number };

/**
 * Keeps the files if the workspace's total leaves room for them: each a row, its bytes streamed
 * into its chunks (storeContent) and its type found on the way. Uploads to one workspace take turns
 * (lockKeys), so that two of them cannot both fit into the room left for one.
 */
async function insertWithinQuota(
  trx: Transaction<DB>,
  dialect: DatabaseHandle["dialect"],
  values: { workspaceId: number; issueId: number | null; commentId: number | null; uploaderId: number; now: string; limits: AttachmentLimits },
  files: readonly File[],
): Promise<StoredFile[] | UploadRefusal> {
  await lockKeys(trx, dialect, [`attachments:${values.workspaceId}`]);
  const { bytes } = await attachmentUsage(trx, values.workspaceId);
  if (bytes + total(files) > values.limits.workspaceMaxBytes) return quotaRefusal(values.limits, bytes);
  const stored: StoredFile[] = [];
  for (const file of files) {
    const filename = safeFilename(file.name);
    const { id } = await trx
      .insertInto("attachments")
      .values({
        workspace_id: values.workspaceId,
        issue_id: values.issueId,
        comment_id: values.commentId,
        uploader_id: values.uploaderId,
        filename,
        // What the bytes are is known once they are all written.
        content_type: "application/octet-stream",
        size: file.size,
        created_at: values.now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const content = await storeContent(trx, id, file);
    await trx.updateTable("attachments").set({ content_type: content.contentType, size: content.size, width: content.width, height: content.height }).where("id", "=", id).execute();
    stored.push({ id, filename, ...content });
  }
  return stored;
}

/** Touches the issue (it changed) and answers its version, or nothing when the project has no such issue. */
async function touchIssue(trx: Transaction<DB>, project: ProjectScope, issueId: number, now: string) {
  return trx.updateTable("issues").set({ updated_at: now }).where("id", "=", issueId).where("project_id", "=", project.id).returning("version").executeTakeFirst();
}

/**
 * Attaches files to an issue, or to one of its comments: one transaction, all or none. Files of the
 * issue itself are said in its activity ("attached screenshot.png"); a comment shows its own.
 */
export async function attachFiles(
  database: DatabaseHandle,
  attach: { project: ProjectScope; issueId: number; commentId?: number; uploaderId: number; files: readonly File[]; limits: AttachmentLimits; now: Date; mail?: NotificationMail },
): Promise<{ ok: true; attachments: AttachmentRef[] } | UploadRefusal | NotFound> {
  if (!attach.files.length) return { ok: false, status: 400, message: "Choose files to attach." };
  const problem = uploadProblem(attach.files, attach.limits);
  if (problem) return problem;
  const now = attach.now.toISOString();
  return database.db.transaction().execute(async (trx) => {
    const touched = await touchIssue(trx, attach.project, attach.issueId, now);
    if (!touched) return issueNotFound;
    const values = { workspaceId: attach.project.workspace_id, issueId: attach.issueId, commentId: attach.commentId ?? null, uploaderId: attach.uploaderId, now, limits: attach.limits };
    const stored = await insertWithinQuota(trx, database.dialect, values, attach.files);
    if ("ok" in stored) return stored;
    const attachments = stored.map(({ id, filename }) => ({ id, filename }));
    if (attach.commentId === undefined) {
      const scope = { project: attach.project, issueId: attach.issueId, actorId: attach.uploaderId, version: touched.version, now: attach.now, mail: attach.mail };
      await recordIssueEvent(trx, scope, { type: "issue.attachments_added", attachments });
    }
    return { ok: true, attachments } as const;
  });
}

/** A file dropped or pasted into a text box (with JavaScript): uploaded at once, claimed when its form is sent. */
export type UnclaimedUpload = { id: number; filename: string; contentType: string; size: number; width: number | null; height: number | null };

/**
 * Keeps a file for the form it was dropped into, before that form is sent (a new issue has no id
 * yet). It belongs to no issue until claimAttachments gives it one; unclaimed, it is deleted after
 * a day (deleteUnclaimedAttachments).
 */
export async function uploadUnclaimed(
  database: DatabaseHandle,
  upload: { workspaceId: number; uploaderId: number; file: File; limits: AttachmentLimits; now: Date },
): Promise<{ ok: true; attachment: UnclaimedUpload } | UploadRefusal> {
  const problem = uploadProblem([upload.file], upload.limits);
  if (problem) return problem;
  const values = { workspaceId: upload.workspaceId, issueId: null, commentId: null, uploaderId: upload.uploaderId, now: upload.now.toISOString(), limits: upload.limits };
  const stored = await database.db.transaction().execute((trx) => insertWithinQuota(trx, database.dialect, values, [upload.file]));
  if ("ok" in stored) return stored;
  const { id, filename, contentType, size, width, height } = stored[0]!;
  return { ok: true, attachment: { id, filename, contentType, size, width, height } };
}

/**
 * Gives the issue (and the comment, when the text is one) the files its sender uploaded for it and
 * its text links to (`ids`): only their own uploads, of this workspace, not yet claimed. Files of
 * the issue itself are said in its activity, as attachFiles does.
 */
export async function claimAttachments(
  db: Database,
  claim: { project: ProjectScope; issueId: number; commentId?: number; uploaderId: number; ids: readonly number[]; now: Date; mail?: NotificationMail },
): Promise<AttachmentRef[]> {
  if (!claim.ids.length) return [];
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("attachments")
      .set({ issue_id: claim.issueId, comment_id: claim.commentId ?? null })
      .where("workspace_id", "=", claim.project.workspace_id)
      .where("uploader_id", "=", claim.uploaderId)
      .where("issue_id", "is", null)
      .where("id", "in", claim.ids.slice(0, 100))
      .returning(["id", "filename"])
      .execute();
    if (!claimed.length || claim.commentId !== undefined) return claimed;
    const touched = await touchIssue(trx, claim.project, claim.issueId, claim.now.toISOString());
    if (!touched) return [];
    const attachments = claimed.sort((a, b) => a.id - b.id);
    const scope = { project: claim.project, issueId: claim.issueId, actorId: claim.uploaderId, version: touched.version, now: claim.now, mail: claim.mail };
    await recordIssueEvent(trx, scope, { type: "issue.attachments_added", attachments });
    return attachments;
  });
}

const attachmentNotFound: AttachmentChange = { ok: false, status: 404, message: "Attachment not found." };
const notYours: AttachmentChange = { ok: false, status: 403, message: "You don't have permission to do that." };

/** The uploader, or an admin (`canDeleteAny`), deletes an attachment of the issue: its row, bytes and all. */
export async function deleteAttachment(
  db: Database,
  removal: { project: ProjectScope; issueId: number; attachmentId: number; actorId: number; canDeleteAny: boolean; now: Date; mail?: NotificationMail },
): Promise<AttachmentChange> {
  const found = await db
    .selectFrom("attachments")
    .innerJoin("issues", "issues.id", "attachments.issue_id")
    .select(["attachments.id", "attachments.filename", "attachments.uploader_id"])
    .where("attachments.id", "=", removal.attachmentId)
    .where("attachments.issue_id", "=", removal.issueId)
    .where("issues.project_id", "=", removal.project.id)
    .executeTakeFirst();
  if (!found) return attachmentNotFound;
  if (found.uploader_id !== removal.actorId && !removal.canDeleteAny) return notYours;
  return db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom("attachments").where("id", "=", found.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return attachmentNotFound;
    const touched = await touchIssue(trx, removal.project, removal.issueId, removal.now.toISOString());
    if (!touched) return attachmentNotFound;
    const scope = { project: removal.project, issueId: removal.issueId, actorId: removal.actorId, version: touched.version, now: removal.now, mail: removal.mail };
    await recordIssueEvent(trx, scope, { type: "issue.attachment_removed", attachment: { id: found.id, filename: found.filename } });
    return { ok: true } as const;
  });
}

/** An attachment, for a member of its workspace (by the workspace's slug); undefined for anyone else. Its bytes: contentStream. */
export async function findServedAttachment(db: Database, lookup: { workspaceSlug: string; id: number; userId: number }) {
  return db
    .selectFrom("attachments")
    .innerJoin("workspaces", "workspaces.id", "attachments.workspace_id")
    .innerJoin("memberships", (join) => join.onRef("memberships.workspace_id", "=", "attachments.workspace_id").on("memberships.user_id", "=", lookup.userId))
    .select(["attachments.id", "attachments.filename", "attachments.content_type", "attachments.size", "attachments.width", "attachments.height"])
    .where("attachments.id", "=", lookup.id)
    .where("workspaces.slug", "=", lookup.workspaceSlug)
    .executeTakeFirst();
}

/** Of these ids, the workspace's attachments that are images (of the types shown inline), as a text shows them. */
export async function findInlineImages(db: Database, workspaceId: number, ids: readonly number[]): Promise<Map<number, ImageInText>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom("attachments")
    .select(["id", "content_type as contentType", "size", "width", "height"])
    .where("workspace_id", "=", workspaceId)
    .where("id", "in", ids.slice(0, 100))
    .where("content_type", "in", [...inlineImageTypes])
    .execute();
  return new Map(rows.map((row) => [row.id, imageInText(row)]));
}

/** An image as a text shows it: at its size, or a link when too large to preview (isPreviewable). */
export function imageInText(image: { contentType: string; size: number; width: number | null; height: number | null }): ImageInText {
  return isPreviewable(image) ? { width: image.width!, height: image.height! } : { tooLargeToPreview: true, size: image.size };
}

const dayMs = 24 * 60 * 60 * 1000;

/** Uploads no form claimed within a day: the text they were dropped into was never sent. */
export async function deleteUnclaimedAttachments(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .deleteFrom("attachments")
    .where("issue_id", "is", null)
    .where("created_at", "<", new Date(now.getTime() - dayMs).toISOString())
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
