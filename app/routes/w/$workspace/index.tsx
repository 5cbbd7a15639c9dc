import { useMemo } from "react";
import { Link } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { ContentHeader, pageTitle, primaryButtonClass } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Pager } from "~/components/pager";
import { StatusIcon } from "~/components/icons/status-icon";
import { IssueRow, IssueRows } from "~/components/issue-row";
import type { IssueRowData } from "~/issues/issue-refs";
import { parsePositiveInteger } from "~/forms/fields.server";
import { appContext } from "~/context/app-context.server";
import { fromColumns, toColumns } from "~/issues/columns";
import { type Status, statusLabels } from "~/issues/issue-fields";
import { myIssues, type MyIssuesView, parseMyIssuesView } from "~/issues/my-issues.server";
import { listProjects } from "~/projects/projects.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/index";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace } = await requireWorkspace(args);
  const { db } = args.context.get(appContext);
  const params = args.url.searchParams;
  const mine = await myIssues(db, { workspaceId: workspace.id, userId: user.id, view: parseMyIssuesView(params.get("view")), page: parsePositiveInteger(params.get("page")) ?? 1 });
  // Where an empty page leads (the first project's list, or creating one): looked up only then.
  const firstProject = mine.total ? undefined : (await listProjects(db, workspace.id)).find((p) => !p.archived_at);
  return {
    workspaceName: workspace.name,
    firstProjectKey: firstProject?.key ?? null,
    canCreateProjects: can(workspace.role, "projects:manage"),
    ...mine,
    issues: toColumns(mine.issues),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("My issues", loaderData?.workspaceName);

const sectionHeadingClass = "flex h-9 items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-4 text-[13px] font-medium md:px-6 dark:border-zinc-800 dark:bg-zinc-900";

const views: Record<MyIssuesView, string> = { assigned: "Assigned to me", reported: "Reported by me" };

/** This page's URL for a view and a page of it. */
const viewHref = (view: MyIssuesView, page = 1) => `?${new URLSearchParams({ ...(view === "reported" ? { view } : {}), ...(page > 1 ? { page: String(page) } : {}) })}`;

/**
 * The workspace's home (docs/product.md, Screens): "Assigned to me", the open issues assigned to me
 * across projects grouped by status, and "Reported by me", as two tabs (links, so that each is a
 * URL and works without JavaScript), each in pages of 50 like the issue list.
 */
export default function MyIssues({ loaderData, params }: Route.ComponentProps) {
  const { view, statusTotals, page, pageCount, firstProjectKey, canCreateProjects } = loaderData;
  const issues = useMemo(() => fromColumns(loaderData.issues), [loaderData.issues]);
  const slug = params.workspace;
  const row = (issue: IssueRowData) => <IssueRow key={issue.id} issue={issue} href={`/w/${slug}/p/${issue.projectKey}/issues/${issue.number}`} />;
  // The assigned issues come ordered by status: one group per status on this page.
  const groups: { status: Status; issues: IssueRowData[] }[] = [];
  for (const issue of issues) {
    const last = groups.at(-1);
    if (last?.status === issue.status) last.issues.push(issue);
    else groups.push({ status: issue.status, issues: [issue] });
  }

  return (
    <>
      <ContentHeader
        title="My issues"
        tabs={
          <nav aria-label="Views">
            <ul className="flex items-center gap-1 text-sm">
              {(Object.keys(views) as MyIssuesView[]).map((name) => (
                <li key={name}>
                  <Link to={viewHref(name)} aria-current={name === view ? "page" : undefined} className="view-tab">
                    {views[name]}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        }
      />
      <section aria-labelledby="view-title" className="pb-6">
        <h2 id="view-title" className="px-4 pt-4 pb-2 text-sm font-semibold md:px-6">
          {views[view]}
        </h2>
        {issues.length === 0 ? (
          view === "assigned" ? (
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
          ) : (
            <p className="px-4 text-zinc-700 md:px-6 dark:text-zinc-300">You have not reported any issues here yet.</p>
          )
        ) : view === "assigned" ? (
          groups.map((group) => (
            <section key={group.status} aria-label={statusLabels[group.status]}>
              <h3 className={sectionHeadingClass}>
                <StatusIcon status={group.status} />
                {statusLabels[group.status]} <span className="font-normal text-zinc-600 dark:text-zinc-400">({statusTotals[group.status]})</span>
              </h3>
              <IssueRows label={statusLabels[group.status]}>{group.issues.map(row)}</IssueRows>
            </section>
          ))
        ) : (
          <IssueRows label={views.reported}>{issues.map(row)}</IssueRows>
        )}
        <Pager page={page} pageCount={pageCount} href={(n) => viewHref(view, n)} />
      </section>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
