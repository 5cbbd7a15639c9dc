import { ChevronDown, CircleUser, Plus, Search, Settings } from "lucide-react";
import { data, Form, Link, Outlet, redirect } from "react-router";
import { rememberLastWorkspace } from "~/auth/accounts.server";
import { requireWorkspace } from "~/auth/authorization.server";
import { ShellErrorBoundary } from "~/components/error-boundary";
import { KeyboardShortcuts } from "~/components/keyboard-shortcuts";
import { AccountMenu, AppShell, appShellHandle, SidebarLink } from "~/components/app-shell";
import { menuItemClass, PopoverMenu } from "~/components/menu";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { appContext } from "~/host/app-context.server";
import { leaveWorkspaceSchema } from "~/workspaces/forms.server";
import { removeMember } from "~/workspaces/members.server";
import { can } from "~/workspaces/roles";
import { listUserWorkspaces } from "~/workspaces/workspaces.server";
import { listProjects } from "~/projects/projects.server";
import type { Route } from "./+types/layout";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace } = await requireWorkspace(args);
  const { db } = args.context.get(appContext);
  if (user.lastWorkspaceId !== workspace.id) await rememberLastWorkspace(db, user.id, workspace.id);
  const [projects, workspaces] = await Promise.all([listProjects(db, workspace.id), listUserWorkspaces(db, user.id)]);
  return {
    workspace,
    canManage: can(workspace.role, "members:manage"),
    canCreateProjects: can(workspace.role, "projects:manage"),
    projects: projects.filter((p) => !p.archived_at),
    archivedProjects: projects.filter((p) => p.archived_at),
    otherWorkspaces: workspaces.filter((w) => w.id !== workspace.id),
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

export const handle = appShellHandle;

export default function WorkspaceLayout({ loaderData }: Route.ComponentProps) {
  const { workspace, canCreateProjects, projects, archivedProjects, otherWorkspaces } = loaderData;
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
                className="h-7 w-full rounded-md border border-zinc-300 bg-white pr-6 pl-7 text-sm placeholder:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-950 dark:placeholder:text-zinc-400"
              />
              <kbd className="pointer-events-none absolute top-1/2 right-2 -translate-y-1/2 font-sans text-xs text-zinc-500">/</kbd>
            </Form>
          </div>
          <nav aria-label="Workspace" className="px-2">
            <SidebarLink to={base} end>
              <CircleUser size={14} aria-hidden="true" /> My issues
            </SidebarLink>
          </nav>
          <nav aria-label="Projects" className="mt-4 flex-1 px-2">
            <p className="px-2 pb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">Projects</p>
            <ul className="space-y-px">
              {projects.map((project) => (
                <li key={project.key}>
                  <SidebarLink to={`${base}/p/${project.key}`}>
                    <span className="min-w-0 flex-1 truncate">{project.name}</span>
                    <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{project.key}</span>
                  </SidebarLink>
                </li>
              ))}
            </ul>
            {!projects.length ? <p className="px-2 text-zinc-600 dark:text-zinc-400">No projects yet.</p> : null}
            {canCreateProjects ? (
              <Link to={`${base}/projects/new`} className="mt-1 flex h-7 items-center gap-2 rounded px-2 text-zinc-600 hover:bg-zinc-200/50 dark:text-zinc-400 dark:hover:bg-zinc-800/60">
                <Plus size={14} aria-hidden="true" /> Create project
              </Link>
            ) : null}
            {archivedProjects.length ? (
              <details className="mt-2">
                <summary className="cursor-pointer px-2 py-1 text-zinc-600 dark:text-zinc-400">Archived</summary>
                <ul className="space-y-px">
                  {archivedProjects.map((project) => (
                    <li key={project.key}>
                      <SidebarLink to={`${base}/p/${project.key}`}>
                        <span className="min-w-0 flex-1 truncate">{project.name}</span>
                      </SidebarLink>
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

/** The workspace's name as a menu: the other workspaces, its settings, "Create workspace". */
function WorkspaceSwitcher({ workspace, otherWorkspaces }: { workspace: { slug: string; name: string }; otherWorkspaces: { slug: string; name: string }[] }) {
  return (
    <PopoverMenu
      id="workspace-menu"
      label={`Workspace: ${workspace.name}`}
      triggerClassName="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left hover:bg-zinc-200/50 dark:hover:bg-zinc-800/60"
      trigger={
        <>
          <span aria-hidden="true" className="flex size-5 shrink-0 items-center justify-center rounded bg-indigo-600 text-[11px] font-semibold text-white">
            {Array.from(workspace.name)[0]?.toUpperCase()}
          </span>
          <span className="min-w-0 flex-1 truncate font-semibold">{workspace.name}</span>
          <ChevronDown size={14} aria-hidden="true" className="text-zinc-500" />
        </>
      }
    >
      {() => (
        <>
          <p className="px-2 pt-1 pb-1.5 text-xs font-medium text-zinc-600 dark:text-zinc-400">Workspaces</p>
          <Link to={`/w/${workspace.slug}`} aria-current="true" className={menuItemClass}>
            <span className="min-w-0 flex-1 truncate">{workspace.name}</span>
            <span aria-hidden="true">✓</span>
          </Link>
          {otherWorkspaces.map((other) => (
            <Link key={other.slug} to={`/w/${other.slug}`} className={menuItemClass}>
              <span className="min-w-0 flex-1 truncate">{other.name}</span>
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
