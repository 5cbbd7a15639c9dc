import type { Database } from "~/db/database.server";
import type { Status } from "~/db/schema";
import { lockWorkspace } from "~/workspaces/members.server";
import { isClosed, priorityOf, statuses, statusLabels } from "./issue-fields";
import { applyIssueFilters, type IssueFilters } from "./issue-list.server";

/** Cards shown per column; a bigger column says how many more there are (filters narrow it). */
export const boardColumnLimit = 100;

export type BoardCard = {
  id: number;
  number: number;
  title: string;
  priority: ReturnType<typeof priorityOf>;
  assigneeName: string | null;
  labels: { id: number; name: string; color: string }[];
};

/** One column per status, cards in their board order — the list's filters apply. */
export async function loadBoard(db: Database, projectId: number, filters: IssueFilters, meId: number) {
  const columns = await Promise.all(
    statuses.map(async (status) => {
      const scoped = applyIssueFilters(db.selectFrom("issues"), projectId, { ...filters, statuses: [status] }, meId);
      const [{ total }, cards] = await Promise.all([
        scoped.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
        scoped
          .leftJoin("users as assignee", "assignee.id", "issues.assignee_id")
          .select(["issues.id", "issues.number", "issues.title", "issues.priority", "assignee.name as assigneeName"])
          .orderBy("issues.sort_order")
          .orderBy("issues.id")
          .limit(boardColumnLimit)
          .execute(),
      ]);
      return { status, total: Number(total), cards };
    }),
  );
  const ids = columns.flatMap((column) => column.cards.map((card) => card.id));
  const labels = ids.length
    ? await db
        .selectFrom("issue_labels")
        .innerJoin("labels", "labels.id", "issue_labels.label_id")
        .select(["issue_labels.issue_id", "labels.id", "labels.name", "labels.color"])
        .where("issue_labels.issue_id", "in", ids)
        .orderBy("labels.name")
        .execute()
    : [];
  return columns.map((column) => ({
    ...column,
    cards: column.cards.map(
      (card): BoardCard => ({
        ...card,
        priority: priorityOf(card.priority),
        labels: labels.filter((l) => l.issue_id === card.id).map(({ id, name, color }) => ({ id, name, color })),
      }),
    ),
  }));
}

export type Board = Awaited<ReturnType<typeof loadBoard>>;

/**
 * Moves a card to `position` (0-based) in the column of `status`. Moves in one project are
 * serialised by a lock on the project's workspace row, and each is computed from what the one before
 * it committed: two people moving cards at once both get their move, and the order stays whole.
 * The card gets a sort_order between its new neighbours; a column whose gaps ran out is renumbered.
 */
export async function moveIssue(
  db: Database,
  move: { projectId: number; workspaceId: number; issueId: number; status: Status; position: number; actorId: number; now: Date },
): Promise<{ ok: true } | { ok: false; status: 404; message: string }> {
  return db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, move.workspaceId);
    const issue = await trx
      .selectFrom("issues")
      .select(["id", "status", "version"])
      .where("id", "=", move.issueId)
      .where("project_id", "=", move.projectId)
      .executeTakeFirst();
    if (!issue) return { ok: false, status: 404, message: "Issue not found." };

    const column = () =>
      trx
        .selectFrom("issues")
        .select(["id", "sort_order"])
        .where("project_id", "=", move.projectId)
        .where("status", "=", move.status)
        .where("id", "!=", move.issueId)
        .orderBy("sort_order")
        .orderBy("id");
    // Past the end means at the end.
    const { others } = await trx
      .selectFrom("issues")
      .select((eb) => eb.fn.countAll<number>().as("others"))
      .where("project_id", "=", move.projectId)
      .where("status", "=", move.status)
      .where("id", "!=", move.issueId)
      .executeTakeFirstOrThrow();
    const position = Math.min(Math.max(0, move.position), Number(others));
    const neighbours = async () => {
      const before = position > 0 ? await column().offset(position - 1).limit(1).executeTakeFirst() : undefined;
      const after = await column().offset(position).limit(1).executeTakeFirst();
      return { before: before?.sort_order, after: after?.sort_order };
    };
    let { before, after } = await neighbours();
    if (before !== undefined && after !== undefined && after - before < 1e-6) {
      const ordered = await column().execute();
      for (const [index, card] of ordered.entries()) {
        await trx.updateTable("issues").set({ sort_order: index + 1 }).where("id", "=", card.id).execute();
      }
      ({ before, after } = await neighbours());
    }
    const sortOrder =
      before === undefined && after === undefined ? 1 : before === undefined ? after! - 1 : after === undefined ? before + 1 : (before + after) / 2;

    const now = move.now.toISOString();
    if (issue.status === move.status) {
      await trx.updateTable("issues").set({ sort_order: sortOrder }).where("id", "=", issue.id).execute();
      return { ok: true };
    }
    const closedAt = isClosed(move.status) === isClosed(issue.status) ? {} : { closed_at: isClosed(move.status) ? now : null };
    const version = issue.version + 1;
    await trx
      .updateTable("issues")
      .set({ sort_order: sortOrder, status: move.status, ...closedAt, version, updated_at: now })
      .where("id", "=", issue.id)
      .execute();
    await trx
      .insertInto("activities")
      .values({
        issue_id: issue.id,
        actor_id: move.actorId,
        kind: "status",
        issue_version: version,
        from_value: statusLabels[issue.status],
        to_value: statusLabels[move.status],
        created_at: now,
      })
      .execute();
    return { ok: true };
  });
}
