import { useEffect, useMemo, useState } from "react";
import { type ShouldRevalidateFunction, data, Link, Outlet, redirect, useFetcher, useFetchers, useLocation, useParams, useRouteLoaderData } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import { safeRedirect } from "~/auth/safe-redirect";
import { pageTitle, primaryButtonClass } from "~/components/app-shell";
import { BulkEditBar, bulkFormId, pendingRowChoice, useBulkSelection } from "~/components/bulk-edit-bar";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Pager } from "~/components/pager";
import { IssueFilterBar } from "~/components/issue-filter-bar";
import { IssueRow, IssueRows, type RowEditing, rowFetcherIssue, rowFetcherKey } from "~/components/issue-row";
import { CurrentViewLink, SaveViewButton, SaveViewPanel, saveViewMenuId } from "~/components/save-view-menu";
import { flashHeader } from "~/flash/flash.server";
import { parseForm, peekIntent } from "~/forms/parse-form.server";
import { appContext } from "~/context/app-context.server";
import { fromColumns, toColumns } from "~/issues/columns";
import { filterParams, isFiltered, searchOf } from "~/issues/filter-params";
import { bulkChoiceOf } from "~/issues/bulk-choice";
import { bulkUpdateIssues } from "~/issues/bulk-edit.server";
import { listChangeSchema } from "~/issues/forms.server";
import { type IssueFilters, listIssues, parseIssueFilters } from "~/issues/issue-list.server";
import { type IssueRowData, type LabelRef, peopleOnce } from "~/issues/issue-refs";
import { issueKey } from "~/issues/issue-fields";
import { conflictMessage, updateIssue } from "~/issues/issues.server";
import { listLabels } from "~/labels/labels.server";
import { saveView } from "~/views/saved-views.server";
import { saveViewSchema } from "~/views/forms.server";
import { viewHref } from "~/views/view-href";
import { listMembers } from "~/workspaces/members.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/layout";
import type { WorkspaceSidebar } from "../../../layout";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace, project } = await requireProject(args);
  const { db } = args.context.get(appContext);
  const filters = parseIssueFilters(args.url.searchParams);
  // Members and labels come from the request's workspace lookup (shared with the layouts above).
  const [page, members, labels] = await Promise.all([listIssues(db, project.id, filters, user.id), listMembers(db, workspace.id), listLabels(db, workspace.id)]);
  const person = peopleOnce();
  const list = {
    projectName: project.name,
    projectKey: project.key,
    // Each issue as a row shows it, and nothing more.
    rows: toColumns(page.issues.map(({ assignee_id, assigneeName, ...issue }): IssueRowData => ({ ...issue, assignee: person(assignee_id, assigneeName) }))),
    page: { total: page.total, page: page.page, pageCount: page.pageCount },
    filters,
    // The people who can be assigned (not viewers), and the labels, as the filters and menus show them.
    members: members.filter((m) => m.role !== "viewer").map((m) => ({ userId: m.userId, name: m.name })),
    labels: labels.map((l): LabelRef => ({ id: l.id, name: l.name, color: l.color })),
    canWrite: can(workspace.role, "issues:write") && !project.archived_at,
    canShareViews: can(workspace.role, "views:share"),
  };
  // Refused search text: the list without it, and the message at the search field.
  return filters.refusedQuery ? data(list, { status: 400 }) : list;
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("Issues", loaderData?.projectName);

/**
 * A row's menus (intent=status|priority|assignee): one field of one issue, through the one write
 * path, then back to the page as it was (filters and all), without the open menu. A bulk edit
 * (intent=bulk): one change to the selected issues, all or nothing, then back with "Updated N issues".
 */
