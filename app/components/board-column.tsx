import type { ReactNode, Ref } from "react";
import { Link, useLocation } from "react-router";
import type { BoardCard } from "~/issues/board-cards";
import { boardColumnCap, boardPageSize } from "~/issues/board-limits";
import { issueKey, type Status, statusLabels } from "~/issues/issue-fields";
import { BoardCardItem, cardElementId, type CardProps } from "./board-card";
import { StatusIcon } from "./icons/status-icon";
import { InTurn } from "./render-turns";

/** A column as the board shows it: `shown` is how many cards the server sent (the cards on screen may differ while a move is on its way). */
export type BoardColumnData = { status: Status; total: number; shown: number; cards: BoardCard[] };

/** What every column and card of one board shares; `room`: the cards the board may still add before its cap. */
export type BoardShared = { projectKey: string; issuesPath: string; canWrite: boolean; filtered: boolean; room: number };

/** The droppable id of a column (a card's id is its issue's id). */
export const columnDropId = (status: Status) => `column-${status}`;

/** The props of the card at `index` of `column`. */
export const cardProps = (column: BoardColumnData, card: BoardCard, index: number, shared: BoardShared): CardProps & { projectKey: string } => ({
  card,
  status: column.status,
  index,
  total: column.total,
  issuesPath: shared.issuesPath,
  projectKey: shared.projectKey,
  canWrite: shared.canWrite,
});

/**
 * One status of the board: a 280 px column with its header (icon, name, count), its cards in their
 * own vertical scroll, and "Show N more" — a GET link (`show.<status>=…`), so it works without
 * JavaScript — until the column's cap or the board's, past which a link to the list (filtered to
 * this status, a page at a time) shows the rest. `children` are its cards (an `<ol>`); the drag and
 * drop layer gives the scrolling area its `areaRef` and says when a card is over it.
 */
export function BoardColumn({
  column,
  shared,
  areaRef,
  isOver = false,
  children,
}: {
  column: BoardColumnData;
  shared: BoardShared;
  areaRef?: Ref<HTMLDivElement>;
  isOver?: boolean;
  children: ReactNode;
}) {
  const location = useLocation();
  const titleId = `column-title-${column.status}`;
  const label = statusLabels[column.status];
  const { shown } = column;
  const more = Math.min(boardPageSize, column.total - shown, boardColumnCap - shown, shared.room);
  const last = column.cards.at(-1);

  const moreHref = () => {
    const params = new URLSearchParams(location.search);
    params.delete("menu");
    params.set(`show.${column.status}`, String(shown + more));
    // Back to the last card shown so far: the new ones follow it (without JavaScript the page is new).
    return `${location.pathname}?${params}${last ? `#${cardElementId(issueKey(shared.projectKey, last.number))}` : ""}`;
  };
  const listHref = () => {
    const params = new URLSearchParams(location.search);
    for (const name of [...params.keys()]) if (name === "menu" || name === "status" || name.startsWith("show.")) params.delete(name);
    params.set("status", column.status);
    return `${shared.issuesPath}?${params}`;
  };

  return (
    <section aria-labelledby={titleId} className="board-column">
      <h2 id={titleId}>
        <StatusIcon status={column.status} />
        {label} <span>{column.total}</span>
      </h2>
      <div ref={areaRef} className={isOver ? "board-cards is-over" : "board-cards"}>
        {children}
        {column.cards.length === 0 ? <p className="board-empty">{shared.filtered ? "No matching issues." : "No issues."}</p> : null}
        {more > 0 ? (
          <Link to={moreHref()} preventScrollReset className="board-more">
            Show {more} more<span className="sr-only"> in {label}</span>
          </Link>
        ) : column.total > shown ? (
          <Link to={listHref()} className="board-more">
            See all {column.total} in the list<span className="sr-only">: {label}</span>
          </Link>
        ) : null}
      </div>
    </section>
  );
}

/**
 * The columns without drag and drop: what the server renders, and what a client-side visit shows
 * for the moment before the drag and drop layer's code has arrived (a page from the server shows
 * its own markup meanwhile). The same markup as that layer's, so nothing moves when it takes over.
 */
export function StaticBoardColumns({ columns, shared }: { columns: BoardColumnData[]; shared: BoardShared }) {
  return columns.map((column) => (
    <BoardColumn key={column.status} column={column} shared={shared}>
      <ol>
        {/* On the server, a page of cards at a time, other requests answered in between (decision record 027). */}
        {pagesOf(column.cards).map((cards, page) => (
          <InTurn key={page} part={`${column.status}.${page}`}>
            {cards.map((card, index) => (
              <BoardCardItem key={card.id} {...cardProps(column, card, page * boardPageSize + index, shared)} />
            ))}
          </InTurn>
        ))}
      </ol>
    </BoardColumn>
  ));
}

/** Cards in pages of `boardPageSize`. */
const pagesOf = (cards: BoardCard[]) => Array.from({ length: Math.ceil(cards.length / boardPageSize) }, (_, page) => cards.slice(page * boardPageSize, (page + 1) * boardPageSize));
