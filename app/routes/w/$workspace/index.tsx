import { Link } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { ContentHeader, pageTitle, primaryButtonClass } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { StatusIcon } from "~/components/icons/status-icon";
import { IssueRow, type IssueRowData, IssueRows } from "~/components/issue-row";
import { appContext } from "~/host/app-context.server";
import { statusLabels } from "~/issues/issue-fields";
import { myIssues } from "~/issues/my-issues.server";
import { listProjects } from "~/projects/projects.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/index";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace } = await requireWorkspace(args);
  const { db } = args.context.get(appContext);
  const [mine, projects] = await Promise.all([myIssues(db, workspace.id, user.id), listProjects(db, workspace.id)]);
  const firstProject = projects.find((p) => !p.archived_at);
  return {
    workspaceName: workspace.name,
    // Where an empty page leads: the first project's list, or creating one.
    firstProjectKey: firstProject?.key ?? null,
    canCreateProjects: can(workspace.role, "projects:manage"),
    ...mine,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("My issues", loaderData?.workspaceName);

const sectionHeadingClass = "flex h-9 items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-4 text-[13px] font-medium md:px-6 dark:border-zinc-800 dark:bg-zinc-900";

export default function MyIssues({ loaderData, params }: Route.ComponentProps) {
  const { assigned, reported, firstProjectKey, canCreateProjects } = loaderData;
  const slug = params.workspace;
  const href = (issue: IssueRowData) => `/w/${slug}/p/${issue.projectKey}/issues/${issue.number}`;
  return (
    <>
      <ContentHeader title="My issues" />
      <section aria-labelledby="assigned-title">
        <h2 id="assigned-title" className="px-4 pt-4 pb-2 text-sm font-semibold md:px-6">
          Assigned to me
        </h2>
        {assigned.length ? (
          assigned.map((group) => (
            <section key={group.status} aria-label={statusLabels[group.status]}>
              <h3 className={sectionHeadingClass}>
                <StatusIcon status={group.status} />
                {statusLabels[group.status]} <span className="font-normal text-zinc-600 dark:text-zinc-400">({group.issues.length})</span>
              </h3>
              <IssueRows label={statusLabels[group.status]}>
                {group.issues.map((issue) => (
                  <IssueRow key={issue.id} issue={issue} href={href(issue)} />
                ))}
              </IssueRows>
            </section>
          ))
        ) : (
          <div className="mx-4 rounded-md border border-dashed border-zinc-300 px-4 py-8 text-center md:mx-6 dark:border-zinc-700">
            <p className="text-zinc-700 dark:text-zinc-300">No open issues are assigned to you.</p>
            <p className="mt-1 text-zinc-600 dark:text-zinc-400">This page gathers the open issues assigned to you across the workspace's projects.</p>
            {firstProjectKey ? (
              <Link to={`/w/${slug}/p/${firstProjectKey}/issues`} className={`${primaryButtonClass} mt-4`}>
                Browse {firstProjectKey} issues
              </Link>
            ) : canCreateProjects ? (
              <Link to={`/w/${slug}/projects/new`} className={`${primaryButtonClass} mt-4`}>
                Create a project
              </Link>
            ) : null}
          </div>
        )}
      </section>
      <section aria-labelledby="reported-title" className="pb-6">
        <h2 id="reported-title" className="px-4 pt-6 pb-2 text-sm font-semibold md:px-6">
          Reported by me
        </h2>
        {reported.length ? (
          <IssueRows label="Reported by me">
            {reported.map((issue) => (
              <IssueRow key={issue.id} issue={issue} href={href(issue)} />
            ))}
          </IssueRows>
        ) : (
          <p className="px-4 text-zinc-700 md:px-6 dark:text-zinc-300">You have not reported any issues here yet.</p>
        )}
      </section>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