export async function action(args: Route.ActionArgs) {
  // Saving the list as a view only reads it (viewers may too); every other intent changes a row.
  if ((await peekIntent(args.request)) === "save-view") return saveListView(args);
  const { user, workspace, project } = await requireProject(args, "issues:write");
  const { db, config, sessionSecret } = args.context.get(appContext);
  const submission = await parseForm(args.request, listChangeSchema, { keepEmptyValues: true });
  // Shown above the list; a bulk edit's comes back with its selection and change as they were sent.
  const refuse = (message: string, status: number) => data({ refusal: message, bulk: bulkChoiceOf(submission.payload) }, { status });
  if (submission.status !== "success") return refuse(Object.values(submission.error ?? {}).flat()[0] ?? "That change could not be read.", 400);
  const change = submission.value;
  const back = safeRedirect(change.returnTo, `/w/${workspace.slug}/p/${project.key}/issues`);
  if (change.intent === "bulk") {
    const { issueIds, status, priority, assigneeId, addLabelId, removeLabelId } = change;
    const changes = { status, priority, assigneeId: assigneeId === "" ? null : assigneeId, addLabelId, removeLabelId };
    const edited = await bulkUpdateIssues(db, { project, issueIds, actorId: user.id, changes, now: new Date(), mail: config.mail });
    if (!("ok" in edited)) return refuse(edited.message, 400);
    if (!edited.ok) return refuse(edited.message, edited.status);
    return redirect(back, { headers: { "Set-Cookie": await flashHeader(sessionSecret, { text: bulkEditedText(edited) }) } });
  }
  const issue = await db.selectFrom("issues").select("number").where("id", "=", change.issueId).where("project_id", "=", project.id).executeTakeFirst();
  if (!issue) throw data("Issue not found.", { status: 404 });
  const changes =
    change.intent === "status"
      ? { status: change.status }
      : change.intent === "priority"
        ? { priority: change.priority }
        : { assigneeId: change.assigneeId === "" ? null : change.assigneeId };
  const saved = await updateIssue(db, { project, issueId: change.issueId, actorId: user.id, version: change.version, changes, now: new Date(), mail: config.mail });
  // The message names the issue: the reloaded list may no longer have its row.
  const key = issueKey(project.key, issue.number);
  if ("conflict" in saved) return refuse(`${key}: ${conflictMessage(saved)}`, 409);
  if ("field" in saved) return refuse(`${key}: ${saved.message}`, 400);
  if (!saved.ok) throw data(saved.message, { status: saved.status });
  return redirect(back);
}

/** "Updated 3 issues.", and how many already had the change. */
function bulkEditedText({ updated, unchanged }: { updated: number; unchanged: number }) {
  const issues = (n: number) => `${n} ${n === 1 ? "issue" : "issues"}`;
  if (!updated) return "Nothing to update: the selected issues already had that change.";
  if (!unchanged) return `Updated ${issues(updated)}.`;
  return `Updated ${issues(updated)}; ${issues(unchanged)} already had that change.`;
}

