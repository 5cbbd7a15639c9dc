import { apiIssue } from "~/api/access.server";
import { ApiRefusal } from "~/api/api-errors.server";
import { apiRoute, methodNotAllowed, readJsonBody, refuseField } from "~/api/api-route.server";
import { findApiIssue } from "~/api/issues.server";
import { issuePatchBody } from "~/api/schemas.server";
import { conflictMessage, updateIssue } from "~/issues/issues.server";
import type { Route } from "./+types/index";

/** GET …/issues/:number: the issue. */
export const loader = apiRoute<Route.LoaderArgs>("read", async ({ services, caller, params, url }) => (await apiIssue(services, caller, params, url)).issue);

/**
 * PATCH …/issues/:number: saves the fields sent (the others stay) if the issue is still at
 * `version`; a stale version is 409, naming who changed what since.
 */
export const action = apiRoute<Route.ActionArgs>("write", async ({ request, services, caller, params, url }) => {
  if (request.method !== "PATCH") methodNotAllowed(["GET", "PATCH"]);
  const { project, home, issue } = await apiIssue(services, caller, params, url, "issues:write");
  const { version, ...changes } = await readJsonBody(request, issuePatchBody);
  const saved = await updateIssue(services.db, { project, issueId: issue.id, actorId: caller.user.id, version, changes, now: new Date(), mail: services.config.mail });
  if ("conflict" in saved) throw new ApiRefusal("conflict", conflictMessage(saved));
  if ("field" in saved) refuseField(saved);
  if (!saved.ok) throw new ApiRefusal("not_found", saved.message);
  return (await findApiIssue(services.db, home, issue.number))!;
});
