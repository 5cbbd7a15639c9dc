import type { Database } from "~/db/database.server";
import { recordIssueEvent } from "~/issues/issue-events.server";
import { issueNotFound, type NotFound, type ProjectScope } from "~/issues/write-scope.server";
import type { NotificationMail } from "~/notifications/notifications.server";

export type CommentChange = { ok: true } | { ok: false; status: 403 | 404; message: string };

/** Comments on an issue of the project; an issue of another project is not found. */
export async function addComment(
  db: Database,
  comment: { project: ProjectScope; issueId: number; authorId: number; body: string; now: Date; mail?: NotificationMail },
): Promise<{ ok: true; commentId: number } | NotFound> {
  const now = comment.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const touched = await trx
      .updateTable("issues")
      .set({ updated_at: now })
      .where("id", "=", comment.issueId)
      .where("project_id", "=", comment.project.id)
      .returning("version")
      .executeTakeFirst();
    if (!touched) return issueNotFound;
    const { id } = await trx
      .insertInto("comments")
      .values({ issue_id: comment.issueId, author_id: comment.authorId, body: comment.body, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordIssueEvent(
      trx,
      { project: comment.project, issueId: comment.issueId, actorId: comment.authorId, version: touched.version, now: comment.now, mail: comment.mail },
      { type: "comment.created", commentId: id, body: comment.body },
    );
    return { ok: true, commentId: id } as const;
  });
}

/** A comment not deleted, on that issue of that project. */
async function findLiveComment(db: Database, project: ProjectScope, issueId: number, commentId: number) {
  return db
    .selectFrom("comments")
    .innerJoin("issues", "issues.id", "comments.issue_id")
    .select(["comments.id", "comments.author_id", "comments.body", "issues.version"])
    .where("comments.id", "=", commentId)
    .where("comments.issue_id", "=", issueId)
    .where("issues.project_id", "=", project.id)
    .where("comments.deleted_at", "is", null)
    .executeTakeFirst();
}

const notFound: CommentChange = { ok: false, status: 404, message: "Comment not found." };
const notYours: CommentChange = { ok: false, status: 403, message: "You don't have permission to do that." };

/** Only the author edits a comment; it then shows "edited". People it newly mentions are notified. */
export async function editComment(
  db: Database,
  edit: { project: ProjectScope; issueId: number; commentId: number; actorId: number; body: string; now: Date; mail?: NotificationMail },
): Promise<CommentChange> {
  const comment = await findLiveComment(db, edit.project, edit.issueId, edit.commentId);
  if (!comment) return notFound;
  if (comment.author_id !== edit.actorId) return notYours;
  const now = edit.now.toISOString();
  return db.transaction().execute(async (trx) => {
    // Still not deleted at the moment of writing: a deletion in between wins.
    const edited = await trx
      .updateTable("comments")
      .set({ body: edit.body, edited_at: now, updated_at: now })
      .where("id", "=", comment.id)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (Number(edited.numUpdatedRows) === 0) return notFound;
    await recordIssueEvent(
      trx,
      { project: edit.project, issueId: edit.issueId, actorId: edit.actorId, version: comment.version, now: edit.now, mail: edit.mail },
      { type: "comment.edited", commentId: comment.id, body: { from: comment.body, to: edit.body } },
    );
    return { ok: true } as const;
  });
}

/**
 * Deletes softly: the thread keeps a "Comment deleted" mark. Authors delete their own; admins
 * (`canDeleteAny`) anyone's. The issue's activity records it.
 */
export async function deleteComment(
  db: Database,
  removal: { project: ProjectScope; issueId: number; commentId: number; actorId: number; canDeleteAny: boolean; now: Date },
): Promise<CommentChange> {
  const comment = await findLiveComment(db, removal.project, removal.issueId, removal.commentId);
  if (!comment) return notFound;
  if (comment.author_id !== removal.actorId && !removal.canDeleteAny) return notYours;
  const now = removal.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .updateTable("comments")
      .set({ body: "", deleted_at: now, updated_at: now })
      .where("id", "=", comment.id)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    // Someone deleted it a moment ago: one deletion, one activity.
    if (Number(deleted.numUpdatedRows) === 0) return notFound;
    const { version } = await trx.selectFrom("issues").select("version").where("id", "=", removal.issueId).executeTakeFirstOrThrow();
    await recordIssueEvent(
      trx,
      { project: removal.project, issueId: removal.issueId, actorId: removal.actorId, version, now: removal.now },
      { type: "comment.deleted", commentId: comment.id },
    );
    return { ok: true } as const;
  });
}

/**
 * An issue's comments not deleted, oldest first, with their authors: `limit` of them after the
 * comment `afterId` (keyset, by id), and whether more follow.
 */
export async function listComments(db: Database, issueId: number, page: { afterId: number | null; limit: number }) {
  const rows = await db
    .selectFrom("comments")
    .leftJoin("users as author", "author.id", "comments.author_id")
    .select([
      "comments.id",
      "comments.body",
      "comments.author_id",
      "comments.created_at",
      "comments.updated_at",
      "comments.edited_at",
      "author.name as authorName",
      "author.handle as authorHandle",
    ])
    .where("comments.issue_id", "=", issueId)
    .where("comments.deleted_at", "is", null)
    .$if(page.afterId !== null, (query) => query.where("comments.id", ">", page.afterId!))
    .orderBy("comments.id")
    .limit(page.limit + 1)
    .execute();
  return { comments: rows.slice(0, page.limit), more: rows.length > page.limit };
}
