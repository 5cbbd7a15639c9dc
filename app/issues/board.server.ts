import type { Database } from "~/db/database.server";
import type { Status } from "~/db/schema";
import { parsePositiveInteger } from "~/forms/fields.server";
import type { NotificationMail } from "~/notifications/notifications.server";
import { lockWorkspace } from "~/workspaces/members.server";
import type { BoardCard } from "./board-cards";
import { boardCardCap, boardColumnCap, boardPageSize } from "./board-limits";
import { isClosed, priorityOf, statuses } from "./issue-fields";
import { recordIssueEvent } from "./issue-events.server";
import { linkFlagsOfIssues } from "./issue-link-reads.server";
import { applyIssueFilters, type IssueFilters, parseIssueFilters } from "./issue-list.server";
import { type LabelRef, peopleOnce } from "./issue-refs";
import { issueNotFound, type NotFound, type ProjectScope } from "./write-scope.server";

const noFilters = parseIssueFilters(new URLSearchParams());

export type { BoardCard } from "./board-cards";

/** How many cards of a column are asked for: the `show.<status>` parameter, from one page to the column's cap. */
export function shownCount(params: URLSearchParams, status: Status): number {
  const asked = parsePositiveInteger(params.get(`show.${status}`)) ?? boardPageSize;
  return Math.min(Math.max(asked, boardPageSize), boardColumnCap);
}

/** The columns a board shows: every status, or those a status filter names. */
export const boardStatuses = (filters: Pick<IssueFilters, "statuses">): Status[] =>
  filters.statuses.length ? statuses.filter((status) => filters.statuses.includes(status)) : [...statuses];

/**
 * How many cards each column shows, the board's cap (`boardCardCap`) shared out: `wanted` is what
 * each column would show on its own (what it is asked for, at most its cap and what it has). Under
 * the cap everyone gets theirs; over it, the columns that want the least get theirs first and the
 * others share the rest equally — with six columns, every one at least 100, more than a first page.
 */
export function allotCards(wanted: number[], cap = boardCardCap): number[] {
  const allotted = [...wanted];
  let room = cap;
  let left = wanted.length;
  for (const index of wanted.map((_, i) => i).sort((a, b) => wanted[a]! - wanted[b]! || a - b)) {
    allotted[index] = Math.min(wanted[index]!, Math.floor(room / left));
    room -= allotted[index];
    left -= 1;
  }
  return allotted;
}

/**
 * One column per status (or per filtered status), cards in their board order, the list's filters
 * applied; each column its total and its first cards: as many as `asked[status]` (one page unless
 * asked), within the column's cap and the board's (`allotCards`), which is what one request renders.
 *
 * Three statements on both databases. First the count of each status (one grouped pass over the
 * index issues_project_board), which says how many cards each column gets; then the first cards of
 * each column — one `order by sort_order, id limit n` per status, each a short range of the same
 * index, put together with `union all` — and their assignees and labels; then the cards' sub-issue
 * progress and "blocked" flags (`linkFlagsOfIssues`). (A `row_number() over (partition by status …)`
 * ranks every issue of the project before it can keep 50 of a column: 8.7 ms at 3,500 issues on
 * SQLite against 0.7 ms for this, and it grows with the project.) `labels`, when given, are the
 * objects the cards share (the page's own list of the workspace's labels).
 */
export async function loadBoard(
  db: Database,
  projectId: number,
  filters: IssueFilters,
  meId: number,
  asked: Partial<Record<Status, number>> = {},
  labels: LabelRef[] = [],
): Promise<BoardColumn[]> {
  const columnStatuses = boardStatuses(filters);
  const scoped = (only: Status[]) => applyIssueFilters(db.selectFrom("issues"), projectId, { ...filters, statuses: only }, meId);
  const counts = await scoped(filters.statuses)
    .select(["issues.status", (eb) => eb.fn.countAll<number>().as("total")])
    .groupBy("issues.status")
    .execute();
  const totals = new Map(counts.map((row) => [row.status, Number(row.total)]));
  const total = (status: Status) => totals.get(status) ?? 0;
  const shown = allotCards(columnStatuses.map((status) => Math.min(asked[status] ?? boardPageSize, boardColumnCap, total(status))));
  const columns = new Map(columnStatuses.map((status, index) => [status, { status, total: total(status), shown: shown[index]!, cards: [] as BoardCard[] }]));
  const withCards = [...columns.values()].filter((column) => column.shown > 0);
  if (!withCards.length) return [...columns.values()];

  const firstCards = withCards
    .map((column, index) =>
      db
        .selectFrom(
          scoped([column.status])
            .select(["issues.id", "issues.status", "issues.number", "issues.title", "issues.priority", "issues.assignee_id", "issues.sort_order"])
            .orderBy("issues.sort_order")
            .orderBy("issues.id")
            .limit(column.shown)
            .as(`column${index}`),
        )
        .selectAll(),
    )
    .reduce((union, column) => union.unionAll(column));
  const rows = await db
    .selectFrom(firstCards.as("card"))
    .leftJoin("users as assignee", "assignee.id", "card.assignee_id")
    .leftJoin("issue_labels", "issue_labels.issue_id", "card.id")
    .leftJoin("labels", "labels.id", "issue_labels.label_id")
    .select([
      "card.status",
      "card.id",
      "card.number",
      "card.title",
      "card.priority",
      "assignee.id as assigneeId",
      "assignee.name as assigneeName",
      "labels.id as labelId",
      "labels.name as labelName",
      "labels.color as labelColor",
    ])
    .orderBy("card.sort_order")
    .orderBy("card.id")
    .orderBy("labels.name")
    .execute();

  const person = peopleOnce();
  const labelsById = new Map(labels.map((label) => [label.id, label]));
  let last: BoardCard | undefined;
  for (const row of rows) {
    if (last?.id !== row.id) {
      last = {
        id: row.id,
        number: row.number,
        title: row.title,
        priority: priorityOf(row.priority),
        assignee: person(row.assigneeId, row.assigneeName),
        labels: [],
        progress: null,
        blocked: false,
      };
      columns.get(row.status)!.cards.push(last);
    }
    if (row.labelId !== null) {
      const label = labelsById.get(row.labelId) ?? { id: row.labelId, name: row.labelName!, color: row.labelColor! };
      labelsById.set(row.labelId, label);
      last.labels.push(label);
    }
  }
  const cards = withCards.flatMap((column) => column.cards);
  const flags = await linkFlagsOfIssues(db, cards.map((card) => card.id));
  for (const card of cards) {
    card.progress = flags.progress.get(card.id) ?? null;
    card.blocked = flags.blocked.has(card.id);
  }
  return [...columns.values()];
}

