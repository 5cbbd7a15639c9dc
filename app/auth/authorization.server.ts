import { data, redirect, type RouterContextProvider } from "react-router";
import { appContext } from "~/host/app-context.server";
import { findProject, type Project } from "~/projects/projects.server";
import { can, type Permission } from "~/workspaces/roles";
import { findWorkspaceAccess, isWorkspaceSlug, type WorkspaceSummary } from "~/workspaces/workspaces.server";
import { currentUserContext } from "./current-user.server";
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

const lookupsByRequest = new WeakMap<Readonly<RouterContextProvider>, Map<string, Promise<unknown>>>();

/**
 * The nested loaders of one page each ask for the same workspace and project: each is looked up
 * once per request. Only for reads — an action may change what the lookup finds, so actions (and
 * the loaders React Router runs after them, which see fresh lookups) always look again.
 */
function oncePerRequest<T>(args: Args, key: string, lookup: () => Promise<T>): Promise<T> {
  const method = args.request.method;
  if (method !== "GET" && method !== "HEAD") return lookup();
  let lookups = lookupsByRequest.get(args.context);
  if (!lookups) lookupsByRequest.set(args.context, (lookups = new Map()));
  let found = lookups.get(key) as Promise<T> | undefined;
  if (!found) lookups.set(key, (found = lookup()));
  return found;
}

/**
 * The one gate of every workspace URL: the user, their membership and docs/product.md, Roles's matrix. Someone
 * who is not a member gets 404, so a workspace's existence is not revealed; a member without the
 * permission gets 403, whether or not the screen offered the action.
 */
export async function requireWorkspace(
  args: Args & { params: { workspace?: string } },
  permission: Permission = "workspace:read",
): Promise<WorkspaceAccess> {
  const user = requireUser(args);
  const { db } = args.context.get(appContext);
  const slug = args.params.workspace;
  // A slug no workspace can have (a NUL, a huge one …) is not looked up: it names nothing.
  const workspace = slug && isWorkspaceSlug(slug)
    ? await oncePerRequest(args, `workspace ${slug} ${user.id}`, () => findWorkspaceAccess(db, slug, user.id))
    : undefined;
  if (!workspace) throw data("Workspace not found.", { status: 404 });
  if (!can(workspace.role, permission)) throw data(forbiddenMessage, { status: 403 });
  return { user, workspace };
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
  const workspaceId = access.workspace.id;
  const project = /^[A-Za-z]{2,6}$/.test(key)
    ? await oncePerRequest(args, `project ${workspaceId} ${key.toUpperCase()}`, () => findProject(db, workspaceId, key))
    : undefined;
  if (!project) throw data(`Project ${key.toUpperCase()} not found.`, { status: 404 });
  if (project.archived_at && permission !== "workspace:read" && permission !== "projects:manage") {
    throw data(archivedMessage, { status: 403 });
  }
  return { ...access, project };
}
