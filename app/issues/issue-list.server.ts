import { type ExpressionBuilder, type SelectQueryBuilder, sql } from "kysely";
import type { Database } from "~/db/database.server";
import type { DB, Status } from "~/db/schema";
import { parsePositiveInteger, queryText } from "~/forms/fields.server";
import type { LabelRef } from "./issue-refs";
import { parseIssueRef } from "./issue-links";
import { linkFlagsOfIssues } from "./issue-link-reads.server";
import { closedStatuses, type IssueSort, issueSorts, type Priority, priorities, priorityOf, rankOf, statuses } from "./issue-fields";

/** docs/product.md, Limits. */
export const issuePageSize = 50;

/** Who an issue is assigned to, as the list's `assignee` parameter names it. */
export type AssigneeFilter = "unassigned" | "me" | number;

/** Values a list's filter takes at most, per parameter: a longer list in a URL is cut, not refused. */
export const filterValueLimit = 50;

/** Each filter holds several values (`status=todo&status=in_progress`); an issue matches any one of them. */
export type IssueFilters = {
  statuses: Status[];
  assignees: AssigneeFilter[];
  labelIds: number[];
  priorities: Priority[];
  q: string;
  /** The sub-issues of one issue (`parent=WEB-12`), a key of this workspace; null: any issue. */
  parent: string | null;
  sort: IssueSort;
  page: number;
  /** Search text that cannot be used (a NUL, a direction control …): what was typed, and why; `q` is then "". */
  refusedQuery?: { value: string; message: string };
};

/** How a page without a search field of its own (the board, the CSV export) refuses the list's URL. */
export const refusedQueryMessage = (refused: { message: string }) => `The search text of this address cannot be used. ${refused.message}`;

/**
 * The list's filters from its URL (they are GET parameters, so a filtered list is a link). Values
 * that mean nothing are ignored rather than refused: an old or hand-edited link still opens. Search
 * text is the exception: it is what someone typed, so a refusal says why, at the search field.
 */
