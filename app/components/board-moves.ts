import { type Status, statuses } from "~/issues/issue-fields";

/** A board move as its form posts it (docs/product.md, Form fields "board move"). */
export type BoardMove = { issueId: number; status: Status; position: number };

/** Every move of one card goes through one fetcher (its menu's and its drags'), so the board finds them all. */
export const moveFetcherKey = (issueId: number) => `board-move-${issueId}`;

/** The move a form carries, if it is one. */
export function moveOf(formData: FormData | undefined): BoardMove | null {
  if (formData?.get("intent") !== "move") return null;
  const status = formData.get("status");
  const [issueId, position] = ["issueId", "position"].map((name) => {
    const value = formData.get(name);
    return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : null;
  });
  if (!(statuses as readonly unknown[]).includes(status) || issueId == null || position == null) return null;
  return { issueId, status: status as Status, position };
}

type MovableColumn = { status: Status; total: number; cards: { id: number }[] };

/**
 * The board after a move, as the server will order it — shown at once, replaced by the server's
 * board when it comes. `position` counts among the cards shown: a card put below the last shown
 * one of a column that has more goes out of sight, as it will on the reloaded board.
 */
export function applyMove<Column extends MovableColumn>(columns: Column[], move: BoardMove): Column[] {
  const card = columns.flatMap((column) => column.cards).find((c) => c.id === move.issueId);
  if (!card) return columns;
  return columns.map((column) => {
    const cards = column.cards.filter((c) => c.id !== move.issueId);
    const left = cards.length < column.cards.length;
    const arrived = column.status === move.status;
    if (!left && !arrived) return column;
    const total = column.total + (arrived ? 1 : 0) - (left ? 1 : 0);
    const position = Math.max(0, move.position);
    // Past the shown cards: in sight only if the column shows all of its cards.
    if (arrived && (position < cards.length || cards.length === total - 1)) cards.splice(position, 0, card);
    return { ...column, cards, total };
  });
}
