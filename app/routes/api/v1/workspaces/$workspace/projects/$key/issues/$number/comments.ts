import { z } from "zod";
import { apiIssue } from "~/api/access.server";
import { ApiRefusal } from "~/api/api-errors.server";
import { apiRoute, methodNotAllowed, readJsonBody, validated } from "~/api/api-route.server";
import { decodeCursor, encodeCursor } from "~/api/cursors.server";
import { type ApiComment, newCommentBody, pageQuery, pageSizeDefault } from "~/api/schemas.server";
import { addComment, listComments } from "~/comments/comments.server";
import type { Route } from "./+types/comments";

const commentCursor = z.object({ afterId: z.number().int() });

/** GET …/issues/:number/comments: the issue's comments, oldest first, paged like the issues. */
export const loader = apiRoute<Route.LoaderArgs>("read", async ({ services, caller, params, url }) => {
  const { issue } = await apiIssue(services, caller, params, url);
  const page = validated(pageQuery, { limit: url.searchParams.get("limit") ?? undefined, cursor: url.searchParams.get("cursor") ?? undefined });
  // A cursor works only on the comments of the issue it was made for.
  const list = JSON.stringify({ commentsOfIssue: issue.id });
  const after = page.cursor ? decodeCursor(page.cursor, list, services.sessionSecret, commentCursor).afterId : null;
  const { comments, more } = await listComments(services.db, issue.id, { afterId: after, limit: page.limit ?? pageSizeDefault });
  const data = comments.map(
    (c): ApiComment => ({
      id: c.id,
      body: c.body,
      author: c.author_id === null ? null : { id: c.author_id, name: c.authorName ?? "", handle: c.authorHandle ?? "" },
      createdAt: c.created_at,
      updatedAt: c.updated_at,
      edited: c.edited_at !== null,
    }),
  );
  return { data, next: more ? encodeCursor({ afterId: comments.at(-1)!.id }, list, services.sessionSecret) : null };
});

/** POST …/issues/:number/comments: comments on the issue; 201 with the comment. */
export const action = apiRoute<Route.ActionArgs>("write", async ({ request, services, caller, params, url }) => {
  if (request.method !== "POST") methodNotAllowed(["GET", "POST"]);
  const { project, issue } = await apiIssue(services, caller, params, url, "issues:write");
  const { body } = await readJsonBody(request, newCommentBody);
  const now = new Date();
  const added = await addComment(services.db, { project, issueId: issue.id, authorId: caller.user.id, body, now, mail: services.config.mail });
  if (!added.ok) throw new ApiRefusal("not_found", added.message);
  const { id, name, handle } = caller.user;
  const comment: ApiComment = { id: added.commentId, body, author: { id, name, handle }, createdAt: now.toISOString(), updatedAt: now.toISOString(), edited: false };
  return Response.json(comment, { status: 201 });
});
