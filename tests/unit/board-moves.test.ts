/**
 * The board's optimistic moves (app/components/board-moves.ts): what a pending move shows before the
 * server answers must be what the server will order (tests/integration/board.test.ts checks the
 * server), including a column that shows only its first cards.
 */
import { describe, expect, it } from "vitest";
import { applyMove, moveOf } from "~/components/board-moves";
import type { Status } from "~/issues/issue-fields";

type Column = { status: Status; total: number; cards: { id: number }[] };
const column = (status: Status, ids: number[], total = ids.length): Column => ({ status, total, cards: ids.map((id) => ({ id })) });
const shown = (columns: Column[]) => Object.fromEntries(columns.map((c) => [c.status, [c.total, c.cards.map((card) => card.id)]]));

describe("applyMove", () => {
  const board = [column("todo", [1, 2, 3, 4]), column("in_progress", [5]), column("done", [])];

  it("moves within a column as the server does (the position counts without the card)", () => {
    expect(shown(applyMove(board, { issueId: 1, status: "todo", position: 1 })).todo).toEqual([4, [2, 1, 3, 4]]);
    expect(shown(applyMove(board, { issueId: 4, status: "todo", position: 0 })).todo).toEqual([4, [4, 1, 2, 3]]);
    expect(shown(applyMove(board, { issueId: 2, status: "todo", position: 1_000_000 })).todo).toEqual([4, [1, 3, 4, 2]]);
  });

  it("moves to another column, counts included, and leaves the board it was given alone", () => {
    const after = applyMove(board, { issueId: 2, status: "in_progress", position: 0 });
    expect(shown(after)).toEqual({ todo: [3, [1, 3, 4]], in_progress: [2, [2, 5]], done: [0, []] });
    expect(shown(applyMove(after, { issueId: 5, status: "done", position: 1_000_000 }))).toEqual({ todo: [3, [1, 3, 4]], in_progress: [1, [2]], done: [1, [5]] });
    expect(shown(board).todo).toEqual([4, [1, 2, 3, 4]]);
  });

  it("puts a card past the shown cards of a longer column out of sight, but counts it", () => {
    const partly = [column("todo", [1, 2], 60), column("done", [9])];
    expect(shown(applyMove(partly, { issueId: 9, status: "todo", position: 1_000_000 })).todo).toEqual([61, [1, 2]]);
    expect(shown(applyMove(partly, { issueId: 9, status: "todo", position: 1 })).todo).toEqual([61, [1, 9, 2]]);
  });

  it("ignores a card the board does not show, and a column it does not show", () => {
    expect(applyMove(board, { issueId: 99, status: "todo", position: 0 })).toBe(board);
    expect(shown(applyMove(board, { issueId: 5, status: "backlog", position: 0 }))).toEqual({ todo: [4, [1, 2, 3, 4]], in_progress: [0, []], done: [0, []] });
  });
});

describe("moveOf", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    return data;
  };

  it("reads a move's form, and nothing else", () => {
    expect(moveOf(form({ intent: "move", issueId: "7", status: "done", position: "2" }))).toEqual({ issueId: 7, status: "done", position: 2 });
    expect(moveOf(undefined)).toBeNull();
    expect(moveOf(form({ intent: "status", issueId: "7", status: "done", position: "2" }))).toBeNull();
    expect(moveOf(form({ intent: "move", issueId: "7", status: "someday", position: "2" }))).toBeNull();
    expect(moveOf(form({ intent: "move", issueId: "7", status: "done" }))).toBeNull();
  });
});
