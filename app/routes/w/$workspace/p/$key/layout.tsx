import { NavLink, Outlet } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/layout";

export async function loader(args: Route.LoaderArgs) {
  const { workspace, project } = await requireProject(args);
  return {
    project: { key: project.key, name: project.name, archived: project.archived_at !== null },
    canManage: can(workspace.role, "projects:manage"),
  };
}

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `inline-block border-b-2 px-1 pb-2 ${isActive ? "border-indigo-600 font-medium" : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"}`;

export default function ProjectLayout({ loaderData, params }: Route.ComponentProps) {
  const { project, canManage } = loaderData;
  const base = `/w/${params.workspace}/p/${project.key}`;
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{project.name}</h1>
        <span className="font-mono text-sm text-zinc-600 dark:text-zinc-400">{project.key}</span>
        {project.archived ? (
          <span className="rounded bg-amber-100 px-2 py-0.5 text-sm text-amber-900 dark:bg-amber-900 dark:text-amber-100">
            Archived — read-only
          </span>
        ) : null}
      </div>
      <nav aria-label="Project" className="mb-6 border-b border-zinc-200 dark:border-zinc-800">
        <ul className="-mb-px flex gap-4">
          <li>
            <NavLink to={`${base}/issues`} className={tabClass}>
              Issues
            </NavLink>
          </li>
          <li>
            <NavLink to={`${base}/board`} className={tabClass}>
              Board
            </NavLink>
          </li>
          {canManage ? (
            <li>
              <NavLink to={`${base}/settings`} className={tabClass}>
                Settings
              </NavLink>
            </li>
          ) : null}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