/** A column as loadBoard reads it: its total, how many cards it shows (what it was asked for, within the caps), and those cards. */
export type BoardColumn = { status: Status; total: number; shown: number; cards: BoardCard[] };

/**
 * Moves a card to `position` (0-based) among the cards the board shows in the column of `status`:
 * those that match `filters` (the board's own, none by default), the card itself left out. Moves in
 * one project are serialised by a lock on the project's workspace row, and each is computed from
 * what the one before it committed: two people moving cards at once both get their move, and the
 * order stays whole. The card gets a sort_order between its new neighbours; a column whose gaps ran
 * out is renumbered (all of it, shown or not).
 */
export async function moveIssue(
  db: Database,
  move: {
    project: ProjectScope;
    issueId: number;
    status: Status;
    position: number;
    filters?: IssueFilters;
    actorId: number;
    now: Date;
    mail?: NotificationMail;
  },
): Promise<{ ok: true } | NotFound> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, move.project.workspace_id);
    const issue = await trx
      .selectFrom("issues")
      .select(["id", "status", "version"])
      .where("id", "=", move.issueId)
      .where("project_id", "=", move.project.id)
      .executeTakeFirst();
    if (!issue) return issueNotFound;

    const others = (filters: IssueFilters) =>
      applyIssueFilters(trx.selectFrom("issues"), move.project.id, { ...filters, statuses: [move.status] }, move.actorId).where("issues.id", "!=", move.issueId);
    const ordered = (filters: IssueFilters) => others(filters).select(["issues.id", "issues.sort_order"]).orderBy("issues.sort_order").orderBy("issues.id");
    const shown = move.filters ?? noFilters;
    // Past the end means at the end.
    const { count } = await others(shown)
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    const position = Math.min(Math.max(0, move.position), Number(count));
    const neighbours = async () => {
      const before = position > 0 ? await ordered(shown).offset(position - 1).limit(1).executeTakeFirst() : undefined;
      const after = await ordered(shown).offset(position).limit(1).executeTakeFirst();
      return { before: before?.sort_order, after: after?.sort_order };
    };
    let { before, after } = await neighbours();
    if (before !== undefined && after !== undefined && after - before < 1e-6) {
      for (const [index, card] of (await ordered(noFilters).execute()).entries()) {
        await trx.updateTable("issues").set({ sort_order: index + 1 }).where("id", "=", card.id).execute();
      }
      ({ before, after } = await neighbours());
    }
    const sortOrder =
      before === undefined && after === undefined ? 1 : before === undefined ? after! - 1 : after === undefined ? before + 1 : (before + after) / 2;

    const now = move.now.toISOString();
    const scope = { project: move.project, issueId: issue.id, actorId: move.actorId, version: issue.version, now: move.now, mail: move.mail };
    if (issue.status === move.status) {
      await trx.updateTable("issues").set({ sort_order: sortOrder }).where("id", "=", issue.id).execute();
      await recordIssueEvent(trx, scope, { type: "issue.reordered", sortOrder });
      return { ok: true };
    }
    const closedAt = isClosed(move.status) === isClosed(issue.status) ? {} : { closed_at: isClosed(move.status) ? now : null };
    const version = issue.version + 1;
    await trx
      .updateTable("issues")
      .set({ sort_order: sortOrder, status: move.status, ...closedAt, version, updated_at: now })
      .where("id", "=", issue.id)
      .execute();
    await recordIssueEvent(trx, { ...scope, version }, { type: "issue.updated", changes: { status: { from: issue.status, to: move.status } } });
    return { ok: true };
  });
}