/** intent=save-view: the list's filters and sort under a name (app/views/), then the list opened with that view. */
async function saveListView(args: Route.ActionArgs) {
  const { user, workspace, project } = await requireProject(args);
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, saveViewSchema);
  if (submission.status !== "success") return data({ saveView: submission.reply() }, { status: 400 });
  const { name, query, shared } = submission.value;
  const actor = { workspaceId: workspace.id, role: workspace.role, userId: user.id };
  const saved = await saveView(services.db, { actor, projectId: project.id, name, query, shared, now: new Date() });
  if (!saved.ok && saved.status === 400) {
    const reply = saved.field === "name" ? submission.reply({ fieldErrors: { name: [saved.message] } }) : submission.reply({ formErrors: [saved.message] });
    return data({ saveView: reply }, { status: 400 });
  }
  if (!saved.ok) throw data(saved.message, { status: saved.status });
  const flash = { text: shared ? `View “${name}” saved and shared with the workspace.` : `View “${name}” saved.` };
  return redirect(viewHref(workspace.slug, project.key, saved), { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
}

/** A refused change (409) reloads the list, so it shows the values and versions that won. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, formData, defaultShouldRevalidate }) => {
  // The issue editor's Write/Preview tabs change nothing: the list stays as it is.
  const intent = formData?.get("intent");
  if (intent === "preview" || intent === "write") return false;
  return actionStatus === 409 || defaultShouldRevalidate;
};

/** The same list with some parameters changed (and back to page 1 unless the page is what changes). */
function listHref(filters: IssueFilters, changes: Partial<Record<string, string | number | null>>) {
  return searchOf(filterParams(filters, { sort: filters.sort === "updated" ? null : filters.sort, ...changes })) || "?";
}

export default function IssueList({ loaderData, actionData }: Route.ComponentProps) {
  const { page, filters, members, labels, canWrite, canShareViews, projectKey } = loaderData;
  const rows = useMemo(() => fromColumns(loaderData.rows), [loaderData.rows]);
  // A refused row change shows above the list: its row may be gone from the reloaded list (a filter
  // no longer matches, another page), and the list keeps that row's fetcher, and its answer, alive.
  const [changedIssueId, setChangedIssueId] = useState<number | null>(null);
  const rowChange = useFetcher<{ refusal?: string }>({ key: rowFetcherKey(changedIssueId ?? 0) });
  const refusal = (actionData && "refusal" in actionData ? actionData.refusal : undefined) ?? rowChange.data?.refusal;
  const params = useParams();
  const location = useLocation();
  const fetchers = useFetchers();
  // The row menu a click opened; a new page (a change saved, a filter) closes it.
  const [openMenu, setOpenMenu] = useState<string | null>(null);
  useEffect(() => setOpenMenu(null), [location.key]);
  const base = `/w/${params.workspace}/p/${params.key}`;
  const detailOpen = params.number !== undefined;
  const search = listHref(filters, { page: page.page > 1 ? page.page : null });
  const filtered = isFiltered(filters);
  // The saved view the list was opened with (the sidebar's, from the workspace layout), if its filters are still the ones shown.
  const sidebar = useRouteLoaderData<WorkspaceSidebar>("routes/w/$workspace/layout");
  const viewId = new URLSearchParams(location.search).get("view");
  const currentView = viewId ? [...(sidebar?.projects ?? []), ...(sidebar?.archivedProjects ?? [])].find((p) => p.key === projectKey)?.views.find((v) => String(v.id) === viewId) : undefined;
  const saveAction = new URLSearchParams(location.search);
  saveAction.set("menu", saveViewMenuId);
  // The bulk edit: this page's rows, as selected (a refused edit comes back with its selection).
  const refusedBulk = actionData && "bulk" in actionData ? actionData.bulk : undefined;
  const bulkQuery = new URLSearchParams(location.search);
  const selectAll = bulkQuery.get("select") === "all";
  bulkQuery.delete("select");
  bulkQuery.delete("menu");
  const rowIds = useMemo(() => rows.map((row) => row.id), [rows]);
  const selection = useBulkSelection({ rowIds, refused: refusedBulk, selectAll });
  const editing = useMemo((): RowEditing | undefined => {
    if (!canWrite) return undefined;
    const query = new URLSearchParams(location.search);
    const urlMenu = query.get("menu");
    query.delete("menu");
    const pending = new Map<number, FormData>();
    if (selection.pending) {
      const shown = pendingRowChoice(selection.pending);
      for (const issueId of selection.pending.getAll("issueIds")) pending.set(Number(issueId), shown);
    }
    for (const fetcher of fetchers) {
      const issueId = rowFetcherIssue(fetcher.key);
      if (issueId !== null && fetcher.formData) pending.set(issueId, fetcher.formData);
    }
    return {
      action: `${base}/issues`,
      members,
      onChange: setChangedIssueId,
      path: location.pathname,
      query: query.size ? `${query}&` : "",
      openMenu,
      urlMenu,
      closeMenu: () => setOpenMenu(null),
      pending,
      selection: { form: bulkFormId, selected: selection.selected, toggle: selection.toggle },
    };
  }, [canWrite, base, members, location.pathname, location.search, fetchers, openMenu, selection.pending, selection.selected, selection.toggle]);

  return (
    // With an issue open: on wide screens the list keeps ~40 % and the issue ~60 % of the content
    // area under the header, each a pane with its own scroll; below 1280 px the issue takes the whole
    // width (its page links back to the list).
    <div className={detailOpen ? "xl:grid xl:min-h-0 xl:flex-1 xl:grid-cols-[2fr_3fr]" : ""}>
      <section aria-labelledby="issues-title" className={detailOpen ? "hidden min-w-0 border-r border-zinc-200 xl:pane xl:block dark:border-zinc-800" : "min-w-0"}>
        <h2 id="issues-title" className="sr-only">
          Issues ({page.total})
        </h2>
        <IssueFilterBar
          filters={filters}
          members={members}
          labels={labels}
          total={page.total}
          csvHref={`${base}/issues.csv${listHref(filters, {}).replace(/^\?$/, "")}`}
          saveView={currentView ? <CurrentViewLink href={`${base}/views/${currentView.id}`} name={currentView.name} /> : filtered || filters.sort !== "updated" ? <SaveViewButton /> : null}
        />
        <SaveViewPanel
          action={`${base}/issues?${saveAction}`}
          query={listHref(filters, {}).replace(/^\?/, "")}
          canShare={canShareViews}
          lastResult={actionData && "saveView" in actionData ? actionData.saveView : undefined}
        />

        {refusal ? (
          <p role="alert" className="mx-4 my-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 md:mx-6 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
            {refusal}
          </p>
        ) : null}

        {editing && rows.length ? (
          <BulkEditBar
            action={`${base}/issues${bulkQuery.size ? `?${bulkQuery}` : ""}`}
            returnTo={`${location.pathname}${bulkQuery.size ? `?${bulkQuery}` : ""}`}
            members={members}
            labels={labels}
            selection={selection}
            refused={refusedBulk}
            selectAllHref={`?${bulkQuery.size ? `${bulkQuery}&` : ""}select=all`}
            clearHref={selectAll ? `${location.pathname}${bulkQuery.size ? `?${bulkQuery}` : ""}` : null}
          />
        ) : null}

        {rows.length ? (
          <IssueRows label="Issues" onMenu={editing ? setOpenMenu : undefined}>
            {rows.map((issue) => (
              <IssueRow
                key={issue.id}
                issue={issue}
                projectKey={projectKey}
                href={`${base}/issues/${issue.number}${search === "?" ? "" : search}`}
                current={params.number === String(issue.number)}
                editing={editing}
              />
            ))}
          </IssueRows>
        ) : (
          <div className="mx-4 my-6 rounded-md border border-dashed border-zinc-300 px-4 py-10 text-center md:mx-6 dark:border-zinc-700">
            {filtered ? (
              <>
                <p className="text-zinc-700 dark:text-zinc-300">No issues match these filters.</p>
                <Link to="?" className="mt-3 inline-block text-indigo-700 underline dark:text-indigo-300">
                  Clear filters
                </Link>
              </>
            ) : (
              <>
                <p className="font-medium">No issues yet</p>
                <p className="mt-1 text-zinc-600 dark:text-zinc-400">Issues are the bugs, tasks and ideas of this project, one line each.</p>
                {canWrite ? (
                  <Link to={`${base}/issues/new`} className={`${primaryButtonClass} mt-4`}>
                    File the first one
                  </Link>
                ) : null}
              </>
            )}
          </div>
        )}

        <Pager page={page.page} pageCount={page.pageCount} href={(n) => listHref(filters, { page: n })} />
      </section>
      {detailOpen ? (
        // One pane per issue: another issue opens at its top, not where the last one was left.
        <div key={params.number} className="min-w-0 xl:pane">
          <Outlet />
        </div>
      ) : (
        <Outlet />
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
