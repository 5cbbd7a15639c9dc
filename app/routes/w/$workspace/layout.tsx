import { ChevronDown, CircleUser, Inbox, ListFilter, Plus, Search, Settings, UserRound } from "~/components/icons/icon";
import { data, Form, Link, Outlet, redirect, useLocation } from "react-router";
import { rememberLastWorkspace } from "~/auth/accounts.server";
import { requireWorkspace, requireWorkspaceContext } from "~/auth/authorization.server";
import { ShellErrorBoundary } from "~/components/error-boundary";
import { KeyboardShortcuts } from "~/components/keyboard-shortcuts";
import { AccountMenu, AppShell, appShellHandle, SidebarLink } from "~/components/app-shell";
import { menuItemClass, PopoverMenu } from "~/components/menu";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { appContext } from "~/context/app-context.server";
import { leaveWorkspaceSchema } from "~/workspaces/forms.server";
import { removeMember } from "~/workspaces/members.server";
import { viewHref } from "~/views/view-href";
import type { SidebarView } from "~/workspaces/workspaces.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/layout";

/**
 * The sidebar, with only what it shows; its lookup (one query) is shared with the page's loaders.
 * Each project comes with the saved views the user sees in it (theirs and the shared ones).
 */
export async function loader(args: Route.LoaderArgs) {
  const { user, workspace, context } = await requireWorkspaceContext(args);
  const { db } = args.context.get(appContext);
  if (user.lastWorkspaceId !== workspace.id) await rememberLastWorkspace(db, user.id, workspace.id);
  const views = new Map<number, SidebarView[]>();
  for (const view of context.views) views.set(view.projectId, [...(views.get(view.projectId) ?? []), view]);
  const link = ({ id, key, name }: { id: number; key: string; name: string }) => ({
    key,
    name,
    views: (views.get(id) ?? []).map(({ id, name, query, shared }): Omit<SidebarView, "projectId"> => ({ id, name, query, shared })),
  });
  return {
    workspace: { slug: workspace.slug, name: workspace.name },
    canCreateProjects: can(workspace.role, "projects:manage"),
    projects: context.projects.filter((p) => !p.archived_at).map(link),
    archivedProjects: context.projects.filter((p) => p.archived_at).map(link),
    otherWorkspaces: context.workspaces.filter((w) => w.id !== workspace.id).map(({ slug, name }) => ({ slug, name })),
    unread: context.unread,
  };
}

/** Any member may leave (intent=leave), as long as the workspace keeps an owner. */
export async function action(args: Route.ActionArgs) {
  const { user, workspace } = await requireWorkspace(args);
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, leaveWorkspaceSchema);
  if (submission.status !== "success") throw data("That request was not valid.", { status: 400 });
  const left = await removeMember(services.db, { workspaceId: workspace.id, actorRole: workspace.role, userId: user.id, actorId: user.id });
  if (!left.ok) return data({ error: left.message }, { status: left.status });
  const flash = { text: `You left ${workspace.name}.` };
  return redirect("/", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
}

export type WorkspaceSidebar = Awaited<ReturnType<typeof loader>>;

export const handle = appShellHandle;

