import { useMemo } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { ContentHeader, PageBody, pageTitle, primaryButtonClass } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Pager } from "~/components/pager";
import { IssueRow, IssueRows } from "~/components/issue-row";
import { parsePositiveInteger, queryText } from "~/forms/fields.server";
import { appContext } from "~/context/app-context.server";
import { fromColumns, toColumns } from "~/issues/columns";
import { findIssueByKey, type HighlightRange, maxQueryLength, parseIssueKey, searchIssues } from "~/search/search.server";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const workspace = matches.find((match) => match?.id === "routes/w/$workspace/layout")?.loaderData as { workspace?: { name: string } } | undefined;
  return pageTitle(loaderData?.q ? `Search: ${loaderData.q}` : "Search", workspace?.workspace?.name);
};

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
  return { q, problem: null, found: found && { ...found, results: toColumns(found.results) } };
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
  const results = useMemo(() => (found ? fromColumns(found.results) : []), [found]);
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === `/w/${params.workspace}/search`;
  const inputClass = "h-8 w-full min-w-0 rounded-md border border-zinc-300 bg-white px-2.5 dark:border-zinc-700 dark:bg-zinc-900";

  return (
    <>
      <ContentHeader title="Search" />
      <div className="border-b border-zinc-200 px-4 py-3 md:px-6 dark:border-zinc-800">
        <Form method="get" role="search" aria-label="Search this workspace" className="flex max-w-xl items-start gap-2">
          <label className="flex min-w-0 flex-1 flex-col">
            <span className="sr-only">Search</span>
            {/* Keyed by the query: a new search from the sidebar shows its words here too. */}
            <input
              key={q}
              type="search"
              name="q"
              defaultValue={q}
              placeholder="Words, or a key like WEB-42"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? "search-error" : undefined}
              className={`${inputClass} aria-[invalid]:border-red-600`}
            />
            {problem ? (
              <span id="search-error" className="mt-1 text-red-700 dark:text-red-400">
                {problem}
              </span>
            ) : null}
          </label>
          <button type="submit" aria-disabled={searching || undefined} className={`${primaryButtonClass} h-8 aria-disabled:opacity-60`}>
            Search
          </button>
        </Form>
      </div>

      {found ? (
        <section aria-labelledby="results-title" aria-busy={searching || undefined}>
          <h2 id="results-title" className="sr-only">
            Results
          </h2>
          <p aria-live="polite" className="px-4 py-2 text-[13px] text-zinc-600 md:px-6 dark:text-zinc-400">
            {found.total === 1 ? "1 result" : `${found.total} results`}
            {found.pageCount > 1 ? ` · page ${found.page} of ${found.pageCount}` : ""}
          </p>
          {results.length ? (
            <IssueRows label="Results">
              {results.map((result) => (
                <IssueRow
                  key={result.id}
                  issue={result}
                  href={`/w/${params.workspace}/p/${result.projectKey}/issues/${result.number}`}
                  title={<Highlighted text={result.title} ranges={result.titleHighlights} />}
                >
                  {result.snippet ? (
                    <p className="row-snippet">
                      <Highlighted text={result.snippet} ranges={result.snippetHighlights} />
                    </p>
                  ) : null}
                </IssueRow>
              ))}
            </IssueRows>
          ) : (
            <PageBody>
              <p className="rounded-md border border-dashed border-zinc-300 px-4 py-8 text-center text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
                No issues match “{q}”.
              </p>
            </PageBody>
          )}
          <Pager page={found.page} pageCount={found.pageCount} href={(n) => pageHref(q, n)} />
        </section>
      ) : (
        <PageBody>
          <p className="text-zinc-700 dark:text-zinc-300">
            Search finds issues by the words of their titles, descriptions and comments, in every project of this workspace; a word with a typo finds the word meant too,
            after the issues with the words as typed.
          </p>
          <p className="mt-1 text-zinc-600 dark:text-zinc-400">Type words to find, or an issue key like WEB-42 to open that issue.</p>
        </PageBody>
      )}
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
