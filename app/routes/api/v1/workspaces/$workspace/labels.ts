import { apiWorkspace } from "~/api/access.server";
import { apiRoute, methodNotAllowed } from "~/api/api-route.server";
import { listLabels } from "~/labels/labels.server";
import type { Route } from "./+types/labels";

/** GET /api/v1/workspaces/:workspace/labels: the labels issues of the workspace can carry. */
export const loader = apiRoute<Route.LoaderArgs>("read", async ({ services, caller, params }) => {
  const workspace = await apiWorkspace(services, caller, params);
  const labels = await listLabels(services.db, workspace.id);
  return { data: labels.map(({ id, name, color }) => ({ id, name, color })) };
});

export const action = apiRoute<Route.ActionArgs>("read", async () => methodNotAllowed(["GET"]));