export function parseIssueFilters(params: URLSearchParams): IssueFilters {
  // Repeated parameters and comma-separated values alike (`status=todo,done`, as older links have them).
  const values = (name: string) => params.getAll(name).flatMap((v) => v.split(",")).slice(0, filterValueLimit);
  const wanted = new Set<Status>();
  for (const value of values("status")) {
    if (value === "open") statuses.filter((s) => !closedStatuses.includes(s)).forEach((s) => wanted.add(s));
    else if (value === "closed") closedStatuses.forEach((s) => wanted.add(s));
    else if ((statuses as readonly string[]).includes(value)) wanted.add(value as Status);
  }
  const assignees = new Set<AssigneeFilter>();
  for (const value of values("assignee")) {
    const assignee = value === "unassigned" || value === "me" ? value : parsePositiveInteger(value);
    if (assignee !== null) assignees.add(assignee);
  }
  const labelIds = new Set(values("label").map(parsePositiveInteger).filter((id) => id !== null));
  const wantedPriorities = new Set(values("priority").filter((p): p is Priority => (priorities as readonly string[]).includes(p)));
  const sort = params.get("sort");
  const q = queryText(params, "q", 200);
  const parent = parseIssueRef(params.get("parent") ?? "");
  return {
    statuses: [...wanted],
    assignees: [...assignees],
    labelIds: [...labelIds],
    priorities: [...wantedPriorities],
    q: q.problem ? "" : q.value,
    // Only a full key: the list's URL may be shared into another project's list.
    parent: parent?.projectKey ? `${parent.projectKey}-${parent.number}` : null,
    sort: (issueSorts as readonly string[]).includes(sort ?? "") ? (sort as IssueSort) : "updated",
    page: parsePositiveInteger(params.get("page")) ?? 1,
    ...(q.problem ? { refusedQuery: { value: q.value, message: q.problem } } : {}),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The list's filters as a WHERE clause on `issues` (the board and the CSV export use them too). */
export function applyIssueFilters<O>(
  query: SelectQueryBuilder<DB, "issues", O>,
  projectId: number,
  filters: IssueFilters,
  meId: number,
): SelectQueryBuilder<DB, "issues", O> {
  let filtered = query.where("issues.project_id", "=", projectId);
  if (filters.statuses.length) filtered = filtered.where("issues.status", "in", filters.statuses);
  if (filters.assignees.length) {
    const ids = filters.assignees.filter((a) => a !== "unassigned").map((a) => (a === "me" ? meId : a));
    const unassigned = filters.assignees.includes("unassigned");
    filtered = filtered.where((eb: ExpressionBuilder<DB, "issues">) =>
      eb.or([...(ids.length ? [eb("issues.assignee_id", "in", ids)] : []), ...(unassigned ? [eb("issues.assignee_id", "is", null)] : [])]),
    );
  }
  if (filters.priorities.length) filtered = filtered.where("issues.priority", "in", filters.priorities.map(rankOf));
  if (filters.labelIds.length) {
    const labelIds = filters.labelIds;
    filtered = filtered.where((eb: ExpressionBuilder<DB, "issues">) =>
      eb.exists(
        eb
          .selectFrom("issue_labels")
          .select("issue_labels.issue_id")
          .whereRef("issue_labels.issue_id", "=", "issues.id")
          .where("issue_labels.label_id", "in", labelIds),
      ),
    );
  }
  if (filters.parent) {
    const [key, number] = filters.parent.split("-");
    // The parent by its key among the projects of this project's workspace (issues_project_number, then issues_parent_status).
    filtered = filtered.where((eb: ExpressionBuilder<DB, "issues">) =>
      eb(
        "issues.parent_id",
        "=",
        eb
          .selectFrom("issues as parent")
          .innerJoin("projects as parent_project", "parent_project.id", "parent.project_id")
          .select("parent.id")
          .where("parent_project.key", "=", key!)
          .where("parent.number", "=", Number(number))
          .where("parent_project.workspace_id", "=", eb.selectFrom("projects as own").select("own.workspace_id").where("own.id", "=", projectId)),
      ),
    );
  }
  if (filters.q) {
    const pattern = `%${escapeLike(filters.q.toLowerCase())}%`;
    const number = /^(?:[a-z]{2,6}-)?(\d{1,9})$/i.exec(filters.q)?.[1];
    filtered = filtered.where((eb: ExpressionBuilder<DB, "issues">) =>
      eb.or([
        // SQLite needs the escape character named; PostgreSQL's default is the same backslash.
        sql<boolean>`lower(issues.title) like ${pattern} escape '\\'`,
        ...(number ? [eb("issues.number", "=", Number(number))] : []),
      ]),
    );
  }
  return filtered;
}

/**
 * The list's order for each sort, every one total (ending in the id, or the number, unique per
 * project). The CSV export pages through the same order by keyset: a change here needs the
 * matching change to `afterIssueCursor` below.
 */
export function orderIssues<O>(query: SelectQueryBuilder<DB, "issues", O>, sort: IssueSort): SelectQueryBuilder<DB, "issues", O> {
  switch (sort) {
    case "created":
      return query.orderBy("issues.created_at", "desc").orderBy("issues.id", "desc");
    case "priority":
      return query.orderBy("issues.priority", "desc").orderBy("issues.updated_at", "desc").orderBy("issues.id", "desc");
    case "due":
      // Issues without a due date last, on both databases.
      return query
        // `(due_date is null)` exactly as the index issues_project_due has it, so the index is used.
        .orderBy(sql`(issues.due_date is null)`)
        .orderBy("issues.due_date", "asc")
        .orderBy("issues.id", "asc");
    case "number":
      return query.orderBy("issues.number", "asc");
    default:
      return query.orderBy("issues.updated_at", "desc").orderBy("issues.id", "desc");
  }
}

/** Where a page (or a CSV batch) ended: its last row's values of every column any sort orders by. */
export type IssueCursor = { id: number; number: number; priority: number; createdAt: string; updatedAt: string; dueDate: string | null };

/**
 * The issues strictly after `cursor` in `orderIssues`' order for `sort` (keyset pagination: each
 * batch starts on an index where the last one ended, however deep into the list). It must mirror
 * `orderIssues` exactly; the integration tests compare the two.
 */
export function afterIssueCursor<O>(query: SelectQueryBuilder<DB, "issues", O>, sort: IssueSort, cursor: IssueCursor): SelectQueryBuilder<DB, "issues", O> {
  switch (sort) {
    case "created":
      return query.where(({ eb, refTuple, tuple }) => eb(refTuple("issues.created_at", "issues.id"), "<", tuple(cursor.createdAt, cursor.id)));
    case "priority":
      return query.where(({ eb, refTuple, tuple }) =>
        eb(refTuple("issues.priority", "issues.updated_at", "issues.id"), "<", tuple(cursor.priority, cursor.updatedAt, cursor.id)),
      );
    case "due": {
      // Dated issues by date then id, then the undated ones by id.
      const { dueDate } = cursor;
      if (dueDate === null) return query.where("issues.due_date", "is", null).where("issues.id", ">", cursor.id);
      return query.where(({ eb, or, refTuple, tuple }) =>
        or([eb("issues.due_date", "is", null), eb(refTuple("issues.due_date", "issues.id"), ">", tuple(dueDate, cursor.id))]),
      );
    }
    case "number":
      return query.where("issues.number", ">", cursor.number);
    default:
      return query.where(({ eb, refTuple, tuple }) => eb(refTuple("issues.updated_at", "issues.id"), "<", tuple(cursor.updatedAt, cursor.id)));
  }
}

/**
 * The columns a cursor is made of, as the database compares them: PostgreSQL's timestamps have
 * microseconds, which the ISO strings the application reads would round away.
 */
export const issueCursorColumns = (eb: ExpressionBuilder<DB, "issues">) => [
  sql<string>`cast(${eb.ref("issues.created_at")} as text)`.as("cursorCreatedAt"),
  sql<string>`cast(${eb.ref("issues.updated_at")} as text)`.as("cursorUpdatedAt"),
];

/** The cursor after a row read with `issueCursorColumns`. */
export function issueCursorOf(row: { id: number; number: number; priority: number; due_date: string | null; cursorCreatedAt: string; cursorUpdatedAt: string }): IssueCursor {
  return { id: row.id, number: row.number, priority: row.priority, createdAt: row.cursorCreatedAt, updatedAt: row.cursorUpdatedAt, dueDate: row.due_date };
}

/**
 * One page of a project's issues, filtered and sorted, with its labels — three queries, each on an
 * index: the page's rows, each carrying the number of matching issues (a subquery the database
 * runs once), then their labels and their sub-issue progress and "blocked" flags. Only a page past
 * the last (an old link) costs a count and the last page again.
 */
export async function listIssues(db: Database, projectId: number, filters: IssueFilters, meId: number) {
  const matching = () => applyIssueFilters(db.selectFrom("issues"), projectId, filters, meId);
  const count = matching().select((eb) => eb.fn.countAll<number>().as("count"));
  const pageAt = (page: number) =>
    orderIssues(matching(), filters.sort)
      .leftJoin("users as assignee", "assignee.id", "issues.assignee_id")
      .select([
        "issues.id",
        "issues.number",
        "issues.title",
        "issues.status",
        "issues.priority",
        "issues.assignee_id",
        "issues.due_date",
        "issues.version",
        "issues.updated_at",
        "assignee.name as assigneeName",
        count.as("total"),
      ])
      .limit(issuePageSize)
      .offset((page - 1) * issuePageSize)
      .execute();

  let page = filters.page;
  let rows = await pageAt(page);
  let total = rows.length ? Number(rows[0]!.total) : 0;
  if (!rows.length && page > 1) {
    total = Number((await count.executeTakeFirstOrThrow()).count);
    page = Math.max(1, Math.ceil(total / issuePageSize));
    rows = total ? await pageAt(page) : [];
  }
  if (!rows.length) page = 1;
  const ids = rows.map((i) => i.id);
  const [labels, flags] = await Promise.all([labelsOfIssues(db, ids), linkFlagsOfIssues(db, ids)]);
  return {
    issues: rows.map(({ total: _total, ...issue }) => ({
      ...issue,
      priority: priorityOf(issue.priority),
      labels: labels.get(issue.id) ?? [],
      progress: flags.progress.get(issue.id) ?? null,
      blocked: flags.blocked.has(issue.id),
    })),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / issuePageSize)),
  };
}

/**
 * The labels of each of these issues, by name — one query. A label is one object wherever it
 * appears, so that the page's hydration payload (which keeps one copy of each object) holds it once.
 */
export async function labelsOfIssues(db: Database, issueIds: number[]) {
  const byIssue = new Map<number, LabelRef[]>();
  if (!issueIds.length) return byIssue;
  const rows = await db
    .selectFrom("issue_labels")
    .innerJoin("labels", "labels.id", "issue_labels.label_id")
    .select(["issue_labels.issue_id", "labels.id", "labels.name", "labels.color"])
    .where("issue_labels.issue_id", "in", issueIds)
    .orderBy("labels.name")
    .execute();
  const labels = new Map<number, LabelRef>();
  for (const { issue_id, ...row } of rows) {
    let label = labels.get(row.id);
    if (!label) labels.set(row.id, (label = row));
    const ofIssue = byIssue.get(issue_id);
    if (ofIssue) ofIssue.push(label);
    else byIssue.set(issue_id, [label]);
  }
  return byIssue;
}

export type IssueListPage = Awaited<ReturnType<typeof listIssues>>;
