import { admitToProject, admitToWorkspace, isProjectKey } from "~/auth/authorization.server";
import type { ApiCaller } from "~/auth/api-tokens.server";
import type { AppServices } from "~/context/app-context.server";
import { parseIssueNumber } from "~/issues/issues.server";
import { findProject, type Project } from "~/projects/projects.server";
import type { Permission } from "~/workspaces/roles";
import { findWorkspaceAccess, isWorkspaceSlug, type WorkspaceSummary } from "~/workspaces/workspaces.server";
import { ApiRefusal } from "./api-errors.server";
import { findApiIssue, type IssueHome } from "./issues.server";

/*
 * The API's gates: the token's user, through the same rules as the pages (admitToWorkspace,
 * admitToProject) — a workspace they are no member of is 404, a permission their role lacks 403.
 */

type Params = { workspace?: string; key?: string; number?: string };

/** The address links in answers start with: PUBLIC_URL, or the address the request came to. */
export const baseUrlOf = (services: AppServices, url: URL) => services.config.publicUrl ?? url.origin;

export async function apiWorkspace(services: AppServices, caller: ApiCaller, params: Params, permission: Permission = "workspace:read"): Promise<WorkspaceSummary> {
  const slug = params.workspace ?? "";
  const workspace = isWorkspaceSlug(slug) ? await findWorkspaceAccess(services.db, slug, caller.user.id) : undefined;
  return admitToWorkspace(workspace, permission);
}

export async function apiProject(
  services: AppServices,
  caller: ApiCaller,
  params: Params,
  permission: Permission = "workspace:read",
): Promise<{ workspace: WorkspaceSummary; project: Project }> {
  const workspace = await apiWorkspace(services, caller, params, permission);
  const key = params.key ?? "";
  const project = isProjectKey(key) ? await findProject(services.db, workspace.id, key) : undefined;
  return { workspace, project: admitToProject(project, key, permission) };
}

/** A project's issue by the number in the URL, with what its answers need; 404 when there is none. */
export async function apiIssue(services: AppServices, caller: ApiCaller, params: Params, url: URL, permission: Permission = "workspace:read") {
  const { workspace, project } = await apiProject(services, caller, params, permission);
  const home: IssueHome = { projectId: project.id, projectKey: project.key, workspaceSlug: workspace.slug, baseUrl: baseUrlOf(services, url) };
  const number = parseIssueNumber(params.number);
  const issue = number ? await findApiIssue(services.db, home, number) : undefined;
  if (!issue) throw new ApiRefusal("not_found", `Issue ${project.key}-${params.number ?? ""} not found.`);
  return { workspace, project, home, issue };
}
