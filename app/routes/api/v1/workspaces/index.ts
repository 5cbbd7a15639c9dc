import { baseUrlOf } from "~/api/access.server";
import { apiRoute, methodNotAllowed } from "~/api/api-route.server";
import { listUserWorkspaces } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/index";

/** GET /api/v1/workspaces: the workspaces the token's user is a member of, with their role. */
export const loader = apiRoute<Route.LoaderArgs>("read", async ({ services, caller, url }) => {
  const base = baseUrlOf(services, url);
  const workspaces = await listUserWorkspaces(services.db, caller.user.id);
  return { data: workspaces.map(({ id, slug, name, role }) => ({ id, slug, name, role, url: `${base}/w/${encodeURIComponent(slug)}` })) };
});

export const action = apiRoute<Route.ActionArgs>("read", async () => methodNotAllowed(["GET"]));
