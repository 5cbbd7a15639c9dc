import { useState } from "react";
import { type ShouldRevalidateFunction, data, Form, Link, Outlet, redirect, useFetcher, useLocation, useParams } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import { safeRedirect } from "~/auth/safe-redirect";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FilterSelect } from "~/components/filter-select";
import { PriorityText } from "~/components/issue-bits";
import { LabelChip } from "~/components/label-chip";
import { NoScriptSubmit } from "~/components/no-script-submit";
import { parseForm } from "~/forms/parse-form.server";
import { appContext } from "~/host/app-context.server";
import { filterParams, isFiltered, searchOf } from "~/issues/filter-params";
import { type IssueFilters, listIssues, parseIssueFilters } from "~/issues/issue-list.server";
import { issueKey, issueSorts, priorities, priorityLabels, type Status, statuses, statusLabels } from "~/issues/issue-fields";
import { quickStatusSchema } from "~/issues/forms.server";
import { conflictMessage, updateIssue } from "~/issues/issues.server";
import { listLabels } from "~/labels/labels.server";
import { listMembers } from "~/workspaces/members.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/layout";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace, project } = await requireProject(args);
  const { db } = args.context.get(appContext);
  const filters = parseIssueFilters(args.url.searchParams);
  const [page, members, labels] = await Promise.all([
    listIssues(db, project.id, filters, user.id),
    listMembers(db, workspace.id),
    listLabels(db, workspace.id),
  ]);
  const list = {
    page,
    filters,
    members: members.filter((m) => m.role !== "viewer").map((m) => ({ userId: m.userId, name: m.name })),
    labels,
    canWrite: can(workspace.role, "issues:write") && !project.archived_at,
  };
  // Refused search text: the list without it, and the message at the search field.
  return filters.refusedQuery ? data(list, { status: 400 }) : list;
}

/** Status changes from the list (intent=status): the page comes back as it was, filters and all. */
export async function action(args: Route.ActionArgs) {
  const { user, workspace, project } = await requireProject(args, "issues:write");
  const { db } = args.context.get(appContext);
  const submission = await parseForm(args.request, quickStatusSchema);
  if (submission.status !== "success") return data({ refusal: "Choose a status." }, { status: 400 });
  const { issueId, version, status } = submission.value;
  const issue = await db.selectFrom("issues").select("number").where("id", "=", issueId).where("project_id", "=", project.id).executeTakeFirst();
  if (!issue) throw data("Issue not found.", { status: 404 });
  const saved = await updateIssue(db, { issueId, workspaceId: workspace.id, actorId: user.id, version, changes: { status }, now: new Date() });
  // Shown above the list, which names the issue: the reloaded list may no longer have its row.
  const refuse = (message: string, status: number) => data({ refusal: `${issueKey(project.key, issue.number)}: ${message}` }, { status });
  if ("conflict" in saved) return refuse(conflictMessage(saved), 409);
  if ("field" in saved) return refuse(saved.message, 400);
  return redirect(safeRedirect(submission.value.returnTo, `/w/${workspace.slug}/p/${project.key}/issues`));
}

/** A refused status change (409) reloads the list, so it shows the status and version that won. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

const sortLabels: Record<(typeof issueSorts)[number], string> = {
  updated: "Recently updated",
  created: "Newest",
  priority: "Priority",
  due: "Due date",
  number: "Number",
};

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });

/** The same list with some parameters changed (and back to page 1 unless the page is what changes). */
function listHref(filters: IssueFilters, changes: Partial<Record<string, string | number | null>>) {
  return searchOf(filterParams(filters, { sort: filters.sort === "updated" ? null : filters.sort, ...changes })) || "?";
}

/** The fetcher of a row's status select, by issue; the list reads the latest one's answer too. */
const quickStatusKey = (issueId: number | null) => `issue-status-${issueId ?? "none"}`;

