import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { memo, useSyncExternalStore } from "react";
import { Link } from "react-router";
import type { BoardCard } from "~/issues/board.server";
import { issueKey, priorityLabels, type Status, statuses, statusLabels } from "~/issues/issue-fields";
import { Avatar } from "./avatar";
import { moveFetcherKey } from "./board-moves";
import { StatusIcon } from "./icons/status-icon";
import { PriorityIcon } from "./icons/priority-icon";
import { LabelChip } from "./label-chip";
import { ChoiceForm, OnDemandMenu } from "./menu";

/** A card's place, as its menu needs it: its column, its index among the shown cards, and the column's total. */
export type CardPlace = { status: Status; index: number; total: number };

/** "Move to …" with no position: the end of the column (the server takes a position past the end as the end). */
const endOfColumn = 1_000_000;

/** The element id of a card, where a move without JavaScript comes back to (`#card-WEB-3`). */
export const cardElementId = (key: string) => `card-${key}`;

const subscribeToNothing = () => () => {};
/** False on the server and while hydrating, true once React runs the page. */
const useHydrated = () => useSyncExternalStore(subscribeToNothing, () => true, () => false);

/**
 * One card of the board (DESIGN.md §3 "Board"): its key, its title on at most two lines, then its
 * priority, labels and assignee on one line. The sortable shell re-renders on every drag; what it
 * holds is memoised, so a drag start re-renders hundreds of small shells, not hundreds of cards.
 * The drag handle exists once JavaScript runs (without it, the ⋯ menu moves the card). Glyphs
 * are text (⠿, ⋯) rather than SVG: a board has hundreds of cards, and every byte counts hundreds of times.
 */
