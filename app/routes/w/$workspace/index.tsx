import { Link } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { PriorityText, StatusBadge } from "~/components/issue-bits";
import { PageHeader } from "~/components/page-header";
import { appContext } from "~/host/app-context.server";
import { issueKey, type Priority, type Status, statusLabels } from "~/issues/issue-fields";
import { myIssues } from "~/issues/my-issues.server";
import type { Route } from "./+types/index";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace } = await requireWorkspace(args);
  return { workspaceName: workspace.name, ...(await myIssues(args.context.get(appContext).db, workspace.id, user.id)) };
}

type Row = { id: number; number: number; title: string; status: Status; priority: Priority; due_date: string | null; projectKey: string };

function IssueRows({ issues, slug, showStatus }: { issues: Row[]; slug: string; showStatus?: boolean }) {
  return (
    <ul className="divide-y divide-zinc-200 rounded border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
      {issues.map((issue) => (
        <li key={issue.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
          <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{issueKey(issue.projectKey, issue.number)}</span>
          <Link to={`/w/${slug}/p/${issue.projectKey}/issues/${issue.number}`} data-issue-link className="min-w-0 flex-1 hover:underline">
            {issue.title}
          </Link>
          {showStatus ? <StatusBadge status={issue.status} /> : null}
          <PriorityText priority={issue.priority} />
          {issue.due_date ? <span className="text-zinc-600 dark:text-zinc-400">due {issue.due_date}</span> : null}
        </li>
      ))}
    </ul>
  );
}

export default function MyIssues({ loaderData, params }: Route.ComponentProps) {
  const { workspaceName, assigned, reported } = loaderData;
  const slug = params.workspace;
  return (
    <div className="space-y-8">
      <PageHeader title="My issues">{workspaceName}</PageHeader>
      <section aria-labelledby="assigned-title" className="space-y-4">
        <h2 id="assigned-title" className="text-lg font-semibold">
          Assigned to me
        </h2>
        {assigned.length ? (
          assigned.map((group) => (
            <section key={group.status} aria-label={statusLabels[group.status]}>
              <h3 className="mb-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">
                {statusLabels[group.status]} <span className="text-zinc-600 dark:text-zinc-400">({group.issues.length})</span>
              </h3>
              <IssueRows issues={group.issues} slug={slug} />
            </section>
          ))
        ) : (
          <p className="rounded border border-dashed border-zinc-300 px-4 py-8 text-center text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
            No open issues are assigned to you.
          </p>
        )}
      </section>
      <section aria-labelledby="reported-title" className="space-y-2">
        <h2 id="reported-title" className="text-lg font-semibold">
          Reported by me
        </h2>
        {reported.length ? (
          <IssueRows issues={reported} slug={slug} showStatus />
        ) : (
          <p className="text-zinc-700 dark:text-zinc-300">You have not reported any issues here yet.</p>
        )}
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
