import type { Database } from "~/db/database.server";
import { multiLineText } from "~/forms/fields.server";
import { issueNotFound, type ProjectScope } from "~/issues/issues.server";
import { watchIssue } from "~/issues/watching.server";
import { inTimelineOrder, type TimelineEntry } from "~/issues/timeline";

export const commentBodyField = multiLineText({ empty: "Write a comment.", max: 10_000 });

export type CommentChange = { ok: true } | { ok: false; status: 403 | 404; message: string };

/** Comments on an issue of the project; an issue of another project is not found. */
export async function addComment(
  db: Database,
  comment: { project: ProjectScope; issueId: number; authorId: number; body: string; now: Date },
): Promise<CommentChange> {
  const now = comment.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const touched = await trx
      .updateTable("issues")
      .set({ updated_at: now })
      .where("id", "=", comment.issueId)
      .where("project_id", "=", comment.project.id)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) === 0) return issueNotFound;
    await trx
      .insertInto("comments")
      .values({ issue_id: comment.issueId, author_id: comment.authorId, body: comment.body, created_at: now, updated_at: now })
      .execute();
    // Whoever comments watches the issue.
    await watchIssue(trx, { project: comment.project, issueId: comment.issueId, userId: comment.authorId, now: comment.now });
    return { ok: true } as const;
  });
}

/** A comment not deleted, on that issue of that project. */
async function findLiveComment(db: Database, project: ProjectScope, issueId: number, commentId: number) {
  return db
    .selectFrom("comments")
    .innerJoin("issues", "issues.id", "comments.issue_id")
    .select(["comments.id", "comments.author_id"])
    .where("comments.id", "=", commentId)
    .where("comments.issue_id", "=", issueId)
    .where("issues.project_id", "=", project.id)
    .where("comments.deleted_at", "is", null)
    .executeTakeFirst();
}

const notFound: CommentChange = { ok: false, status: 404, message: "Comment not found." };
const notYours: CommentChange = { ok: false, status: 403, message: "You don't have permission to do that." };

/** Only the author edits a comment; it then shows "edited". */
export async function editComment(
  db: Database,
  edit: { project: ProjectScope; issueId: number; commentId: number; actorId: number; body: string; now: Date },
): Promise<CommentChange> {
  const comment = await findLiveComment(db, edit.project, edit.issueId, edit.commentId);
  if (!comment) return notFound;
  if (comment.author_id !== edit.actorId) return notYours;
  const now = edit.now.toISOString();
  // Still not deleted at the moment of writing: a deletion in between wins.
  const edited = await db
    .updateTable("comments")
    .set({ body: edit.body, edited_at: now, updated_at: now })
    .where("id", "=", comment.id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(edited.numUpdatedRows) > 0 ? { ok: true } : notFound;
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
    await trx
      .insertInto("activities")
      .values({
        issue_id: removal.issueId,
        actor_id: removal.actorId,
        kind: "comment_deleted",
        issue_version: version,
        from_value: null,
        to_value: null,
        created_at: now,
      })
      .execute();
    return { ok: true } as const;
  });
}

/** Comments and changes of an issue in one list, oldest first. */
export async function issueTimeline(db: Database, issueId: number): Promise<TimelineEntry[]> {
  const [comments, activities] = await Promise.all([
    db
      .selectFrom("comments")
      .leftJoin("users", "users.id", "comments.author_id")
      .select(["comments.id", "comments.created_at", "comments.author_id", "users.name", "comments.body", "comments.edited_at", "comments.deleted_at"])
      .where("comments.issue_id", "=", issueId)
      .execute(),
    db
      .selectFrom("activities")
      .leftJoin("users", "users.id", "activities.actor_id")
      .select(["activities.id", "activities.created_at", "activities.actor_id", "users.name", "activities.kind", "activities.from_value", "activities.to_value"])
      .where("activities.issue_id", "=", issueId)
      .execute(),
  ]);
  const entries: TimelineEntry[] = [
    ...comments.map((c) => ({
      type: "comment" as const,
      id: c.id,
      at: c.created_at,
      authorId: c.author_id,
      authorName: c.name,
      body: c.body,
      edited: c.edited_at !== null,
      deleted: c.deleted_at !== null,
    })),
    ...activities.map((a) => ({
      type: "activity" as const,
      id: a.id,
      at: a.created_at,
      actorId: a.actor_id,
      actorName: a.name,
      kind: a.kind,
      from: a.from_value,
      to: a.to_value,
    })),
  ];
  return inTimelineOrder(entries);
}