export function SortableBoardCard({ card, projectKey, ...props }: CardProps & { projectKey: string }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: card.id, disabled: !props.canWrite });
  const key = issueKey(projectKey, card.number);
  const hydrated = useHydrated();
  return (
    <li
      ref={setNodeRef}
      id={cardElementId(key)}
      aria-label={`${key} ${card.title}`}
      // dnd-kit positions the card while it is dragged; no inline style otherwise (CSP: style-src 'self').
      style={transform ? { transform: CSS.Transform.toString(transform), transition } : undefined}
      className={`relative scroll-mt-2 rounded-md border border-zinc-200 bg-white px-2.5 py-1.5 shadow-xs dark:border-zinc-800 dark:bg-zinc-900${isDragging ? " z-10 opacity-60" : ""}`}
    >
      {/* First in the tab order, as on screen: the handle, the ⋯ menu, the title. */}
      {props.canWrite && hydrated ? (
        <button type="button" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Drag ${key}`} className={`absolute top-1.5 right-9 cursor-grab touch-none ${glyphButtonClass}`}>
          <span aria-hidden="true">⠿</span>
        </button>
      ) : null}
      <CardBody card={card} issueKey={key} {...props} />
    </li>
  );
}

const glyphButtonClass = "flex size-6 items-center justify-center rounded text-zinc-600 hover:bg-zinc-200/70 dark:text-zinc-400 dark:hover:bg-zinc-800";

/** Plain values only, so that the memoised body sees the same props on every drag frame. */
type CardProps = CardPlace & { card: BoardCard; issuesPath: string; canWrite: boolean };

const CardBody = memo(function CardBody({ card, issueKey: key, status, index, total, issuesPath, canWrite }: CardProps & { issueKey: string }) {
  const shownLabels = card.labels.slice(0, 2);
  const hiddenLabels = card.labels.length - shownLabels.length;
  return (
    <>
      <div className="flex h-6 items-center justify-between gap-2">
        <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{key}</span>
        {canWrite ? <CardMenu card={card} issueKey={key} place={{ status, index, total }} /> : null}
      </div>
      <Link to={`${issuesPath}/${card.number}`} className="line-clamp-2 text-sm leading-5 font-medium break-words hover:underline">
        {card.title}
      </Link>
      <div className="mt-1 flex h-5 items-center gap-1.5">
        <span title={`Priority: ${priorityLabels[card.priority]}`} className="inline-flex">
          <PriorityIcon priority={card.priority} />
          <span className="sr-only">Priority: {priorityLabels[card.priority]}</span>
        </span>
        <span className="flex min-w-0 flex-1 items-center gap-1 overflow-hidden">
          {shownLabels.map((label) => (
            <LabelChip key={label.id} name={label.name} color={label.color} />
          ))}
          {hiddenLabels > 0 ? (
            <span className="shrink-0 text-xs text-zinc-600 dark:text-zinc-400" title={card.labels.slice(2).map((l) => l.name).join(", ")}>
              +{hiddenLabels}
            </span>
          ) : null}
        </span>
        {card.assignee ? <Avatar user={card.assignee} /> : null}
      </div>
    </>
  );
});

/**
 * The card's "⋯" menu (DESIGN.md §3): "Move to <status>", then "Move to top", "Move up", "Move
 * down" — the way to move a card without JavaScript, and a keyboard's other way. Rendered only when
 * opened (an OnDemandMenu), so a board of hundreds of cards carries no forms.
 */
function CardMenu({ card, issueKey: key, place }: { card: BoardCard; issueKey: string; place: CardPlace }) {
  const hydrated = useHydrated();
  const fetcherKey = moveFetcherKey(card.id);
  const orderChoices = [
    ...(place.index > 0 ? [{ value: "0", label: "Move to top" }, { value: String(place.index - 1), label: "Move up" }] : []),
    ...(place.index < place.total - 1 ? [{ value: String(place.index + 1), label: "Move down" }] : []),
  ];
  return (
    // Opened without JavaScript, the menu is a panel inside the column's scrolling area: aligned to
    // the trigger's right and no wider than a card, it stays within the column.
    <span className="-mr-1 [&_[role=group]]:right-0 [&_[role=group]]:left-auto [&_[role=group]]:max-w-64">
      <OnDemandMenu
        menuId={`card-${card.number}`}
        label={`Move ${key}`}
        triggerClassName={glyphButtonClass}
        trigger={<span aria-hidden="true">⋯</span>}
      >
        {({ close, returnTo }) => {
          // Without JavaScript the answer is a new page: back to the board, scrolled to the card. A
          // fetcher wants no redirect — its form is gone once the menu closes, and React Router
          // follows no redirect for a fetcher no longer on the page; it reloads the board itself.
          const back: Record<string, string> = hydrated ? {} : { returnTo: `${returnTo}#${cardElementId(key)}` };
          return (
            <>
              {hydrated ? null : (
                // The page opens with this menu: focusing it scrolls the card's column to it.
                <p tabIndex={-1} autoFocus className="truncate px-2 pt-1 text-xs text-zinc-600 outline-none dark:text-zinc-400">
                  {card.title}
                </p>
              )}
              <ChoiceForm
                fetcherKey={fetcherKey}
                title={`Move ${key} to`}
                name="status"
                current={place.status}
                choices={statuses
                  .filter((status) => status !== place.status)
                  .map((status) => ({ value: status, label: statusLabels[status], icon: <StatusIcon status={status} /> }))}
                hidden={{ intent: "move", issueId: card.id, position: endOfColumn, ...back }}
                onSubmitted={close}
              />
              {orderChoices.length ? (
                <div className="mt-1 border-t border-zinc-200 pt-1 dark:border-zinc-700">
                  <ChoiceForm
                    fetcherKey={fetcherKey}
                    title={`Order in ${statusLabels[place.status]}`}
                    name="position"
                    current=""
                    choices={orderChoices}
                    hidden={{ intent: "move", issueId: card.id, status: place.status, ...back }}
                    onSubmitted={close}
                  />
                </div>
              ) : null}
            </>
          );
        }}
      </OnDemandMenu>
    </span>
  );
}
