import {
  type Announcements,
  type CollisionDetection,
  closestCorners,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { memo, useMemo } from "react";
import type { BoardCard } from "~/issues/board-cards";
import { issueKey, type Status, statusLabels } from "~/issues/issue-fields";
import { BoardCardItem, type CardProps, useHydrated } from "./board-card";
import { BoardColumn, type BoardColumnData, type BoardShared, cardProps, columnDropId } from "./board-column";
import type { BoardMove } from "./board-moves";

/**
 * What a dragged card is over: the card under the pointer, if there is one (a column's own area
 * is large and would often win on distance); else, and always with the keyboard, the nearest card
 * or column.
 */
const cardUnderPointerFirst: CollisionDetection = (args) => {
  const cards = pointerWithin({ ...args, droppableContainers: args.droppableContainers.filter((droppable) => typeof droppable.id === "number") });
  return cards.length ? cards : closestCorners(args);
};

export type DndBoardProps = {
  columns: BoardColumnData[];
  shared: BoardShared;
  /** A card dropped somewhere else than where it was. */
  onMove: (move: BoardMove) => void;
};

/**
 * The board's columns with drag and drop (dnd-kit), by pointer and by keyboard, announced to screen
 * readers. Its own chunk, loaded by board.tsx next to the page rather than before it: the board is
 * whole and usable without it (links, ⋯ menus), and it hydrates in place once it has arrived.
 */
export default memo(function DndBoard({ columns, shared, onMove }: DndBoardProps) {
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
  const keyOf = (id: string | number) => issueKey(shared.projectKey, columns.flatMap((c) => c.cards).find((c) => c.id === id)?.number ?? 0);
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
    onMove({ issueId: Number(active.id), status: to.status, position: to.index });
  }

  return (
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
      {columns.map((column) => (
        <DndColumn key={column.status} column={column} shared={shared} />
      ))}
    </DndContext>
  );
});

/** A column that cards can be dropped on, its cards sortable. */
function DndColumn({ column, shared }: { column: BoardColumnData; shared: BoardShared }) {
  const { setNodeRef, isOver } = useDroppable({ id: columnDropId(column.status), disabled: !shared.canWrite });
  const ids = useMemo(() => column.cards.map((card) => card.id), [column.cards]);
  return (
    <BoardColumn column={column} shared={shared} areaRef={setNodeRef} isOver={isOver}>
      <SortableContext id={column.status} items={ids} strategy={verticalListSortingStrategy}>
        <ol>
          {column.cards.map((card, index) => (
            <SortableCard key={card.id} {...cardProps(column, card, index, shared)} />
          ))}
        </ol>
      </SortableContext>
    </BoardColumn>
  );
}

/** A card with its drag handle, which exists once JavaScript runs. */
function SortableCard(props: CardProps & { card: BoardCard; projectKey: string }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: props.card.id, disabled: !props.canWrite });
  const hydrated = useHydrated();
  const key = issueKey(props.projectKey, props.card.number);
  const handle =
    props.canWrite && hydrated ? (
      <button type="button" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Drag ${key}`} className="card-button card-handle">
        <span aria-hidden="true">⠿</span>
      </button>
    ) : null;
  return (
    <BoardCardItem
      {...props}
      drag={{ ref: setNodeRef, style: transform ? { transform: CSS.Transform.toString(transform), transition } : undefined, dragging: isDragging, handle }}
    />
  );
}
