import { type CSSProperties, memo, type ReactNode, type Ref, useSyncExternalStore } from "react";
import type { BoardCard } from "~/issues/board-cards";
import { issueKey, priorityLabels, type Status, statuses, statusLabels } from "~/issues/issue-fields";
import { Avatar } from "./avatar";
import { moveFetcherKey } from "./board-moves";
import { StatusIcon } from "./icons/status-icon";
import { PriorityIcon } from "./icons/priority-icon";
import { LabelChip } from "./label-chip";
import { BlockedMarker, ProgressMarker } from "./link-markers";
import { ChoiceForm, OnDemandMenu } from "./menu";

/** A card's place, as its menu needs it: its column, its index among the shown cards, and the column's total. */
export type CardPlace = { status: Status; index: number; total: number };

/** "Move to …" with no position: the end of the column (the server takes a position past the end as the end). */
const endOfColumn = 1_000_000;

/** The element id of a card, where a move without JavaScript comes back to (`#card-WEB-3`). */
export const cardElementId = (key: string) => `card-${key}`;

const subscribeToNothing = () => () => {};
/** False on the server and while hydrating, true once React runs the page. */
export const useHydrated = () => useSyncExternalStore(subscribeToNothing, () => true, () => false);

/** What the board's drag and drop (board-dnd.tsx, once it has loaded) adds to a card. */
export type CardDrag = { ref?: Ref<HTMLLIElement>; style?: CSSProperties; dragging?: boolean; handle?: ReactNode };

/** Plain values only, so that the memoised body sees the same props on every drag frame. */
export type CardProps = CardPlace & {
  card: BoardCard;
  issuesPath: string;
  canWrite: boolean;
};

/**
 * One card of the board (DESIGN.md §3 "Board"): its key, its title on at most two lines, then its
 * priority, labels and assignee on one line. A board has hundreds of them, and each byte counts
 * hundreds of times: short component classes (app/styles/board.css), glyphs as text (⋯, ⠿), no
 * menu until one is opened, no drag handle until JavaScript runs (without it, the ⋯ menu moves
 * the card). What the card holds is memoised, so a drag re-renders hundreds of small shells, not
 * hundreds of cards.
 */
export function BoardCardItem({ card, projectKey, drag, ...props }: CardProps & { projectKey: string; drag?: CardDrag }) {
  const key = issueKey(projectKey, card.number);
  return (
    // dnd-kit positions the card while it is dragged; no inline style otherwise (CSP: style-src 'self').
    <li ref={drag?.ref} id={cardElementId(key)} style={drag?.style} className={drag?.dragging ? "card is-dragging" : "card"}>
      {/* First in the tab order, as on screen: the handle, the ⋯ menu, the title. */}
      {drag?.handle}
      <CardBody card={card} issueKey={key} {...props} />
    </li>
  );
}

const CardBody = memo(function CardBody({ card, issueKey: key, status, index, total, issuesPath, canWrite }: CardProps & { issueKey: string }) {
  const priority = `Priority: ${priorityLabels[card.priority]}`;
  const hiddenLabels = card.labels.length - 2;
  return (
    <>
      <div className="card-head">
        <span>{key}</span>
        {canWrite ? <CardMenu card={card} issueKey={key} place={{ status, index, total }} /> : null}
      </div>
      {/* A plain link, followed in the browser by the board's one click handler (board.tsx): a <Link> resolves its path on every render, and the board has hundreds. */}
      <a href={`${issuesPath}/${card.number}`} className="card-title">
        {card.title}
      </a>
      <div className="card-meta">
        {/* Named by its title alone (a tooltip too): no second copy of the words for screen readers. */}
        <span role="img" title={priority}>
          <PriorityIcon priority={card.priority} />
        </span>
        {card.blocked ? <BlockedMarker /> : null}
        {card.progress ? <ProgressMarker progress={card.progress} /> : null}
        {card.labels.length ? (
          <span className="card-labels">
            {card.labels.slice(0, 2).map((label) => (
              <LabelChip key={label.id} name={label.name} color={label.color} />
            ))}
            {hiddenLabels > 0 ? (
              <span className="card-more-labels" title={card.labels.slice(2).map((l) => l.name).join(", ")}>
                +{hiddenLabels}
              </span>
            ) : null}
          </span>
        ) : null}
        {card.assignee ? <Avatar user={card.assignee} /> : null}
      </div>
    </>
  );
});

/**
 * The card's "⋯" menu (DESIGN.md §3): "Move to <status>", then "Move to top", "Move up", "Move
 * down" — the way to move a card without JavaScript, and a keyboard's other way. Rendered only when
 * opened (an OnDemandMenu: a `?menu=card-<number>` link), so a board of hundreds of cards carries no forms.
 */
function CardMenu({ card, issueKey: key, place }: { card: BoardCard; issueKey: string; place: CardPlace }) {
  const hydrated = useHydrated();
  const fetcherKey = moveFetcherKey(card.id);
  const orderChoices = [
    ...(place.index > 0 ? [{ value: "0", label: "Move to top" }, { value: String(place.index - 1), label: "Move up" }] : []),
    ...(place.index < place.total - 1 ? [{ value: String(place.index + 1), label: "Move down" }] : []),
  ];
  return (
    <OnDemandMenu menuId={`card-${card.number}`} label={`Move ${key}`} triggerClassName="card-button" trigger="⋯">
      {({ close, returnTo }) => {
        // Without JavaScript the answer is a new page: back to the board, scrolled to the card. A
        // fetcher wants no redirect — its form is gone once the menu closes, and React Router
        // follows no redirect for a fetcher no longer on the page; it reloads the board itself.
        const back: Record<string, string> = hydrated ? {} : { returnTo: `${returnTo}#${cardElementId(key)}` };
        return (
          <>
            {hydrated ? null : (
              // Without JavaScript the menu opens with the page: its first line names the card it moves.
              <p className="truncate px-2 pt-1 text-xs text-zinc-600 dark:text-zinc-400">{card.title}</p>
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
  );
}
