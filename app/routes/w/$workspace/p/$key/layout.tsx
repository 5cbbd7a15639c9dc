import { Kanban, List, Plus, Settings } from "~/components/icons/icon";
import { Link, Outlet } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import { ContentHeader, primaryButtonClass, ViewTabs } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/layout";

export async function loader(args: Route.LoaderArgs) {
  const { workspace, project } = await requireProject(args);
  return {
    workspace: { slug: workspace.slug, name: workspace.name },
    project: { key: project.key, name: project.name, archived: project.archived_at !== null },
    canManage: can(workspace.role, "projects:manage"),
    canWrite: can(workspace.role, "issues:write") && !project.archived_at,
  };
}

/** A project's pages share its header: where it is, its views (List · Board · Settings), "New issue". */
export default function ProjectLayout({ loaderData }: Route.ComponentProps) {
  const { workspace, project, canManage, canWrite } = loaderData;
  const base = `/w/${workspace.slug}/p/${project.key}`;
  return (
    <>
      <ContentHeader
        crumbs={[{ label: workspace.name, to: `/w/${workspace.slug}` }]}
        title={
          <>
            {project.name} <span className="side-key font-normal">{project.key}</span>
          </>
        }
        tabs={
          <ViewTabs
            label="Project"
            tabs={[
              { to: `${base}/issues`, label: "Issues", icon: <List size={14} aria-hidden="true" /> },
              { to: `${base}/board`, label: "Board", icon: <Kanban size={14} aria-hidden="true" /> },
              ...(canManage ? [{ to: `${base}/settings`, label: "Settings", icon: <Settings size={14} aria-hidden="true" /> }] : []),
            ]}
          />
        }
      >
        {project.archived ? (
          <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-100">Archived — read-only</span>
        ) : null}
        {canWrite ? (
          <Link to={`${base}/issues/new`} className={`${primaryButtonClass} max-sm:w-7 max-sm:justify-center max-sm:px-0`} aria-keyshortcuts="c">
            {/* On a phone only the plus shows, a square, so the button fits on the tabs' line. */}
            <Plus size={14} aria-hidden="true" /> <span className="max-sm:sr-only">New issue</span>
          </Link>
        ) : null}
      </ContentHeader>
      <Outlet />
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
