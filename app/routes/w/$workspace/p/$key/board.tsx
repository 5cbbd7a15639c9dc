import {
  type Announcements,
  type CollisionDetection,
  closestCorners,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { Plus } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { data, Link, redirect, useFetchers, useSubmit } from "react-router";
import { z } from "zod";
import { requireProject } from "~/auth/authorization.server";
import { safeRedirect } from "~/auth/safe-redirect";
import { pageTitle, primaryButtonClass } from "~/components/app-shell";
import { BoardColumn, columnDropId } from "~/components/board-column";
import { applyMove, type BoardMove, moveFetcherKey, moveOf } from "~/components/board-moves";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { IssueFilterBar } from "~/components/issue-filter-bar";
import { idField } from "~/forms/fields.server";
import { parseForm } from "~/forms/parse-form.server";
import { appContext } from "~/host/app-context.server";
import { boardStatuses, loadBoard, moveIssue, shownCount } from "~/issues/board.server";
import { isFiltered } from "~/issues/filter-params";
import { issueKey, type Status, statuses, statusLabels } from "~/issues/issue-fields";
import { parseIssueFilters, refusedQueryMessage } from "~/issues/issue-list.server";
import { listLabels } from "~/labels/labels.server";
import { listMembers } from "~/workspaces/members.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/board";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace, project } = await requireProject(args);
  const params = args.url.searchParams;
  const filters = parseIssueFilters(params);
  if (filters.refusedQuery) throw data(refusedQueryMessage(filters.refusedQuery), { status: 400 });
  const shown = Object.fromEntries(boardStatuses(filters).map((status) => [status, shownCount(params, status)])) as Partial<Record<Status, number>>;
  const { db } = args.context.get(appContext);
  const [columns, members, labels] = await Promise.all([
    loadBoard(db, project.id, filters, user.id, shown),
    listMembers(db, workspace.id),
    listLabels(db, workspace.id),
  ]);
  return {
    projectName: project.name,
    columns,
    shown,
    filters,
    members: members.filter((m) => m.role !== "viewer").map((m) => ({ userId: m.userId, name: m.name })),
    labels,
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
  const { user, workspace, project } = await requireProject(args, "issues:write");
  const submission = await parseForm(args.request, moveSchema);
  if (submission.status !== "success") return data({ refusal: "That move was not valid." }, { status: 400 });
  const { returnTo, ...move } = submission.value;
  const moved = await moveIssue(args.context.get(appContext).db, {
    ...move,
    filters: parseIssueFilters(args.url.searchParams),
    projectId: project.id,
    workspaceId: workspace.id,
    actorId: user.id,
    now: new Date(),
  });
  if (!moved.ok) throw data(moved.message, { status: moved.status });
  return returnTo === undefined ? null : redirect(safeRedirect(returnTo, args.url.pathname + args.url.search));
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("Board", loaderData?.projectName);

type Column = Route.ComponentProps["loaderData"]["columns"][number];

/**
 * What a dragged card is over: the card under the pointer, if there is one (a column's own area
 * is large and would often win on distance); else, and always with the keyboard, the nearest card
 * or column.
 */
const cardUnderPointerFirst: CollisionDetection = (args) => {
  const cards = pointerWithin({ ...args, droppableContainers: args.droppableContainers.filter((droppable) => typeof droppable.id === "number") });
  return cards.length ? cards : closestCorners(args);
};

const sameMove = (a: BoardMove, b: BoardMove) => a.issueId === b.issueId && a.status === b.status && a.position === b.position;

export default function BoardPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const { canWrite, filters, shown } = loaderData;
  const filtered = isFiltered(filters);
  const projectKey = (params.key ?? "").toUpperCase();
  const issuesPath = `/w/${params.workspace}/p/${params.key}/issues`;
  const submit = useSubmit();
  const fetchers = useFetchers();
  // A drop shows at once; its fetcher's pending move takes over, and the reloaded board after it.
  const [drops, setDrops] = useState<BoardMove[]>([]);
  useEffect(() => setDrops([]), [loaderData]);
  const pending = fetchers.map((fetcher) => moveOf(fetcher.formData)).filter((move) => move !== null);
  const moves = [...pending, ...drops.filter((drop) => !pending.some((move) => sameMove(move, drop)))];
  const movesKey = JSON.stringify(moves);
  // `moves` is a new array every render; `movesKey` is what it holds.
  const columns = useMemo(() => moves.reduce<Column[]>(applyMove, loaderData.columns), [loaderData.columns, movesKey]);
  // A refused move: from a form without JavaScript (the page's answer) or from a fetcher.
  const refusal = actionData?.refusal ?? fetchers.map((fetcher) => (fetcher.data as { refusal?: string } | undefined)?.refusal).find(Boolean);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  const where = (id: string | number | undefined): { status: Status; index: number } | null => {
    const column = columns.find((c) => columnDropId(c.status) === id);
    if (column) return { status: column.status, index: column.cards.length };
    for (const c of columns) {
      const index = c.cards.findIndex((card) => card.id === id);
      if (index >= 0) return { status: c.status, index };
    }
    return null;
  };
  const keyOf = (id: string | number) => issueKey(projectKey, columns.flatMap((c) => c.cards).find((c) => c.id === id)?.number ?? 0);
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${keyOf(active.id)}.`,
    onDragOver: ({ active, over }) => {
      const target = where(over?.id);
      return target ? `${keyOf(active.id)} is over ${statusLabels[target.status]}, position ${target.index + 1}.` : `${keyOf(active.id)} is not over a column.`;
    },
    onDragEnd: ({ active, over }) => {
      const target = where(over?.id);
      return target ? `${keyOf(active.id)} was moved to ${statusLabels[target.status]}, position ${target.index + 1}.` : `${keyOf(active.id)} was dropped where it was.`;
    },
    onDragCancel: ({ active }) => `Moving ${keyOf(active.id)} was cancelled.`,
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    const from = where(active.id);
    const to = where(over?.id);
    if (!from || !to || (from.status === to.status && from.index === to.index)) return;
    const move: BoardMove = { issueId: Number(active.id), status: to.status, position: to.index };
    setDrops((earlier) => [...earlier, move]);
    submit({ intent: "move", ...move }, { method: "post", navigate: false, fetcherKey: moveFetcherKey(move.issueId) });
  }

  const total = loaderData.columns.reduce((sum, column) => sum + column.total, 0);
  return (
    // Fills the height under the header; the board scrolls sideways in its own area, each column up and down in its own.
    <div className="flex h-[calc(100dvh-3rem)] flex-col">
      <IssueFilterBar filters={filters} members={loaderData.members} labels={loaderData.labels} total={total} sortable={false} />
      {refusal ? (
        <p role="alert" className="mx-4 mt-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 md:mx-6 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {refusal}
        </p>
      ) : null}
      {total === 0 ? <EmptyBoard filtered={filtered} canWrite={canWrite} issuesPath={issuesPath} /> : null}
      <DndContext
        id="board"
        sensors={sensors}
        collisionDetection={cardUnderPointerFirst}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: "To move a card, press space or enter, use the arrow keys to move it, then press space or enter again to drop it, or escape to cancel." },
        }}
      >
        <div role="group" aria-label="Board" className="relative flex min-h-0 flex-1 items-start gap-3 overflow-x-auto px-4 pt-3 pb-3 md:px-6">
          {columns.map((column) => (
            <BoardColumn
              key={column.status}
              column={column}
              shown={shown[column.status] ?? column.cards.length}
              projectKey={projectKey}
              issuesPath={issuesPath}
              canWrite={canWrite}
              filtered={filtered}
            />
          ))}
        </div>
      </DndContext>
    </div>
  );
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
