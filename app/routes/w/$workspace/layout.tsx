import { data, Form, Link, NavLink, Outlet, redirect } from "react-router";
import { rememberLastWorkspace } from "~/auth/accounts.server";
import { requireWorkspace } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { KeyboardShortcuts } from "~/components/keyboard-shortcuts";
import { SubmitButton } from "~/components/forms";
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

const navLink = ({ isActive }: { isActive: boolean }) =>
  `block rounded px-2 py-1 ${isActive ? "bg-zinc-100 font-medium dark:bg-zinc-900" : "hover:bg-zinc-50 dark:hover:bg-zinc-900"}`;

export default function WorkspaceLayout({ loaderData, actionData }: Route.ComponentProps) {
  const { workspace, canManage, canCreateProjects, projects, archivedProjects, otherWorkspaces } = loaderData;
  const base = `/w/${workspace.slug}`;
  return (
    <div className="flex flex-col gap-8 md:flex-row">
      <aside className="md:w-56 md:shrink-0">
        <p className="text-lg font-semibold">{workspace.name}</p>
        <Form method="get" action={`${base}/search`} role="search" aria-label="Workspace search" className="mt-3">
          <label htmlFor="sidebar-search" className="sr-only">
            Search issues
          </label>
          <input
            id="sidebar-search"
            type="search"
            name="q"
            placeholder="Search issues…"
            className="w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm placeholder:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:placeholder:text-zinc-400"
          />
        </Form>
        <nav aria-label="Workspace" className="mt-3 space-y-1 text-sm">
          <NavLink to={base} end className={navLink}>
            My issues
          </NavLink>
          {canManage ? (
            <NavLink to={`${base}/settings`} className={navLink}>
              Settings
            </NavLink>
          ) : null}
        </nav>
        <nav aria-label="Projects" className="mt-6 text-sm">
          <p className="px-2 text-xs font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">Projects</p>
          <ul className="mt-1 space-y-1">
            {projects.map((project) => (
              <li key={project.key}>
                <NavLink to={`${base}/p/${project.key}`} className={navLink}>
                  {project.name} <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{project.key}</span>
                </NavLink>
              </li>
            ))}
          </ul>
          {!projects.length ? <p className="px-2 text-zinc-600 dark:text-zinc-400">No projects yet.</p> : null}
          {canCreateProjects ? (
            <Link to={`${base}/projects/new`} className="mt-2 block px-2 text-indigo-700 underline dark:text-indigo-300">
              Create project
            </Link>
          ) : null}
          {archivedProjects.length ? (
            <details className="mt-3">
              <summary className="cursor-pointer px-2 text-zinc-600 dark:text-zinc-400">Archived</summary>
              <ul className="mt-1 space-y-1">
                {archivedProjects.map((project) => (
                  <li key={project.key}>
                    <NavLink to={`${base}/p/${project.key}`} className={navLink}>
                      {project.name}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </nav>
        {otherWorkspaces.length ? (
          <nav aria-label="Other workspaces" className="mt-6 text-sm">
            <p className="px-2 text-xs font-medium uppercase tracking-wide text-zinc-600 dark:text-zinc-400">Switch workspace</p>
            <ul className="mt-1 space-y-1">
              {otherWorkspaces.map((other) => (
                <li key={other.slug}>
                  <Link to={`/w/${other.slug}`} className="block rounded px-2 py-1 hover:bg-zinc-50 dark:hover:bg-zinc-900">
                    {other.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="mt-6 space-y-2 px-2 text-sm">
          <Link to="/w/new" className="block text-indigo-700 underline dark:text-indigo-300">
            Create workspace
          </Link>
          <Form method="post" action={base}>
            <input type="hidden" name="intent" value="leave" />
            <SubmitButton variant="secondary" pendingText="Leaving…">
              Leave workspace
            </SubmitButton>
          </Form>
          {actionData?.error ? (
            <p role="alert" className="text-red-700 dark:text-red-400">
              {actionData.error}
            </p>
          ) : null}
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
      <KeyboardShortcuts />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
