import { apiWorkspace } from "~/api/access.server";
import { apiRoute, methodNotAllowed } from "~/api/api-route.server";
import { listMembers } from "~/workspaces/members.server";
import type { Route } from "./+types/members";

/** GET /api/v1/workspaces/:workspace/members: who can be assigned and mentioned (no email addresses). */
export const loader = apiRoute<Route.LoaderArgs>("read", async ({ services, caller, params }) => {
  const workspace = await apiWorkspace(services, caller, params);
  const members = await listMembers(services.db, workspace.id);
  return { data: members.map(({ userId, name, handle, role }) => ({ id: userId, name, handle, role })) };
});

export const action = apiRoute<Route.ActionArgs>("read", async () => methodNotAllowed(["GET"]));
