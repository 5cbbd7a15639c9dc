import type { Priority } from "./issue-fields";
import type { LabelRef, PersonRef } from "./issue-refs";
import type { SubIssueProgress } from "./issue-links";

/**
 * What a card shows, and no more (it is in the page twice: in the markup and in the hydration
 * payload). Its labels and assignee are shared objects (issue-refs.ts).
 */
export type BoardCard = {
  id: number;
  number: number;
  title: string;
  priority: Priority;
  assignee: PersonRef | null;
  labels: LabelRef[];
  /** A parent's sub-issues done and in all; null for an issue without any. */
  progress: SubIssueProgress | null;
  /** An open issue blocks it. */
  blocked: boolean;
};

/**
 * A column's cards as the page's data carries them: one array per field, a card's values at the
 * same index. The hydration payload writes an object as its keys and values one by one (about 12
 * bytes a field); an array of plain values costs a few bytes each — 300 cards, some 15 KiB less.
 */
export type PackedCards = { [Field in keyof BoardCard]: BoardCard[Field][] };

export function packCards(cards: BoardCard[]): PackedCards {
  return {
    id: cards.map((card) => card.id),
    number: cards.map((card) => card.number),
    title: cards.map((card) => card.title),
    priority: cards.map((card) => card.priority),
    assignee: cards.map((card) => card.assignee),
    labels: cards.map((card) => card.labels),
    progress: cards.map((card) => card.progress),
    blocked: cards.map((card) => card.blocked),
  };
}

export function unpackCards(packed: PackedCards): BoardCard[] {
  return packed.id.map((id, index) => ({
    id,
    number: packed.number[index]!,
    title: packed.title[index]!,
    priority: packed.priority[index]!,
    assignee: packed.assignee[index] ?? null,
    labels: packed.labels[index] ?? [],
    progress: packed.progress[index] ?? null,
    blocked: packed.blocked[index] ?? false,
  }));
}
