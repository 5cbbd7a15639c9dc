import { apiProject, baseUrlOf } from "~/api/access.server";
import { ApiRefusal } from "~/api/api-errors.server";
import { apiRoute, methodNotAllowed, readJsonBody, refuseField, validated } from "~/api/api-route.server";
import { decodeCursor, encodeCursor } from "~/api/cursors.server";
import { findApiIssue, issueListCursor, issueListOf, listApiIssues } from "~/api/issues.server";
import { newIssueBody, pageQuery, pageSizeDefault } from "~/api/schemas.server";
import { parseIssueFilters } from "~/issues/issue-list.server";
import { createIssue } from "~/issues/issues.server";
import type { Route } from "./+types/index";

/**
 * GET …/issues: the list screen's filters (`status`, `assignee`, `label`, `priority`, `q`, `sort`,
 * each repeatable), a page of `limit` (at most 100) after `cursor`, and the `next` cursor.
 */
export const loader = apiRoute<Route.LoaderArgs>("read", async ({ services, caller, params, url }) => {
  const { workspace, project } = await apiProject(services, caller, params);
  const query = url.searchParams;
  const page = validated(pageQuery, { limit: query.get("limit") ?? undefined, cursor: query.get("cursor") ?? undefined });
  const filters = parseIssueFilters(query);
  if (filters.refusedQuery) throw new ApiRefusal("validation", "Some fields are not valid.", { fields: { q: [filters.refusedQuery.message] } });
  // A cursor works only on the list it was made for: this project, with these filters and sort.
  const list = issueListOf(project.id, filters, caller.user.id);
  const cursor = page.cursor ? decodeCursor(page.cursor, list, services.sessionSecret, issueListCursor) : null;
  const home = { projectId: project.id, projectKey: project.key, workspaceSlug: workspace.slug, baseUrl: baseUrlOf(services, url) };
  const { issues, next } = await listApiIssues(services.db, home, {
    filters,
    meId: caller.user.id,
    limit: page.limit ?? pageSizeDefault,
    after: cursor?.after ?? null,
  });
  return { data: issues, next: next ? encodeCursor({ after: next }, list, services.sessionSecret) : null };
});

/** POST …/issues: files an issue (the new-issue form's fields, as JSON); 201 with the issue. */
export const action = apiRoute<Route.ActionArgs>("write", async ({ request, services, caller, params, url }) => {
  if (request.method !== "POST") methodNotAllowed(["GET", "POST"]);
  const { workspace, project } = await apiProject(services, caller, params, "issues:write");
  const fields = await readJsonBody(request, newIssueBody);
  const created = await createIssue(services.db, { project, reporterId: caller.user.id, fields, now: new Date(), mail: services.config.mail });
  if ("field" in created) refuseField(created);
  const home = { projectId: project.id, projectKey: project.key, workspaceSlug: workspace.slug, baseUrl: baseUrlOf(services, url) };
  const issue = (await findApiIssue(services.db, home, created.number))!;
  return Response.json(issue, { status: 201, headers: { Location: issue.url } });
});