export default function WorkspaceLayout({ loaderData }: Route.ComponentProps) {
  const { workspace, canCreateProjects, projects, archivedProjects, otherWorkspaces, unread } = loaderData;
  const base = `/w/${workspace.slug}`;
  return (
    <AppShell
      sidebar={
        <>
          <div className="p-2">
            <WorkspaceSwitcher workspace={workspace} otherWorkspaces={otherWorkspaces} />
            <Form method="get" action={`${base}/search`} role="search" aria-label="Workspace search" className="relative mt-2">
              <label htmlFor="sidebar-search" className="sr-only">
                Search issues
              </label>
              <Search size={14} aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2 -translate-y-1/2 text-zinc-500" />
              <input
                id="sidebar-search"
                type="search"
                name="q"
                placeholder="Search issues…"
                className="side-search"
              />
              <kbd className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 font-sans text-xs text-zinc-500">/</kbd>
            </Form>
          </div>
          <nav aria-label="Workspace" className="px-2">
            <SidebarLink to={base} end>
              <CircleUser size={14} aria-hidden="true" /> My issues
            </SidebarLink>
            <SidebarLink to={`${base}/inbox`}>
              <Inbox size={14} aria-hidden="true" /> <span className="item-label">Inbox</span>
              {unread ? (
                <span className="side-count">
                  {unread > 99 ? "99+" : unread}
                  <span className="sr-only"> unread</span>
                </span>
              ) : null}
            </SidebarLink>
          </nav>
          <nav aria-label="Projects" className="mt-4 flex-1 px-2">
            <p className="side-heading">Projects</p>
            <ul className="space-y-px">
              {projects.map((project) => (
                <li key={project.key}>
                  <SidebarLink to={`${base}/p/${project.key}`}>
                    <span className="item-label">{project.name}</span>
                    <span className="side-key">{project.key}</span>
                  </SidebarLink>
                  <ViewLinks workspaceSlug={workspace.slug} project={project} />
                </li>
              ))}
            </ul>
            {!projects.length ? <p className="muted px-2">No projects yet.</p> : null}
            {canCreateProjects ? (
              <Link to={`${base}/projects/new`} className="side-muted-link mt-1">
                <Plus size={14} aria-hidden="true" /> Create project
              </Link>
            ) : null}
            {archivedProjects.length ? (
              <details className="mt-2">
                <summary className="muted cursor-pointer px-2 py-1">Archived</summary>
                <ul className="space-y-px">
                  {archivedProjects.map((project) => (
                    <li key={project.key}>
                      <SidebarLink to={`${base}/p/${project.key}`}>
                        <span className="item-label">{project.name}</span>
                      </SidebarLink>
                      <ViewLinks workspaceSlug={workspace.slug} project={project} />
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
          </nav>
          <AccountMenu />
        </>
      }
    >
      <Outlet />
      <KeyboardShortcuts />
    </AppShell>
  );
}

/**
 * A project's saved views under it in the sidebar, each opening the list with its filters; the one
 * the list shows is marked (aria-current), and a private one says it is for its owner alone.
 */
function ViewLinks({ workspaceSlug, project }: { workspaceSlug: string; project: WorkspaceSidebar["projects"][number] }) {
  const location = useLocation();
  if (!project.views.length) return null;
  const onList = location.pathname === `/w/${workspaceSlug}/p/${project.key}/issues`;
  const currentId = onList ? new URLSearchParams(location.search).get("view") : null;
  return (
    <ul aria-label={`Views of ${project.name}`} className="space-y-px pl-4">
      {project.views.map((view) => (
        <li key={view.id}>
          <Link to={viewHref(workspaceSlug, project.key, view)} aria-current={currentId === String(view.id) ? "page" : undefined} className="side-link">
            <ListFilter size={14} aria-hidden="true" className="shrink-0 text-zinc-500" />
            <span className="item-label">{view.name}</span>
            {view.shared ? null : (
              <span title="Only you" className="ml-auto text-zinc-500">
                <UserRound size={12} aria-hidden="true" />
                <span className="sr-only">(only you)</span>
              </span>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The workspace's name as a menu: the other workspaces, its settings, "Create workspace". */
function WorkspaceSwitcher({ workspace, otherWorkspaces }: { workspace: { slug: string; name: string }; otherWorkspaces: { slug: string; name: string }[] }) {
  return (
    <PopoverMenu
      id="workspace-menu"
      label={`Workspace: ${workspace.name}`}
      triggerClassName="side-menu-btn"
      trigger={
        <>
          <span aria-hidden="true" className="ws-mark">
            {Array.from(workspace.name)[0]?.toUpperCase()}
          </span>
          <span className="min-w-0 flex-1 truncate font-semibold">{workspace.name}</span>
          <ChevronDown size={14} aria-hidden="true" className="text-zinc-500" />
        </>
      }
    >
      {() => (
        <>
          <p className="menu-title">Workspaces</p>
          <Link to={`/w/${workspace.slug}`} aria-current="true" className={menuItemClass}>
            <span className="item-label">{workspace.name}</span>
            <span aria-hidden="true">✓</span>
          </Link>
          {otherWorkspaces.map((other) => (
            <Link key={other.slug} to={`/w/${other.slug}`} className={menuItemClass}>
              <span className="item-label">{other.name}</span>
            </Link>
          ))}
          <hr className="my-1 border-zinc-200 dark:border-zinc-700" />
          <Link to={`/w/${workspace.slug}/settings`} className={menuItemClass}>
            <Settings size={14} aria-hidden="true" /> Workspace settings
          </Link>
          <Link to="/w/new" className={menuItemClass}>
            <Plus size={14} aria-hidden="true" /> Create workspace
          </Link>
        </>
      )}
    </PopoverMenu>
  );
}

export const ErrorBoundary = ShellErrorBoundary;
