import { useDroppable } from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useMemo } from "react";
import { Link, useLocation } from "react-router";
import type { BoardCard } from "~/issues/board.server";
import { boardColumnCap, boardPageSize } from "~/issues/board-limits";
import { issueKey, type Status, statusLabels } from "~/issues/issue-fields";
import { cardElementId, SortableBoardCard } from "./board-card";
import { StatusIcon } from "./icons/status-icon";

export type BoardColumnData = { status: Status; total: number; cards: BoardCard[] };

/** The droppable id of a column (a card's id is its issue's id). */
export const columnDropId = (status: Status) => `column-${status}`;

/**
 * One status of the board: a 280 px column with its header (icon, name, count), its cards in their
 * own vertical scroll, and "Show N more" — a GET link (`show.<status>=…`), so it works without
 * JavaScript — until the cap, past which the list shows the rest.
 */
export function BoardColumn({
  column,
  shown,
  projectKey,
  issuesPath,
  canWrite,
  filtered,
}: {
  column: BoardColumnData;
  /** How many cards the server was asked for (the cards on screen may differ while a move is on its way). */
  shown: number;
  projectKey: string;
  issuesPath: string;
  canWrite: boolean;
  filtered: boolean;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: columnDropId(column.status), disabled: !canWrite });
  const location = useLocation();
  const ids = useMemo(() => column.cards.map((card) => card.id), [column.cards]);
  const titleId = `column-title-${column.status}`;
  const label = statusLabels[column.status];
  const more = Math.min(boardPageSize, column.total - shown, boardColumnCap - shown);
  const last = column.cards.at(-1);

  const moreHref = () => {
    const params = new URLSearchParams(location.search);
    params.delete("menu");
    params.set(`show.${column.status}`, String(shown + more));
    // Back to the last card shown so far: the new ones follow it (without JavaScript the page is new).
    return `${location.pathname}?${params}${last ? `#${cardElementId(issueKey(projectKey, last.number))}` : ""}`;
  };
  const listHref = () => {
    const params = new URLSearchParams(location.search);
    for (const name of [...params.keys()]) if (name === "menu" || name === "status" || name.startsWith("show.")) params.delete(name);
    params.set("status", column.status);
    return `${issuesPath}?${params}`;
  };

  return (
    <section aria-labelledby={titleId} className="flex max-h-full w-[280px] shrink-0 flex-col rounded-lg bg-zinc-100/80 dark:bg-zinc-900/50">
      <h2 id={titleId} className="flex h-10 shrink-0 items-center gap-2 px-3 text-sm font-medium">
        <StatusIcon status={column.status} />
        {label} <span className="font-normal text-zinc-600 dark:text-zinc-400">{column.total}</span>
      </h2>
      <div ref={setNodeRef} className={`relative min-h-24 flex-1 overflow-y-auto rounded-b-lg px-2 pb-2 ${isOver ? "bg-indigo-50 dark:bg-indigo-950/40" : ""}`}>
        <SortableContext id={column.status} items={ids} strategy={verticalListSortingStrategy}>
          <ol className="space-y-2">
            {column.cards.map((card, index) => (
              <SortableBoardCard
                key={card.id}
                card={card}
                status={column.status}
                index={index}
                total={column.total}
                issuesPath={issuesPath}
                projectKey={projectKey}
                canWrite={canWrite}
              />
            ))}
          </ol>
        </SortableContext>
        {column.cards.length === 0 ? (
          <p className="rounded-md border border-dashed border-zinc-300 px-3 py-4 text-center text-[13px] text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            {filtered ? "No matching issues." : "No issues."}
          </p>
        ) : null}
        {more > 0 ? (
          <Link to={moreHref()} preventScrollReset className="mt-2 block rounded px-2 py-1.5 text-center text-[13px] text-zinc-700 hover:bg-zinc-200/70 dark:text-zinc-300 dark:hover:bg-zinc-800">
            Show {more} more<span className="sr-only"> in {label}</span>
          </Link>
        ) : column.total > shown && shown >= boardColumnCap ? (
          <Link to={listHref()} className="mt-2 block rounded px-2 py-1.5 text-center text-[13px] text-zinc-700 hover:bg-zinc-200/70 dark:text-zinc-300 dark:hover:bg-zinc-800">
            See all {column.total} in the list<span className="sr-only">: {label}</span>
          </Link>
        ) : null}
      </div>
    </section>
  );
}
