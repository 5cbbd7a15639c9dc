import { apiWorkspace, baseUrlOf } from "~/api/access.server";
import { apiRoute, methodNotAllowed } from "~/api/api-route.server";
import { listProjects } from "~/projects/projects.server";
import type { Route } from "./+types/projects";

/** GET /api/v1/workspaces/:workspace/projects: the workspace's projects, archived ones too. */
export const loader = apiRoute<Route.LoaderArgs>("read", async ({ services, caller, params, url }) => {
  const workspace = await apiWorkspace(services, caller, params);
  const base = `${baseUrlOf(services, url)}/w/${encodeURIComponent(workspace.slug)}/p`;
  const projects = await listProjects(services.db, workspace.id);
  return { data: projects.map(({ id, key, name, archived_at }) => ({ id, key, name, archived: archived_at !== null, url: `${base}/${key}/issues` })) };
});

export const action = apiRoute<Route.ActionArgs>("read", async () => methodNotAllowed(["GET"]));
