import { type ComponentType, lazy, type MouseEvent, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { data, Link, type NavigateFunction, redirect, useFetchers, useNavigate, useSubmit } from "react-router";
import { Plus } from "~/components/icons/icon";
import { z } from "zod";
import { requireProject } from "~/auth/authorization.server";
import { safeRedirect } from "~/auth/safe-redirect";
import { pageTitle, primaryButtonClass } from "~/components/app-shell";
import { type BoardColumnData, type BoardShared, StaticBoardColumns } from "~/components/board-column";
import type { DndBoardProps } from "~/components/board-dnd";
import { applyMove, type BoardMove, moveFetcherKey, moveOf } from "~/components/board-moves";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { IssueFilterBar } from "~/components/issue-filter-bar";
import { idField } from "~/forms/fields.server";
import { parseForm } from "~/forms/parse-form.server";
import { appContext } from "~/context/app-context.server";
import { packCards, unpackCards } from "~/issues/board-cards";
import { boardCardCap } from "~/issues/board-limits";
import { boardStatuses, loadBoard, moveIssue, shownCount } from "~/issues/board.server";
import { isFiltered } from "~/issues/filter-params";
import { type Status, statuses } from "~/issues/issue-fields";
import { parseIssueFilters, refusedQueryMessage } from "~/issues/issue-list.server";
import { listLabels } from "~/labels/labels.server";
import { listMembers } from "~/workspaces/members.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/board";

/**
 * At most five queries: the columns (their counts; their first cards, with their assignees and
 * labels; the cards' progress and "blocked" flags), the members a filter offers and the workspace's
 * labels (none when the request's workspace lookup already holds them). Only what the page renders
 * — at most the board's cap of cards, however many `show.<status>` asks for — in small shapes: the
 * payload that hydrates the page repeats it.
 */
export async function loader(args: Route.LoaderArgs) {
  const { user, workspace, project } = await requireProject(args);
  const params = args.url.searchParams;
  const filters = parseIssueFilters(params);
  if (filters.refusedQuery) throw data(refusedQueryMessage(filters.refusedQuery), { status: 400 });
  const asked = Object.fromEntries(boardStatuses(filters).map((status) => [status, shownCount(params, status)])) as Partial<Record<Status, number>>;
  const { db } = args.context.get(appContext);
  const [members, labels] = await Promise.all([listMembers(db, workspace.id), listLabels(db, workspace.id)]);
  const choices = {
    members: members.filter((m) => m.role !== "viewer").map((m) => ({ userId: m.userId, name: m.name })),
    labels: labels.map(({ id, name, color }) => ({ id, name, color })),
  };
  // The cards share the label objects of the filter's list: the payload names each label once.
  const columns = await loadBoard(db, project.id, filters, user.id, asked, choices.labels);
  return {
    projectName: project.name,
    columns: columns.map(({ cards, ...column }) => ({ ...column, cards: packCards(cards) })),
    filters,
    ...choices,
    canWrite: can(workspace.role, "issues:write") && !project.archived_at,
  };
}

const moveSchema = z.object({
  intent: z.literal("move"),
  issueId: idField,
  status: z.enum(statuses, { error: "Choose a column." }),
  position: z.coerce.number({ error: "Choose a position." }).int().min(0).max(1_000_000),
  returnTo: z.string().optional(),
});

/**
 * intent=move: a card to a column and a 0-based position among the cards the board shows there
 * (its filters are the address's). A form without JavaScript says where to go back to (`returnTo`:
 * the board without the open menu); a fetcher (a drag, a menu with JavaScript) gets no redirect,
 * and React Router reloads the board after it.
 */
export async function action(args: Route.ActionArgs) {
  const { user, project } = await requireProject(args, "issues:write");
  const submission = await parseForm(args.request, moveSchema);
  if (submission.status !== "success") return data({ refusal: "That move was not valid." }, { status: 400 });
  const { returnTo, ...move } = submission.value;
  const { db, config } = args.context.get(appContext);
  const moved = await moveIssue(db, {
    ...move,
    filters: parseIssueFilters(args.url.searchParams),
    project,
    actorId: user.id,
    now: new Date(),
    mail: config.mail,
  });
  if (!moved.ok) throw data(moved.message, { status: moved.status });
  return returnTo === undefined ? null : redirect(safeRedirect(returnTo, args.url.pathname + args.url.search));
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("Board", loaderData?.projectName);

type Column = BoardColumnData;

/**
 * Drag and drop (dnd-kit, ~14 KiB gzipped) is not part of the page's first load: it is asked for as
 * soon as this module runs, next to the page's hydration rather than before it. Meanwhile a page
 * from the server keeps its markup (a Suspense boundary not yet hydrated: links and ⋯ menus work as
 * they do without JavaScript), and a client-side visit shows the same columns without drag and drop.
 * The server renders those static columns in the boundary: before hydration the drag and drop
 * layer draws exactly them (its handles come once React runs), and dnd-kit's hooks for each of
 * hundreds of cards were a tenth of the board's time on the server. The server build has no dnd-kit.
 */
type DndModule = typeof import("~/components/board-dnd");
let dndModule: DndModule | undefined;
const loadingDnd = import.meta.env.SSR ? undefined : import("~/components/board-dnd").then((module) => (dndModule = module));
const DndBoard = lazy<ComponentType<DndBoardProps>>(() =>
  // Already loaded: a thenable that answers at once, so that React renders it without suspending.
  dndModule ? ({ then: (resolve: (module: DndModule) => void) => resolve(dndModule!) } as unknown as Promise<DndModule>) : loadingDnd!,
);

const sameMove = (a: BoardMove, b: BoardMove) => a.issueId === b.issueId && a.status === b.status && a.position === b.position;

export default function BoardPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const { canWrite, filters } = loaderData;
  const filtered = isFiltered(filters);
  const projectKey = (params.key ?? "").toUpperCase();
  const issuesPath = `/w/${params.workspace}/p/${params.key}/issues`;
  const submit = useSubmit();
  const navigate = useNavigate();
  const fetchers = useFetchers();
  // A drop shows at once; its fetcher's pending move takes over, and the reloaded board after it.
  const [drops, setDrops] = useState<BoardMove[]>([]);
  useEffect(() => setDrops([]), [loaderData]);
  const pending = fetchers.map((fetcher) => moveOf(fetcher.formData)).filter((move) => move !== null);
  const moves = [...pending, ...drops.filter((drop) => !pending.some((move) => sameMove(move, drop)))];
  const movesKey = JSON.stringify(moves);
  // `moves` is a new array every render; `movesKey` is what it holds.
  const loaded = useMemo(() => loaderData.columns.map((column): Column => ({ ...column, cards: unpackCards(column.cards) })), [loaderData.columns]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- movesKey stands for moves (above)
  const columns = useMemo(() => moves.reduce<Column[]>(applyMove, loaded), [loaded, movesKey]);
  // Cards the board may still add ("Show N more") before it reaches its cap.
  const room = boardCardCap - loaderData.columns.reduce((sum, column) => sum + column.shown, 0);
  // A refused move: from a form without JavaScript (the page's answer) or from a fetcher.
  const refusal = actionData?.refusal ?? fetchers.map((fetcher) => (fetcher.data as { refusal?: string } | undefined)?.refusal).find(Boolean);

  const onMove = useCallback(
    (move: BoardMove) => {
      setDrops((earlier) => [...earlier, move]);
      void submit({ intent: "move", ...move }, { method: "post", navigate: false, fetcherKey: moveFetcherKey(move.issueId) });
    },
    [submit],
  );
  // The same element until what it shows changes: the board's Suspense boundary may still wait for
  // its code to hydrate, and an update to it before then would throw its server markup away.
  const board: ReactNode = useMemo(() => {
    const shared: BoardShared = { projectKey, issuesPath, canWrite, filtered, room };
    const staticColumns = <StaticBoardColumns columns={columns} shared={shared} />;
    // On the server the columns wait for their turns (InTurn, decision record 027): a fallback would be rendered meanwhile, for nothing.
    if (import.meta.env.SSR) return <Suspense fallback={null}>{staticColumns}</Suspense>;
    return <Suspense fallback={staticColumns}><DndBoard columns={columns} shared={shared} onMove={onMove} /></Suspense>;
  }, [columns, projectKey, issuesPath, canWrite, filtered, room, onMove]);

  const total = loaderData.columns.reduce((sum, column) => sum + column.total, 0);
  return (
    // Fills the height under the header (on a phone the viewport's, under its top bar); the board
    // scrolls sideways in its own area, each column up and down in its own.
    <div className="flex h-[calc(100dvh-3rem)] flex-col md:h-auto md:min-h-0 md:flex-1">
      <IssueFilterBar filters={filters} members={loaderData.members} labels={loaderData.labels} total={total} sortable={false} />
      {refusal ? (
        <p role="alert" className="mx-4 mt-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 md:mx-6 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {refusal}
        </p>
      ) : null}
      {total === 0 ? <EmptyBoard filtered={filtered} canWrite={canWrite} issuesPath={issuesPath} /> : null}
      <div role="group" aria-label="Board" className="board" onClick={(event) => followCardLink(event, navigate)}>
        {board}
      </div>
    </div>
  );
}

/**
 * A card's title is a plain link (board-card.tsx): a plain click on one is a client-side navigation,
 * as a <Link>'s would be; a click with a modifier key (a new tab, a download) is the browser's.
 */
function followCardLink(event: MouseEvent<HTMLElement>, navigate: NavigateFunction) {
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a.card-title") : null;
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  void navigate(link.getAttribute("href")!);
}

/** A board with no card at all says what it is for and offers the first issue — or that the filters (in the bar above) hide every card. */
function EmptyBoard({ filtered, canWrite, issuesPath }: { filtered: boolean; canWrite: boolean; issuesPath: string }) {
  return (
    <div className="mx-4 mt-3 flex flex-wrap items-center gap-3 rounded-md border border-dashed border-zinc-300 px-3 py-2 text-sm text-zinc-700 md:mx-6 dark:border-zinc-700 dark:text-zinc-300">
      {filtered ? (
        <span>No issues match these filters.</span>
      ) : (
        <>
          <span>The board shows this project's issues in a column per status; move a card to change its status. There are no issues yet.</span>
          {canWrite ? (
            <Link to={`${issuesPath}/new`} className={primaryButtonClass}>
              <Plus size={14} aria-hidden="true" /> File the first issue
            </Link>
          ) : null}
        </>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
