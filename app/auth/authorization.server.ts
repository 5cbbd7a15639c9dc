import { data, redirect, type RouterContextProvider } from "react-router";
import { appContext } from "~/context/app-context.server";
import { parsePositiveInteger } from "~/forms/fields.server";
import { findProject, type Project } from "~/projects/projects.server";
import { can, type Permission } from "~/workspaces/roles";
import {
  findWorkspaceAccess,
  isWorkspaceSlug,
  loadWorkspaceContext,
  rememberWorkspaceContext,
  type WorkspaceContext,
  type WorkspaceSummary,
} from "~/workspaces/workspaces.server";
import { currentUserContext } from "./current-user.server";
import { memoized } from "./request-memo.server";
import type { SessionUser } from "./sessions.server";

/** `url` is the page's URL: `request.url` ends in `.data` when JavaScript loads the data. */
type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

export const forbiddenMessage = "You don't have permission to do that.";

/** The signed-in user; anyone else is sent to sign in and brought back here afterwards. */
export function requireUser({ request, url, context }: Args): SessionUser {
  const user = context.get(currentUserContext);
  if (user) return user;
  const here = request.method === "GET" ? url.pathname + url.search : url.pathname;
  throw redirect(`/login?${new URLSearchParams({ redirectTo: here })}`);
}

/** Pages for signed-out people (sign in, create account) send signed-in ones on. */
export function redirectIfSignedIn({ context }: Args, to = "/"): void {
  if (context.get(currentUserContext)) throw redirect(to);
}

export type WorkspaceAccess = { user: SessionUser; workspace: WorkspaceSummary };

const readOnly = (request: Request) => request.method === "GET" || request.method === "HEAD";

/**
 * The workspace of the URL with what its pages share (`loadWorkspaceContext`: one query), once per
 * request: the workspace layout, the project layout and the page all ask for it. Undefined when it
 * does not exist or the user is no member.
 */
function workspaceContext(args: Args & { params: { workspace?: string; key?: string; number?: string } }, user: SessionUser) {
  const { db } = args.context.get(appContext);
  const slug = args.params.workspace;
  // A slug no workspace can have (a NUL, a huge one …) is not looked up: it names nothing.
  if (!slug || !isWorkspaceSlug(slug)) return Promise.resolve(undefined);
  const key = args.params.key && isProjectKey(args.params.key) ? args.params.key.toUpperCase() : undefined;
  // The issue page reads its notification as it loads: the sidebar's count already leaves it out.
  const issueNumber = (key && parsePositiveInteger(args.params.number)) || undefined;
  return memoized(`workspace ${slug} ${user.id} ${key ?? ""} ${issueNumber ?? ""}`, async () => {
    const context = await loadWorkspaceContext(db, slug, user.id, key, issueNumber);
    // What `listMembers`, `listLabels` and `listProjects` then answer from, for this request.
    if (context) rememberWorkspaceContext(context);
    return context;
  });
}

export const isProjectKey = (key: string) => /^[A-Za-z]{2,6}$/.test(key);

/**
 * The one gate of every workspace URL: the user, their membership and docs/product.md, Roles's matrix. Someone
 * who is not a member gets 404, so a workspace's existence is not revealed; a member without the
 * permission gets 403, whether or not the screen offered the action.
 */
export async function requireWorkspace(
  args: Args & { params: { workspace?: string; key?: string } },
  permission: Permission = "workspace:read",
): Promise<WorkspaceAccess> {
  const user = requireUser(args);
  const { db } = args.context.get(appContext);
  const slug = args.params.workspace;
  // Reads share the request's lookup; an action looks at the membership as it is now.
  const workspace = readOnly(args.request)
    ? (await workspaceContext(args, user))?.workspace
    : slug && isWorkspaceSlug(slug)
      ? await findWorkspaceAccess(db, slug, user.id)
      : undefined;
  return { user, workspace: admitToWorkspace(workspace, permission) };
}

/**
 * The rule both the pages and the API apply to a workspace: none, or no membership, is 404 (its
 * existence is not revealed); a member without the permission gets 403.
 */
export function admitToWorkspace(workspace: WorkspaceSummary | undefined, permission: Permission): WorkspaceSummary {
  if (!workspace) throw data("Workspace not found.", { status: 404 });
  if (!can(workspace.role, permission)) throw data(forbiddenMessage, { status: 403 });
  return workspace;
}

/**
 * The workspace and what its layout shows (the user's workspaces, its projects) and its pages use
 * (members, labels): for a read, the request's one lookup; after an action, looked up afresh.
 */
export async function requireWorkspaceContext(args: Args & { params: { workspace?: string; key?: string } }): Promise<WorkspaceAccess & { context: WorkspaceContext }> {
  const access = await requireWorkspace(args);
  const context = readOnly(args.request)
    ? await workspaceContext(args, access.user)
    : await loadWorkspaceContext(args.context.get(appContext).db, access.workspace.slug, access.user.id);
  if (!context) throw data("Workspace not found.", { status: 404 });
  return { ...access, context };
}

/** /admin belongs to the instance admin (the first account); to anyone else it does not exist. */
export function requireInstanceAdmin(args: Args): SessionUser {
  const user = requireUser(args);
  if (!user.isInstanceAdmin) throw data("Page not found.", { status: 404 });
  return user;
}

export type ProjectAccess = WorkspaceAccess & { project: Project };

export const archivedMessage = "This project is archived: it is read-only.";

/**
 * A project of a workspace the user may see, by its key; 404 when there is none. Archived projects
 * are read-only: any permission beyond reading is refused with 403.
 */
export async function requireProject(
  args: Args & { params: { workspace?: string; key?: string } },
  permission: Permission = "workspace:read",
): Promise<ProjectAccess> {
  const access = await requireWorkspace(args, permission);
  const { db } = args.context.get(appContext);
  const key = args.params.key ?? "";
  let project: Project | undefined;
  if (isProjectKey(key) && readOnly(args.request)) {
    // Reads find it among the workspace's projects, with its description (the request's lookup).
    const found = (await workspaceContext(args, access.user))?.projects.find((p) => p.key === key.toUpperCase());
    if (found) project = { ...found, workspace_id: access.workspace.id, description: found.description ?? "" };
  } else if (isProjectKey(key)) {
    project = await findProject(db, access.workspace.id, key);
  }
  return { ...access, project: admitToProject(project, key, permission) };
}

/** The rule both the pages and the API apply to a project: none is 404; an archived one is read-only (403). */
export function admitToProject<P extends { archived_at: string | null }>(project: P | undefined, key: string, permission: Permission): P {
  if (!project) throw data(`Project ${key.toUpperCase()} not found.`, { status: 404 });
  if (project.archived_at && permission !== "workspace:read" && permission !== "projects:manage") {
    throw data(archivedMessage, { status: 403 });
  }
  return project;
}
