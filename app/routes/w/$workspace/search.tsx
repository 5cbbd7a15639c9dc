import { data, Form, Link, redirect, useNavigation } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { StatusBadge } from "~/components/issue-bits";
import { PageHeader } from "~/components/page-header";
import { parsePositiveInteger, queryText } from "~/forms/fields.server";
import { appContext } from "~/host/app-context.server";
import { issueKey } from "~/issues/issue-fields";
import { findIssueByKey, type HighlightRange, maxQueryLength, parseIssueKey, searchIssues } from "~/search/search.server";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.q ? `Search: ${loaderData.q} — Cairn` : "Search — Cairn" }];

/** Every member (viewers too) may search (docs/product.md, Roles). A query that names an issue (WEB-42) opens it. */
export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args);
  const handle = args.context.get(appContext);
  const params = args.url.searchParams;
  const { value: q, problem } = queryText(params, "q", maxQueryLength);
  // Refused text is not searched for: the message shows at the search field.
  if (problem) return data({ q, problem, found: null }, { status: 400 });
  if (parseIssueKey(q)) {
    const issue = await findIssueByKey(handle.db, workspace.id, q);
    if (issue) throw redirect(`/w/${workspace.slug}/p/${issue.projectKey}/issues/${issue.number}`);
  }
  const found = q ? await searchIssues(handle, { workspaceId: workspace.id, q, page: parsePositiveInteger(params.get("page")) ?? 1 }) : null;
  return { q, problem: null, found };
}

/** `text` with the given ranges wrapped in <mark>: React escapes the rest. */
function Highlighted({ text, ranges }: { text: string; ranges: readonly HighlightRange[] }) {
  const parts = [];
  let at = 0;
  for (const { start, end } of ranges) {
    if (start < at || end > text.length) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <mark key={start} className="rounded-sm bg-yellow-200 px-0.5 text-inherit dark:bg-yellow-700 dark:text-white">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

const pageHref = (q: string, page: number) => `?${new URLSearchParams(page > 1 ? { q, page: String(page) } : { q })}`;

export default function Search({ loaderData, params }: Route.ComponentProps) {
  const { q, problem, found } = loaderData;
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === `/w/${params.workspace}/search`;
  const inputClass = "min-w-0 flex-1 rounded border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900";

  return (
    <div>
      <PageHeader title="Search">Issue titles, descriptions and comments in this workspace.</PageHeader>
      <Form method="get" role="search" aria-label="Search this workspace" className="mb-6 flex max-w-xl items-end gap-2">
        <label className="flex min-w-0 flex-1 flex-col text-sm font-medium">
          Search
          {/* Keyed by the query: a new search from the sidebar shows its words here too. */}
          <input
            key={q}
            type="search"
            name="q"
            defaultValue={q}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "search-error" : undefined}
            className={`mt-1 ${inputClass} aria-[invalid]:border-red-600`}
          />
          {problem ? (
            <span id="search-error" className="mt-1 font-normal text-red-700 dark:text-red-400">
              {problem}
            </span>
          ) : null}
        </label>
        <button
          type="submit"
          aria-disabled={searching || undefined}
          className="rounded bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 aria-disabled:opacity-60"
        >
          Search
        </button>
      </Form>

      {found ? (
        <section aria-labelledby="results-title" aria-busy={searching || undefined}>
          <h2 id="results-title" className="sr-only">
            Results
          </h2>
          <p aria-live="polite" className="mb-3 text-sm text-zinc-700 dark:text-zinc-300">
            {found.total === 1 ? "1 result" : `${found.total} results`}
            {found.pageCount > 1 ? ` · page ${found.page} of ${found.pageCount}` : ""}
          </p>
          {found.results.length ? (
            <ol className="divide-y divide-zinc-100 dark:divide-zinc-900">
              {found.results.map((result) => {
                const key = issueKey(result.projectKey, result.number);
                return (
                  <li key={result.issueId} className="py-3">
                    <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                      <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{key}</span>
                      <Link to={`/w/${params.workspace}/p/${result.projectKey}/issues/${result.number}`} className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
                        <Highlighted text={result.title} ranges={result.titleHighlights} />
                      </Link>
                      <StatusBadge status={result.status} />
                    </div>
                    {result.snippet ? (
                      <p className="mt-1 text-sm break-words text-zinc-700 dark:text-zinc-300">
                        <Highlighted text={result.snippet} ranges={result.snippetHighlights} />
                      </p>
                    ) : null}
                  </li>
                );
              })}
            </ol>
          ) : (
            <p className="rounded border border-dashed border-zinc-300 px-4 py-8 text-center text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
              No issues match “{q}”.
            </p>
          )}
          {found.pageCount > 1 ? (
            <nav aria-label="Pages" className="mt-4 flex items-center gap-4 text-sm">
              {found.page > 1 ? (
                <Link to={pageHref(q, found.page - 1)} rel="prev" className="text-indigo-700 underline dark:text-indigo-300">
                  Previous page
                </Link>
              ) : null}
              <span>
                Page {found.page} of {found.pageCount}
              </span>
              {found.page < found.pageCount ? (
                <Link to={pageHref(q, found.page + 1)} rel="next" className="text-indigo-700 underline dark:text-indigo-300">
                  Next page
                </Link>
              ) : null}
            </nav>
          ) : null}
        </section>
      ) : (
        <p className="text-zinc-700 dark:text-zinc-300">Type words to find, or an issue key like WEB-42 to open that issue.</p>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