export default function IssueList({ loaderData, actionData }: Route.ComponentProps) {
  const { page, filters, members, labels, canWrite } = loaderData;
  // A refused row change shows above the table: its row may be gone from the reloaded list (a filter
  // no longer matches, another page), and the list keeps that row's fetcher, and its answer, alive.
  const [changedIssueId, setChangedIssueId] = useState<number | null>(null);
  const rowChange = useFetcher<{ refusal?: string }>({ key: quickStatusKey(changedIssueId) });
  const refusal = actionData?.refusal ?? rowChange.data?.refusal;
  const params = useParams();
  const base = `/w/${params.workspace}/p/${params.key}`;
  const projectKey = (params.key ?? "").toUpperCase();
  const detailOpen = params.number !== undefined;
  const search = listHref(filters, { page: page.page > 1 ? page.page : null });
  const filtered = isFiltered(filters);
  const selectClass = "rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900";

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <section aria-labelledby="issues-title" className={detailOpen ? "hidden xl:block" : ""}>
        <div className="mb-3 flex items-center justify-between gap-3">
          <h2 id="issues-title" className="text-lg font-semibold">
            Issues <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">({page.total})</span>
          </h2>
          {/* A document request (reloadDocument), so that the browser downloads it, with or without JavaScript. */}
          <Link reloadDocument to={`${base}/issues.csv${listHref(filters, {}).replace(/^\?$/, "")}`} className="ml-auto text-sm text-indigo-700 underline dark:text-indigo-300">
            Export CSV
          </Link>
          {canWrite ? (
            <Link to={`${base}/issues/new`} className="rounded bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800">
              New issue
            </Link>
          ) : null}
        </div>

        <Form method="get" role="search" aria-label="Filter issues" className="mb-4 flex flex-wrap items-end gap-2 text-sm">
          <label className="flex flex-col">
            Search
            <input
              type="search"
              name="q"
              defaultValue={filters.refusedQuery?.value ?? filters.q}
              aria-invalid={filters.refusedQuery ? true : undefined}
              aria-describedby={filters.refusedQuery ? "issue-search-error" : undefined}
              className={`${selectClass} aria-[invalid]:border-red-600`}
            />
            {filters.refusedQuery ? (
              <span id="issue-search-error" className="mt-1 text-red-700 dark:text-red-400">
                {filters.refusedQuery.message}
              </span>
            ) : null}
          </label>
          <FilterSelect
            label="Status"
            name="status"
            value={filters.statuses.join(",")}
            options={[
              { value: "", label: "Any status" },
              { value: "open", label: "Open" },
              { value: "closed", label: "Closed" },
              ...statuses.map((s) => ({ value: s, label: statusLabels[s] })),
            ]}
            className={selectClass}
          />
          <FilterSelect
            label="Assignee"
            name="assignee"
            value={String(filters.assignees[0] ?? "")}
            options={[
              { value: "", label: "Anyone" },
              { value: "me", label: "Me" },
              { value: "unassigned", label: "Unassigned" },
              ...members.map((m) => ({ value: m.userId, label: m.name })),
            ]}
            className={selectClass}
          />
          <FilterSelect
            label="Label"
            name="label"
            value={String(filters.labelIds[0] ?? "")}
            options={[{ value: "", label: "Any label" }, ...labels.map((l) => ({ value: l.id, label: l.name }))]}
            className={selectClass}
          />
          <FilterSelect
            label="Priority"
            name="priority"
            value={filters.priorities[0] ?? ""}
            options={[{ value: "", label: "Any priority" }, ...priorities.map((p) => ({ value: p, label: priorityLabels[p] }))]}
            className={selectClass}
          />
          <FilterSelect
            label="Sort"
            name="sort"
            value={filters.sort}
            options={issueSorts.map((sort) => ({ value: sort, label: sortLabels[sort] }))}
            className={selectClass}
          />
          <button type="submit" className="rounded border border-zinc-300 px-3 py-1 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-900">
            Apply
          </button>
          {filtered ? (
            <Link to="?" className="px-2 py-1 text-indigo-700 underline dark:text-indigo-300">
              Clear filters
            </Link>
          ) : null}
        </Form>

        {refusal ? (
          <p role="alert" className="mb-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
            {refusal}
          </p>
        ) : null}

        {page.issues.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-zinc-200 text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
                <tr>
                  <th scope="col" className="py-2 pr-2 font-medium">Key</th>
                  <th scope="col" className="py-2 pr-2 font-medium">Title</th>
                  <th scope="col" className="py-2 pr-2 font-medium">Status</th>
                  <th scope="col" className="py-2 pr-2 font-medium">Priority</th>
                  <th scope="col" className="py-2 pr-2 font-medium">Assignee</th>
                  <th scope="col" className="py-2 pr-2 font-medium">Labels</th>
                  <th scope="col" className="py-2 pr-2 font-medium">Due</th>
                  <th scope="col" className="py-2 font-medium">Updated</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100 dark:divide-zinc-900">
                {page.issues.map((issue) => (
                  <tr key={issue.id} aria-current={params.number === String(issue.number) ? "true" : undefined} className="aria-[current]:bg-indigo-50 dark:aria-[current]:bg-indigo-950">
                    <td className="py-2 pr-2 font-mono text-xs whitespace-nowrap">{issueKey(projectKey, issue.number)}</td>
                    <td className="py-2 pr-2">
                      <Link to={`${base}/issues/${issue.number}${search === "?" ? "" : search}`} data-issue-link className="hover:underline">
                        {issue.title}
                      </Link>
                    </td>
                    <td className="py-2 pr-2">
                      <QuickStatus issue={issue} canWrite={canWrite} projectKey={projectKey} onChange={setChangedIssueId} />
                    </td>
                    <td className="py-2 pr-2">
                      <PriorityText priority={issue.priority} />
                    </td>
                    <td className="py-2 pr-2">{issue.assigneeName ?? <span className="text-zinc-600 dark:text-zinc-400">Unassigned</span>}</td>
                    <td className="py-2 pr-2">
                      <span className="flex flex-wrap gap-1">
                        {issue.labels.map((label) => (
                          <LabelChip key={label.id} name={label.name} color={label.color} />
                        ))}
                      </span>
                    </td>
                    <td className="py-2 pr-2 whitespace-nowrap">{issue.due_date ?? ""}</td>
                    <td className="py-2 whitespace-nowrap">{dateFormat.format(new Date(issue.updated_at))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="rounded border border-dashed border-zinc-300 px-4 py-8 text-center text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
            {filtered ? "No issues match these filters. " : "No issues yet. "}
            {filtered ? (
              <Link to="?" className="text-indigo-700 underline dark:text-indigo-300">
                Clear filters
              </Link>
            ) : canWrite ? (
              <Link to={`${base}/issues/new`} className="text-indigo-700 underline dark:text-indigo-300">
                File the first one
              </Link>
            ) : null}
          </p>
        )}

        {page.pageCount > 1 ? (
          <nav aria-label="Pages" className="mt-4 flex items-center gap-4 text-sm">
            {page.page > 1 ? <Link to={listHref(filters, { page: page.page - 1 })} rel="prev">Previous page</Link> : null}
            <span>
              Page {page.page} of {page.pageCount}
            </span>
            {page.page < page.pageCount ? <Link to={listHref(filters, { page: page.page + 1 })} rel="next">Next page</Link> : null}
          </nav>
        ) : null}
      </section>
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}

/**
 * A status select on each row. With JavaScript the change applies at once (optimistically) and
 * rolls back if it is refused (the list says why); without, "Set" submits it.
 */
function QuickStatus({
  issue,
  canWrite,
  projectKey,
  onChange,
}: {
  issue: { id: number; number: number; status: Status; version: number };
  canWrite: boolean;
  projectKey: string;
  onChange: (issueId: number) => void;
}) {
  const fetcher = useFetcher({ key: quickStatusKey(issue.id) });
  const location = useLocation();
  const pending = fetcher.formData?.get("status") as Status | undefined;
  const shown = pending ?? issue.status;
  if (!canWrite) return <span>{statusLabels[issue.status]}</span>;
  const label = `Status of ${issueKey(projectKey, issue.number)}`;
  return (
    <fetcher.Form method="post" action={location.pathname.replace(/\/issues\/.*$/, "/issues")} className="flex items-center gap-1">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="issueId" value={issue.id} />
      <input type="hidden" name="version" value={issue.version} />
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
      <select
        name="status"
        aria-label={label}
        value={shown}
        onChange={(event) => {
          onChange(issue.id);
          void fetcher.submit(event.currentTarget.form);
        }}
        className="rounded border border-zinc-300 bg-white px-1 py-0.5 text-xs dark:border-zinc-700 dark:bg-zinc-900"
      >
        {statuses.map((s) => (
          <option key={s} value={s}>
            {statusLabels[s]}
          </option>
        ))}
      </select>
      <NoScriptSubmit className="rounded border border-zinc-300 px-1 text-xs dark:border-zinc-700">
        Set<span className="sr-only"> {label}</span>
      </NoScriptSubmit>
    </fetcher.Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
