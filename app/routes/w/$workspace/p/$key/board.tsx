import {
  type Announcements,
  closestCorners,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useEffect, useState } from "react";
import { data, Form, Link, redirect, useFetcher, useLocation } from "react-router";
import { z } from "zod";
import { requireProject } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { PriorityText } from "~/components/issue-bits";
import { LabelChip } from "~/components/label-chip";
import { idField } from "~/forms/fields.server";
import { parseForm } from "~/forms/parse-form.server";
import { appContext } from "~/host/app-context.server";
import { boardColumnLimit, type BoardCard, loadBoard, moveIssue } from "~/issues/board.server";
import { issueKey, type Status, statuses, statusLabels } from "~/issues/issue-fields";
import { parseIssueFilters, refusedQueryMessage } from "~/issues/issue-list.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/board";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace, project } = await requireProject(args);
  const filters = parseIssueFilters(args.url.searchParams);
  if (filters.refusedQuery) throw data(refusedQueryMessage(filters.refusedQuery), { status: 400 });
  return {
    columns: await loadBoard(args.context.get(appContext).db, project.id, filters, user.id),
    canWrite: can(workspace.role, "issues:write") && !project.archived_at,
    columnLimit: boardColumnLimit,
  };
}

const moveSchema = z.object({
  intent: z.literal("move"),
  issueId: idField,
  status: z.enum(statuses, { error: "Choose a column." }),
  position: z.coerce.number({ error: "Choose a position." }).int().min(0).max(1_000_000),
});

/** intent=move: a card to a column and a 0-based position in it (drag and drop, or the card's forms). */
export async function action(args: Route.ActionArgs) {
  const { user, workspace, project } = await requireProject(args, "issues:write");
  const submission = await parseForm(args.request, moveSchema);
  if (submission.status !== "success") return data({ refusal: "That move was not valid." }, { status: 400 });
  const moved = await moveIssue(args.context.get(appContext).db, { ...submission.value, projectId: project.id, workspaceId: workspace.id, actorId: user.id, now: new Date() });
  if (!moved.ok) throw data(moved.message, { status: moved.status });
  return redirect(args.url.pathname + args.url.search);
}

type Column = Route.ComponentProps["loaderData"]["columns"][number];

/** The board after moving a card, as the server will order it: shown at once, reconciled by the reload. */
function moved(columns: Column[], cardId: number, status: Status, position: number): Column[] {
  const card = columns.flatMap((c) => c.cards).find((c) => c.id === cardId);
  if (!card) return columns;
  return columns.map((column) => {
    const cards = column.cards.filter((c) => c.id !== cardId);
    const left = cards.length < column.cards.length;
    const arrived = column.status === status;
    if (arrived) cards.splice(position, 0, card);
    return { ...column, cards, total: column.total + (arrived ? 1 : 0) - (left ? 1 : 0) };
  });
}

export default function BoardPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const { canWrite } = loaderData;
  const projectKey = (params.key ?? "").toUpperCase();
  const fetcher = useFetcher<{ refusal?: string }>();
  // A refused drag (fetcher) or a refused move from a card's buttons (a form, with or without JavaScript).
  const refusal = actionData?.refusal ?? fetcher.data?.refusal;
  const [optimistic, setOptimistic] = useState<Column[] | null>(null);
  // Fresh data from the server replaces the optimistic picture.
  useEffect(() => setOptimistic(null), [loaderData]);
  const columns = optimistic ?? loaderData.columns;
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  const where = (id: string | number | undefined): { status: Status; index: number } | null => {
    if (typeof id === "string" && id.startsWith("column-")) {
      const status = id.slice("column-".length) as Status;
      return { status, index: columns.find((c) => c.status === status)?.cards.length ?? 0 };
    }
    for (const column of columns) {
      const index = column.cards.findIndex((card) => card.id === id);
      if (index >= 0) return { status: column.status, index };
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
    const issueId = Number(active.id);
    setOptimistic(moved(columns, issueId, to.status, to.index));
    fetcher.submit({ intent: "move", issueId, status: to.status, position: to.index }, { method: "post" });
  }

  return (
    <div>
      {refusal ? (
        <p role="alert" className="mb-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {refusal}
        </p>
      ) : null}
      <DndContext
        id="board"
        sensors={sensors}
        collisionDetection={closestCorners}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: "To move a card, press space or enter, use the arrow keys to move it, then press space or enter again to drop it, or escape to cancel." },
        }}
      >
        <div className="grid auto-cols-[minmax(14rem,1fr)] grid-flow-col gap-3 overflow-x-auto pb-4">
          {columns.map((column) => (
            <BoardColumn key={column.status} column={column} projectKey={projectKey} canWrite={canWrite} limit={loaderData.columnLimit} />
          ))}
        </div>
      </DndContext>
    </div>
  );
}

function BoardColumn({ column, projectKey, canWrite, limit }: { column: Column; projectKey: string; canWrite: boolean; limit: number }) {
  const { setNodeRef, isOver } = useDroppable({ id: `column-${column.status}`, disabled: !canWrite });
  const titleId = `column-title-${column.status}`;
  return (
    <section aria-labelledby={titleId} className={`rounded bg-zinc-50 p-2 dark:bg-zinc-900 ${isOver ? "ring-2 ring-indigo-400" : ""}`}>
      <h2 id={titleId} className="mb-2 flex items-baseline justify-between px-1 text-sm font-semibold">
        {statusLabels[column.status]} <span className="font-normal text-zinc-600 dark:text-zinc-400">{column.total}</span>
      </h2>
      <SortableContext id={column.status} items={column.cards.map((card) => card.id)} strategy={verticalListSortingStrategy}>
        <ol ref={setNodeRef} className="min-h-16 space-y-2">
          {column.cards.map((card, index) => (
            <BoardCardItem key={card.id} card={card} status={column.status} index={index} last={index === column.cards.length - 1} projectKey={projectKey} canWrite={canWrite} />
          ))}
        </ol>
      </SortableContext>
      {column.total > limit ? (
        <p className="mt-2 px-1 text-xs text-zinc-600 dark:text-zinc-400">
          Showing {limit} of {column.total}. Filter to see others.
        </p>
      ) : null}
    </section>
  );
}

function BoardCardItem({ card, status, index, last, projectKey, canWrite }: { card: BoardCard; status: Status; index: number; last: boolean; projectKey: string; canWrite: boolean }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: card.id, disabled: !canWrite });
  const location = useLocation();
  const key = issueKey(projectKey, card.number);
  const issuesBase = location.pathname.replace(/\/board$/, "/issues");
  return (
    <li
      ref={setNodeRef}
      aria-label={`${key} ${card.title}`}
      // dnd-kit positions the card while it is dragged; no inline style otherwise (CSP: style-src 'self').
      style={transform ? { transform: CSS.Transform.toString(transform), transition } : undefined}
      className={`rounded border border-zinc-200 bg-white p-2 text-sm shadow-sm dark:border-zinc-700 dark:bg-zinc-950 ${isDragging ? "opacity-60" : ""}`}
    >
      <div className="flex items-start justify-between gap-2">
        <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{key}</span>
        {canWrite ? (
          <button type="button" {...attributes} {...listeners} aria-label={`Drag ${key}`} className="cursor-grab rounded px-1 text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800">
            ⠿
          </button>
        ) : null}
      </div>
      <Link to={`${issuesBase}/${card.number}`} className="mt-1 block font-medium hover:underline">
        {card.title}
      </Link>
      <div className="mt-1 flex flex-wrap items-center gap-1 text-xs">
        <PriorityText priority={card.priority} />
        {card.assigneeName ? <span>· {card.assigneeName}</span> : null}
        {card.labels.map((label) => (
          <LabelChip key={label.id} name={label.name} color={label.color} />
        ))}
      </div>
      {canWrite ? (
        <div className="mt-2 flex flex-wrap items-center gap-1 text-xs">
          <Form method="post" className="flex items-center gap-1">
            <input type="hidden" name="intent" value="move" />
            <input type="hidden" name="issueId" value={card.id} />
            <input type="hidden" name="position" value={1_000_000} />
            <label className="sr-only" htmlFor={`move-${card.id}`}>
              Move {key} to
            </label>
            <select id={`move-${card.id}`} name="status" defaultValue={status} className="rounded border border-zinc-300 bg-white px-1 py-0.5 dark:border-zinc-700 dark:bg-zinc-900">
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {statusLabels[s]}
                </option>
              ))}
            </select>
            <button type="submit" className="rounded border border-zinc-300 px-1 dark:border-zinc-700">
              Move to<span className="sr-only"> the chosen column: {key}</span>
            </button>
          </Form>
          {index > 0 ? <MoveButton card={card} status={status} position={index - 1} label="Move up" issueKey={key} /> : null}
          {!last ? <MoveButton card={card} status={status} position={index + 1} label="Move down" issueKey={key} /> : null}
        </div>
      ) : null}
    </li>
  );
}

function MoveButton({ card, status, position, label, issueKey: key }: { card: BoardCard; status: Status; position: number; label: string; issueKey: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="issueId" value={card.id} />
      <input type="hidden" name="status" value={status} />
      <input type="hidden" name="position" value={position} />
      <button type="submit" className="rounded border border-zinc-300 px-1 dark:border-zinc-700">
        {label}
        <span className="sr-only"> {key}</span>
      </button>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
