/**
 * The board on every database (docs/product.md, Screens "/board: columns by status; moving a card works without
 * JavaScript", §3 Issue.sort_order, §4 status transitions, Form fields "board move"):
 * moveIssue's ordering (top, middle, bottom, beyond the end), its status side effects (closed_at,
 * one "status" activity, version), loadBoard's order and filters, renumbering when the fractional
 * gaps run out, and moves made at the same moment through two database handles.
 *
 * Concurrency: on PostgreSQL both handles live in this process (each its own pool) and the moves
 * really overlap. On SQLite each handle is a separate Node process, as two instances would be:
 * better-sqlite3 is synchronous, so two connections in one process would block each other's event
 * loop in SQLite's busy handler — a deadlock of the test, not of Cairn (tests/support/instance-processes.ts).
 */
import type { ChildProcess } from "node:child_process";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { allotCards, loadBoard, moveIssue, shownCount } from "~/issues/board.server";
import { boardCardCap, boardColumnCap, boardPageSize } from "~/issues/board-limits";
import { type IssueFields, type Status, statuses } from "~/issues/issue-fields";
import { parseIssueFilters } from "~/issues/issue-list.server";
import { createIssue } from "~/issues/issues.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type CallError, callFromInstances } from "../support/instance-processes";
import { issueFields } from "../support/issues";
import { type SeededProject, seedTestWorkspace } from "../support/workspaces";

const t0 = new Date("2025-03-01T12:00:00.000Z");
const at = (minute: number) => new Date(t0.getTime() + minute * 60_000);

type Move = { issueId: number; status: Status; position: number };
type MoveResult = { ok: true } | { ok: false; status: number; message: string } | CallError;
/** Issue ids per column, top to bottom. */
type Columns = Record<Status, number[]>;

const emptyColumns = (): Columns => Object.fromEntries(statuses.map((s) => [s, [] as number[]])) as unknown as Columns;

/** What a move must do, on a plain picture of the board: out of its column, into the target at `position` (at most the end). */
function applyMove(columns: Columns, move: Move): Columns {
  const next = Object.fromEntries(statuses.map((s) => [s, columns[s].filter((id) => id !== move.issueId)])) as unknown as Columns;
  const target = next[move.status];
  target.splice(Math.min(move.position, target.length), 0, move.issueId);
  return next;
}

const filters = (query = "") => parseIssueFilters(new URLSearchParams(query));

/**
 * A closed pool's connections linger on the server for a moment; dropping the database "with
 * (force)" then kills them, and pg reports that as an unhandled error. Waits until they are gone.
 */
async function untilDisconnected(databaseUrl: string) {
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    for (let tries = 0; tries < 100; tries += 1) {
      const { rows } = await client.query<{ n: string }>("select count(*) as n from pg_stat_activity where datname = $1", [name]);
      if (Number(rows[0]!.n) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

describe.each(testDialects)("the board on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let handles: DatabaseHandle[] = [];
  let children: ChildProcess[] = [];
  let db: Database;
  let workspaceId: number;
  let web: SeededProject;
  let api: SeededProject;
  /** Ada owns acme; Grace is a member. */
  let ada: number;
  let grace: number;
  let bug: number;
  let docs: number;

  // A fresh database for every test.
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    handles = [handle];
    await migrateToLatest(handle);
    db = handle.db;
    const acme = await seedTestWorkspace(db, {
      slug: "acme",
      name: "Acme",
      at: t0,
      members: { Ada: "owner", Grace: "member" },
      projects: { WEB: "WEB", API: "API" },
      labels: { Bug: "red", Docs: "blue" },
    });
    workspaceId = acme.id;
    ({ Ada: ada, Grace: grace } = acme.users);
    ({ WEB: web, API: api } = acme.projects);
    ({ Bug: bug, Docs: docs } = acme.labels);
  });

  afterEach(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    children = [];
    await Promise.all(handles.map((h) => h.db.destroy()));
    handles = [];
    if (database?.env.DATABASE_URL) await untilDisconnected(database.env.DATABASE_URL);
    await database?.drop();
  });

  /** Files an issue in WEB (or `project`) and returns its id; a new issue goes to the bottom of its column. */
  async function file(title: string, overrides: Partial<IssueFields> = {}, project: SeededProject = web): Promise<number> {
    const created = await createIssue(db, {
      project,
      reporterId: ada,
      fields: issueFields({ title, status: "todo", ...overrides }),
      now: t0,
    });
    if (!("number" in created)) throw new Error(`not created: ${JSON.stringify(created)}`);
    const row = await db.selectFrom("issues").select("id").where("project_id", "=", project.id).where("number", "=", created.number).executeTakeFirstOrThrow();
    return row.id;
  }

  async function fileMany(count: number, status: Status, prefix: string = status): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 1; i <= count; i += 1) ids.push(await file(`${prefix} ${i}`, { status }));
    return ids;
  }

  const move = (issueId: number, status: Status, position: number, now = at(1), on: Database = db, project: SeededProject = web) =>
    moveIssue(on, { project, issueId, status, position, actorId: grace, now });

  async function expectMoved(issueId: number, status: Status, position: number, now = at(1)) {
    expect(await move(issueId, status, position, now)).toEqual({ ok: true });
  }

  /** Every column of WEB as stored: ids by sort_order (then id, as the board breaks ties). */
  async function storedColumns(project: SeededProject = web): Promise<Columns> {
    const rows = await db.selectFrom("issues").select(["id", "status"]).where("project_id", "=", project.id).orderBy("sort_order").orderBy("id").execute();
    const columns = emptyColumns();
    for (const row of rows) columns[row.status].push(row.id);
    return columns;
  }

  /** Every column of WEB as the board shows it (loadBoard, no filter). */
  async function boardColumns(query = "", meId = ada): Promise<Columns> {
    const board = await loadBoard(db, web.id, filters(query), meId);
    expect(board.map((c) => c.status)).toEqual([...statuses]);
    return Object.fromEntries(board.map((c) => [c.status, c.cards.map((card) => card.id)])) as unknown as Columns;
  }

  async function sortOrders(status: Status, project: SeededProject = web): Promise<number[]> {
    const rows = await db.selectFrom("issues").select("sort_order").where("project_id", "=", project.id).where("status", "=", status).orderBy("sort_order").execute();
    return rows.map((r) => Number(r.sort_order));
  }

  async function issueRow(id: number) {
    return db.selectFrom("issues").select(["status", "closed_at", "version", "updated_at", "sort_order"]).where("id", "=", id).executeTakeFirstOrThrow();
  }

  async function activitiesOf(id: number) {
    return db
      .selectFrom("activities")
      .select(["kind", "actor_id", "issue_version", "from_value", "to_value", "created_at"])
      .where("issue_id", "=", id)
      .orderBy("id")
      .execute();
  }

  const created = { kind: "created", actor_id: 0, issue_version: 1, from_value: null, to_value: null, created_at: t0.toISOString() };

  describe("moving within a column", () => {
    it("puts a card at the top, in the middle and at the bottom, and writes no activity", async () => {
      const [a, b, c, d, e] = (await fileMany(5, "todo")) as [number, number, number, number, number];
      await file("Elsewhere", { status: "in_progress" });
      let expected = await storedColumns();
      expect(expected.todo).toEqual([a, b, c, d, e]);

      // To the top.
      await expectMoved(d, "todo", 0);
      expected = applyMove(expected, { issueId: d, status: "todo", position: 0 });
      expect(expected.todo).toEqual([d, a, b, c, e]);
      expect(await boardColumns()).toEqual(expected);

      // Into the middle (from the bottom).
      await expectMoved(e, "todo", 2);
      expected = applyMove(expected, { issueId: e, status: "todo", position: 2 });
      expect(expected.todo).toEqual([d, a, e, b, c]);
      expect(await boardColumns()).toEqual(expected);

      // To the bottom (the last index), from the top.
      await expectMoved(d, "todo", 4);
      expected = applyMove(expected, { issueId: d, status: "todo", position: 4 });
      expect(expected.todo).toEqual([a, e, b, c, d]);
      expect(await boardColumns()).toEqual(expected);

      // One down ("Move down"), one up ("Move up").
      await expectMoved(a, "todo", 1);
      await expectMoved(c, "todo", 2);
      expected = applyMove(applyMove(expected, { issueId: a, status: "todo", position: 1 }), { issueId: c, status: "todo", position: 2 });
      expect(expected.todo).toEqual([e, a, c, b, d]);
      expect(await boardColumns()).toEqual(expected);

      // Where it already is: nothing changes.
      await expectMoved(c, "todo", 2);
      expect(await boardColumns()).toEqual(expected);

      // No status change: no activity, no new version, still open.
      for (const id of [a, b, c, d, e]) {
        expect(await issueRow(id)).toMatchObject({ status: "todo", closed_at: null, version: 1 });
        expect(await activitiesOf(id)).toEqual([{ ...created, actor_id: ada }]);
      }
      expect(new Set(await sortOrders("todo")).size).toBe(5);
    });

    it("puts a card dropped on the first position of a one-card column back where it was", async () => {
      const [only] = (await fileMany(1, "in_review")) as [number];
      await expectMoved(only, "in_review", 0);
      expect((await boardColumns()).in_review).toEqual([only]);
      expect(await activitiesOf(only)).toHaveLength(1);
    });
  });

  describe("moving to another column", () => {
    it("changes the status, sets and clears closed_at, bumps the version and writes one 'status' activity (its keys) per move", async () => {
      const [a, b, c] = (await fileMany(3, "todo")) as [number, number, number];
      const [d, e] = (await fileMany(2, "in_progress")) as [number, number];
      let expected = await storedColumns();

      // Todo → In progress, between its two cards.
      await expectMoved(b, "in_progress", 1, at(1));
      expected = applyMove(expected, { issueId: b, status: "in_progress", position: 1 });
      expect(expected.todo).toEqual([a, c]);
      expect(expected.in_progress).toEqual([d, b, e]);
      expect(await boardColumns()).toEqual(expected);
      expect(await issueRow(b)).toMatchObject({ status: "in_progress", closed_at: null, version: 2, updated_at: at(1).toISOString() });
      expect(await activitiesOf(b)).toEqual([
        { ...created, actor_id: ada },
        { kind: "status", actor_id: grace, issue_version: 2, from_value: "todo", to_value: "in_progress", created_at: at(1).toISOString() },
      ]);

      // In progress → Done (an empty column): closed.
      await expectMoved(b, "done", 0, at(2));
      expected = applyMove(expected, { issueId: b, status: "done", position: 0 });
      expect(await boardColumns()).toEqual(expected);
      expect(await issueRow(b)).toMatchObject({ status: "done", closed_at: at(2).toISOString(), version: 3, updated_at: at(2).toISOString() });

      // Done → Canceled: still closed, since the first close.
      await expectMoved(b, "canceled", 0, at(3));
      expect(await issueRow(b)).toMatchObject({ status: "canceled", closed_at: at(2).toISOString(), version: 4 });

      // Canceled → Todo, at the top: open again.
      await expectMoved(b, "todo", 0, at(4));
      expected = applyMove(expected, { issueId: b, status: "todo", position: 0 });
      expect(expected.todo).toEqual([b, a, c]);
      expect(await boardColumns()).toEqual(expected);
      expect(await issueRow(b)).toMatchObject({ status: "todo", closed_at: null, version: 5, updated_at: at(4).toISOString() });

      // A move within the column afterwards: no activity, no version.
      await expectMoved(b, "todo", 2, at(5));
      expected = applyMove(expected, { issueId: b, status: "todo", position: 2 });
      expect(await boardColumns()).toEqual(expected);
      expect(await issueRow(b)).toMatchObject({ status: "todo", closed_at: null, version: 5 });

      expect((await activitiesOf(b)).map((x) => [x.kind, x.issue_version, x.from_value, x.to_value, x.created_at])).toEqual([
        ["created", 1, null, null, t0.toISOString()],
        ["status", 2, "todo", "in_progress", at(1).toISOString()],
        ["status", 3, "in_progress", "done", at(2).toISOString()],
        ["status", 4, "done", "canceled", at(3).toISOString()],
        ["status", 5, "canceled", "todo", at(4).toISOString()],
      ]);
      // The other cards were not touched.
      for (const id of [a, c, d, e]) {
        expect(await issueRow(id)).toMatchObject({ version: 1 });
        expect(await activitiesOf(id)).toHaveLength(1);
      }
    });

    it("puts a card at the top and at the bottom of a column with cards", async () => {
      const [a, b, c] = (await fileMany(3, "backlog")) as [number, number, number];
      const [d, e] = (await fileMany(2, "in_review")) as [number, number];
      let expected = await storedColumns();
      await expectMoved(a, "in_review", 0);
      expected = applyMove(expected, { issueId: a, status: "in_review", position: 0 });
      // The last index + 1: the bottom.
      await expectMoved(c, "in_review", 3);
      expected = applyMove(expected, { issueId: c, status: "in_review", position: 3 });
      expect(expected.in_review).toEqual([a, d, e, c]);
      expect(expected.backlog).toEqual([b]);
      expect(await boardColumns()).toEqual(expected);
    });

    it("a new issue goes to the bottom of its column, after cards that were moved", async () => {
      const [a, b] = (await fileMany(2, "todo")) as [number, number];
      await expectMoved(b, "todo", 0);
      const c = await file("New one", { status: "todo" });
      expect((await boardColumns()).todo).toEqual([b, a, c]);
    });
  });

  describe("positions beyond the end", () => {
    // The no-JavaScript "Move to…" form posts position=1000000, meaning "at the end" (board.tsx).
    it("append to the card's own column", async () => {
      const [a, b, c] = (await fileMany(3, "todo")) as [number, number, number];
      await expectMoved(a, "todo", 1_000_000);
      // A position past the end puts the card last (the no-JS "Move to…" form sends 1,000,000).
      expect((await boardColumns()).todo).toEqual([b, c, a]);
    });

    it("append to another column", async () => {
      const [a, b] = (await fileMany(2, "todo")) as [number, number];
      const [c, d] = (await fileMany(2, "in_progress")) as [number, number];
      await expectMoved(b, "in_progress", 1_000_000);
      await expectMoved(a, "in_progress", 3);
      // (position 3 is exactly the end once a is out of Todo: that one appends.)
      // Likewise for b: appended, with a sort_order of its own.
      expect((await boardColumns()).in_progress).toEqual([c, d, b, a]);
      expect(new Set(await sortOrders("in_progress")).size).toBe(4);
    });

    it("into an empty column give the card the only place", async () => {
      const [a] = (await fileMany(1, "todo")) as [number];
      await expectMoved(a, "done", 1_000_000);
      expect((await boardColumns()).done).toEqual([a]);
      expect(await issueRow(a)).toMatchObject({ status: "done", version: 2 });
    });
  });

  it("refuses a card of another project, or one that does not exist, as not found", async () => {
    const other = await file("API issue", { status: "todo" }, api);
    await file("Web issue", { status: "todo" });
    const before = await storedColumns();
    expect(await move(other, "done", 0)).toEqual({ ok: false, status: 404, message: "Issue not found." });
    expect(await move(987_654, "done", 0)).toEqual({ ok: false, status: 404, message: "Issue not found." });
    expect(await storedColumns()).toEqual(before);
    expect(await issueRow(other)).toMatchObject({ status: "todo", version: 1 });
  });

  describe("loadBoard", () => {
    it("shows every status as a column, cards in sort_order (not by number), with what a card shows", async () => {
      const a = await file("Alpha", { status: "todo", priority: "high", assigneeId: grace, labelIds: [docs, bug] });
      const b = await file("Beta", { status: "todo" });
      const c = await file("Gamma", { status: "todo" });
      const d = await file("Delta", { status: "done" });
      // Reordered by hand: the board follows sort_order; equal values fall back to the id.
      await db.updateTable("issues").set({ sort_order: 10 }).where("id", "=", a).execute();
      await db.updateTable("issues").set({ sort_order: -5.5 }).where("id", "=", c).execute();
      await db.updateTable("issues").set({ sort_order: 10 }).where("id", "=", b).execute();
      const board = await loadBoard(db, web.id, filters(), ada);
      expect(board.map((column) => [column.status, column.total, column.cards.map((card) => card.id)])).toEqual([
        ["backlog", 0, []],
        ["todo", 3, [c, a, b]],
        ["in_progress", 0, []],
        ["in_review", 0, []],
        ["done", 1, [d]],
        ["canceled", 0, []],
      ]);
      const alpha = board[1]!.cards[1]!;
      expect(alpha).toEqual({
        id: a,
        number: 1,
        title: "Alpha",
        priority: "high",
        assignee: { id: grace, name: "Grace" },
        labels: [
          { id: bug, name: "Bug", color: "red" },
          { id: docs, name: "Docs", color: "blue" },
        ],
        progress: null,
        blocked: false,
      });
      expect(board[1]!.cards[0]).toMatchObject({ title: "Gamma", priority: "none", assignee: null, labels: [] });
    });

    it("applies the list's filters (assignee, me, unassigned, label, priority, words, key) to every column", async () => {
      const mine = await file("Mine, urgent bug", { status: "todo", assigneeId: ada, priority: "urgent", labelIds: [bug] });
      const gracesBug = await file("Grace's bug", { status: "in_progress", assigneeId: grace, labelIds: [bug] });
      const nobodys = await file("Nobody's docs", { status: "todo", labelIds: [docs] });
      const mineDone = await file("Mine, done", { status: "done", assigneeId: ada, priority: "urgent" });
      const gracesLow = await file("Grace's low one", { status: "backlog", assigneeId: grace, priority: "low" });
      await file("Other project", { status: "todo", assigneeId: ada }, api);

      const only = (columns: Partial<Columns>): Columns => ({ ...emptyColumns(), ...columns });
      expect(await boardColumns("")).toEqual(only({ backlog: [gracesLow], todo: [mine, nobodys], in_progress: [gracesBug], done: [mineDone] }));
      expect(await boardColumns("assignee=me", ada)).toEqual(only({ todo: [mine], done: [mineDone] }));
      expect(await boardColumns("assignee=me", grace)).toEqual(only({ backlog: [gracesLow], in_progress: [gracesBug] }));
      expect(await boardColumns(`assignee=${grace}`)).toEqual(only({ backlog: [gracesLow], in_progress: [gracesBug] }));
      expect(await boardColumns("assignee=unassigned")).toEqual(only({ todo: [nobodys] }));
      expect(await boardColumns(`label=${bug}`)).toEqual(only({ todo: [mine], in_progress: [gracesBug] }));
      expect(await boardColumns("priority=urgent")).toEqual(only({ todo: [mine], done: [mineDone] }));
      expect(await boardColumns(`priority=urgent&assignee=me&label=${bug}`, ada)).toEqual(only({ todo: [mine] }));
      expect(await boardColumns("q=BUG")).toEqual(only({ todo: [mine], in_progress: [gracesBug] }));
      expect(await boardColumns("q=WEB-3")).toEqual(only({ todo: [nobodys] }));
      // Totals follow the filter too.
      const board = await loadBoard(db, web.id, filters("assignee=me"), ada);
      expect(board.map((c) => c.total)).toEqual([0, 1, 0, 0, 1, 0]);
    });

    /** Files `count` cards straight into a column (Todo unless named), the last filed on top (sort_order count … 1); returns their numbers top to bottom. */
    async function fileColumn(count: number, status: Status = "todo"): Promise<number[]> {
      const now = t0.toISOString();
      const { n } = await db.selectFrom("issues").select((eb) => eb.fn.countAll<number>().as("n")).where("project_id", "=", web.id).executeTakeFirstOrThrow();
      const first = Number(n) + 1;
      const rows = Array.from({ length: count }, (_, i) => ({
        project_id: web.id,
        number: first + i,
        title: `Card ${first + i}`,
        description: "",
        status,
        priority: 0,
        reporter_id: ada,
        sort_order: count - i,
        version: 1,
        created_at: now,
        updated_at: now,
      }));
      for (let start = 0; start < count; start += 200) await db.insertInto("issues").values(rows.slice(start, start + 200)).execute();
      return rows.map((row) => row.number).reverse();
    }

    it(`shows the first ${boardPageSize} cards of a column and its full total; "Show N more" asks for more, up to ${boardColumnCap}`, async () => {
      const order = await fileColumn(boardColumnCap + 7);
      const todoOf = async (shown: Partial<Record<Status, number>> = {}) => (await loadBoard(db, web.id, filters(), ada, shown)).find((c) => c.status === "todo")!;

      const first = await todoOf();
      expect(first.total).toBe(boardColumnCap + 7);
      expect(first.shown).toBe(boardPageSize);
      expect(first.cards.map((card) => card.number)).toEqual(order.slice(0, boardPageSize));

      // The next page continues where the first ended, in the same order.
      const more = await todoOf({ todo: 2 * boardPageSize });
      expect(more.cards.map((card) => card.number)).toEqual(order.slice(0, 2 * boardPageSize));
      expect(more.total).toBe(boardColumnCap + 7);

      // Never past the cap, whatever is asked.
      const capped = await todoOf({ todo: 10_000 });
      expect(capped.cards.map((card) => card.number)).toEqual(order.slice(0, boardColumnCap));
      expect(capped.shown).toBe(boardColumnCap);

      // Other columns keep their own count.
      const board = await loadBoard(db, web.id, filters(), ada, { backlog: 200 });
      expect(board.find((c) => c.status === "todo")!.cards).toHaveLength(boardPageSize);
    });

    it(`shares the board's cap of ${boardCardCap} cards among its columns: those that want the least keep theirs, the others share the rest`, async () => {
      const order: Partial<Record<Status, number[]>> = {};
      for (const status of ["backlog", "todo", "in_progress", "done"] as const) order[status] = await fileColumn(boardColumnCap + 10, status);
      await fileColumn(3, "in_review");
      const shownOf = (board: Awaited<ReturnType<typeof loadBoard>>) => Object.fromEntries(board.map((c) => [c.status, c.cards.length]));

      // Within the cap, each column what it asks for (at most what it has).
      const some = await loadBoard(db, web.id, filters(), ada, { todo: 200, in_progress: 100 });
      expect(shownOf(some)).toEqual({ backlog: 50, todo: 200, in_progress: 100, in_review: 3, done: 50, canceled: 0 });
      expect(some.map((c) => c.shown)).toEqual(some.map((c) => c.cards.length));

      // Every column asked for its most: 4 × 200 + 3 would be 803.
      const all = await loadBoard(db, web.id, filters(), ada, Object.fromEntries(statuses.map((s) => [s, boardColumnCap])));
      expect(shownOf(all)).toEqual({ backlog: 149, todo: 149, in_progress: 149, in_review: 3, done: 150, canceled: 0 });
      for (const column of all) {
        expect(column.total).toBe(column.status === "in_review" ? 3 : column.status === "canceled" ? 0 : boardColumnCap + 10);
        const filed = order[column.status];
        if (filed) expect(column.cards.map((card) => card.number)).toEqual(filed.slice(0, column.shown));
      }

      // A status filter leaves fewer columns to share it.
      const two = await loadBoard(db, web.id, filters("status=todo&status=done"), ada, { todo: 10_000, done: 10_000 });
      expect(two.map((c) => [c.status, c.cards.length])).toEqual([
        ["todo", boardColumnCap],
        ["done", boardColumnCap],
      ]);
    });

    it("shares out a cap: under it as wanted, over it the smallest wants first and the rest equally", () => {
      expect(allotCards([50, 200, 50, 50, 50, 50])).toEqual([50, 200, 50, 50, 50, 50]);
      expect(allotCards([200, 200, 200, 200, 200, 200])).toEqual([100, 100, 100, 100, 100, 100]);
      expect(allotCards([200, 200, 200, 30, 200, 0])).toEqual([142, 142, 143, 30, 143, 0]);
      expect(allotCards([50, 200, 200, 200, 30, 0])).toEqual([50, 173, 173, 174, 30, 0]);
      expect(allotCards([200, 200, 200, 200], 600)).toEqual([150, 150, 150, 150]);
      expect(allotCards([])).toEqual([]);
    });

    it("reads how many cards to show from show.<status>, from one page to the cap", () => {
      const shown = (query: string, status: Status = "todo") => shownCount(new URLSearchParams(query), status);
      expect(shown("")).toBe(boardPageSize);
      expect(shown("show.todo=100")).toBe(100);
      expect(shown("show.todo=100", "done")).toBe(boardPageSize);
      expect(shown("show.todo=7")).toBe(boardPageSize);
      expect(shown(`show.todo=${boardColumnCap + 1}`)).toBe(boardColumnCap);
      expect(shown("show.todo=99999999999999999999")).toBe(boardPageSize);
      for (const junk of ["-100", "0", "abc", "1e3", "100.5"]) expect(shown(`show.todo=${junk}`), junk).toBe(boardPageSize);
    });

    it("shows only the columns a status filter names", async () => {
      const a = await file("Todo one", { status: "todo" });
      const d = await file("Done one", { status: "done" });
      await file("Backlog one", { status: "backlog" });
      const board = await loadBoard(db, web.id, filters("status=done&status=todo"), ada);
      expect(board.map((c) => [c.status, c.cards.map((card) => card.id)])).toEqual([
        ["todo", [a]],
        ["done", [d]],
      ]);
    });
  });

  describe("moving on a filtered board", () => {
    it("counts the position among the cards the filters show", async () => {
      const [a, b, c, d, e] = (await fileMany(5, "todo")) as [number, number, number, number, number];
      for (const id of [b, d]) await db.updateTable("issues").set({ priority: 3 }).where("id", "=", id).execute();
      const [x] = (await fileMany(1, "in_progress")) as [number];
      await db.updateTable("issues").set({ priority: 3 }).where("id", "=", x).execute();
      const high = filters("priority=high");
      const moveShown = (issueId: number, status: Status, position: number) =>
        moveIssue(db, { project: web, issueId, status, position, filters: high, actorId: grace, now: at(1) });

      // The filtered Todo shows [b, d]: position 1 is between b and d — after a hidden card or not, but after b.
      expect(await moveShown(x, "todo", 1)).toEqual({ ok: true });
      expect((await boardColumns("priority=high")).todo).toEqual([b, x, d]);
      const all = (await boardColumns()).todo;
      expect(all.indexOf(x)).toBeGreaterThan(all.indexOf(b));
      expect(all.indexOf(x)).toBeLessThan(all.indexOf(d));
      expect(all.filter((id) => id !== x)).toEqual([a, b, c, d, e]);

      // To the top of the shown cards, and past their end.
      expect(await moveShown(d, "todo", 0)).toEqual({ ok: true });
      expect((await boardColumns("priority=high")).todo).toEqual([d, b, x]);
      expect(await moveShown(d, "todo", 1_000_000)).toEqual({ ok: true });
      expect((await boardColumns("priority=high")).todo).toEqual([b, x, d]);
      // The hidden cards keep their order.
      expect((await boardColumns()).todo.filter((id) => ![b, x, d].includes(id))).toEqual([a, c, e]);
    });
  });

  describe("renumbering when the gaps run out", () => {
    it("keeps the order right through 60 moves to position 1 of the same column", async () => {
      await fileMany(6, "todo");
      let expected = await storedColumns();
      let smallestGap = Infinity;
      for (let step = 1; step <= 60; step += 1) {
        // The bottom card to the second place: the gap after the top card halves every time.
        const card = expected.todo.at(-1)!;
        await expectMoved(card, "todo", 1, at(step));
        expected = applyMove(expected, { issueId: card, status: "todo", position: 1 });
        expect(await boardColumns(), `after move ${step}`).toEqual(expected);
        const orders = await sortOrders("todo");
        expect(new Set(orders).size, `distinct sort_order after move ${step}: ${orders.join(", ")}`).toBe(6);
        for (let i = 1; i < orders.length; i += 1) smallestGap = Math.min(smallestGap, orders[i]! - orders[i - 1]!);
      }
      // Without renumbering, 60 halvings would leave gaps of 2^-60 — below a double's precision near 1.
      expect(smallestGap).toBeGreaterThan(1e-9);
      expect(await activitiesOf(expected.todo[0]!)).toHaveLength(1);
    });

    it("keeps the order right through 60 moves between two columns, each to position 1", async () => {
      await fileMany(5, "todo");
      await fileMany(5, "in_progress");
      let expected = await storedColumns();
      for (let step = 1; step <= 60; step += 1) {
        const [from, to]: [Status, Status] = step % 2 ? ["todo", "in_progress"] : ["in_progress", "todo"];
        const card = expected[from].at(-1)!;
        await expectMoved(card, to, 1, at(step));
        expected = applyMove(expected, { issueId: card, status: to, position: 1 });
        expect(await boardColumns(), `after move ${step}`).toEqual(expected);
        for (const status of ["todo", "in_progress"] as const) {
          const orders = await sortOrders(status);
          expect(new Set(orders).size, `distinct ${status} sort_order after move ${step}: ${orders.join(", ")}`).toBe(orders.length);
        }
      }
      // Every move between the columns wrote its one activity and version.
      const { count } = await db
        .selectFrom("activities")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("kind", "=", "status")
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(60);
      const versions = await db.selectFrom("issues").select((eb) => eb.fn.sum<number>("version").as("sum")).where("project_id", "=", web.id).executeTakeFirstOrThrow();
      expect(Number(versions.sum)).toBe(10 + 60);
    });

    it("keeps the order right through 60 moves to the top and to the bottom", async () => {
      await fileMany(4, "todo");
      let expected = await storedColumns();
      for (let step = 1; step <= 60; step += 1) {
        const toTop = step % 2 === 1;
        const card = toTop ? expected.todo.at(-1)! : expected.todo[0]!;
        await expectMoved(card, "todo", toTop ? 0 : 3, at(step));
        expected = applyMove(expected, { issueId: card, status: "todo", position: toTop ? 0 : 3 });
        expect(await boardColumns(), `after move ${step}`).toEqual(expected);
      }
    });
  });

  describe("moves at the same moment through two database handles", () => {
    /**
     * A log of every sort_order write, in the order the transactions made them. Moves are
     * serialised (a lock on the workspace row), so its order is the order the moves committed in;
     * replaying it on a plain picture of the board must give the board the database ends with.
     */
    async function logSortOrderWrites() {
      if (dialect === "postgres") {
        await sql`create table test_move_log (seq serial primary key, issue_id integer not null, status text not null)`.execute(db);
        await sql`create function test_move_log_write() returns trigger language plpgsql as $$
          begin insert into test_move_log (issue_id, status) values (new.id, new.status); return new; end $$`.execute(db);
        await sql`create trigger test_move_log_trigger after update of sort_order on issues for each row execute function test_move_log_write()`.execute(db);
      } else {
        await sql`create table test_move_log (seq integer primary key autoincrement, issue_id integer not null, status text not null)`.execute(db);
        await sql`create trigger test_move_log_trigger after update of sort_order on issues begin
          insert into test_move_log (issue_id, status) values (new.id, new.status); end`.execute(db);
      }
    }

    async function moveLog(): Promise<{ issueId: number; status: Status }[]> {
      const { rows } = await sql<{ issue_id: number; status: Status }>`select issue_id, status from test_move_log order by seq`.execute(db);
      return rows.map((r) => ({ issueId: Number(r.issue_id), status: r.status }));
    }

    /** Runs `moves` at once, alternating between two handles (two processes on SQLite). */
    async function moveOnTwoHandles(moves: Move[]): Promise<MoveResult[]> {
      const halves = [moves.filter((_, i) => i % 2 === 0), moves.filter((_, i) => i % 2 === 1)];
      if (dialect === "postgres") {
        const two = [database.open(), database.open()];
        handles.push(...two);
        // Both pools connected before the moves start, so that they overlap.
        await Promise.all(two.map((h) => sql`select 1`.execute(h.db)));
        return Promise.all(
          halves.flatMap((half, i) =>
            half.map((m) =>
              move(m.issueId, m.status, m.position, at(30), two[i]!.db).catch((error: unknown) => ({ error: String((error as { code?: string }).code ?? error) })),
            ),
          ),
        );
      }
      const perInstance = halves.map((half) => half.map((m) => ({ ...m, project: { id: web.id, workspace_id: workspaceId }, actorId: grace })));
      return callFromInstances<MoveResult>(database, { module: "/app/issues/board.server.ts", exportName: "moveIssue", now: at(30) }, perInstance, children);
    }

    it("loses no move of 20 made at once, each card to the top of a column, some of the same card", { timeout: 90_000 }, async () => {
      const todo = await fileMany(12, "todo");
      const inProgress = await fileMany(3, "in_progress");
      const backlog = await fileMany(2, "backlog");
      const initial = await storedColumns();
      const all = [...todo, ...inProgress, ...backlog];
      const [m1, m2, m3] = inProgress as [number, number, number];
      const moves: Move[] = [
        // Twelve different cards to the top of In progress.
        ...todo.map((issueId) => ({ issueId, status: "in_progress" as const, position: 0 })),
        // One card three times, to three columns.
        { issueId: m1, status: "todo", position: 0 },
        { issueId: m1, status: "done", position: 0 },
        { issueId: m1, status: "in_review", position: 0 },
        // Cards moved twice, and within their own column.
        { issueId: todo[0]!, status: "done", position: 0 },
        { issueId: todo[1]!, status: "in_progress", position: 0 },
        { issueId: m2, status: "in_progress", position: 0 },
        { issueId: todo[2]!, status: "todo", position: 0 },
        { issueId: backlog[1]!, status: "backlog", position: 0 },
      ];
      expect(moves).toHaveLength(20);
      await logSortOrderWrites();

      const results = await moveOnTwoHandles(moves);
      expect(results, JSON.stringify(results)).toEqual(moves.map(() => ({ ok: true })));

      // Every move was made, one after the other (a move to position 0 writes one sort_order).
      const log = await moveLog();
      expect(log).toHaveLength(20);
      const made = (m: { issueId: number; status: Status }) => `${m.issueId}→${m.status}`;
      expect(log.map(made).sort()).toEqual(moves.map(made).sort());

      // Replaying them in that order gives the board the database holds.
      const replayed = log.reduce((columns, m) => applyMove(columns, { ...m, position: 0 }), initial);
      const final = await boardColumns();
      expect(final).toEqual(replayed);

      // At the least: every card once, distinct sort_order per column, each moved card in the
      // column its last move took it to.
      const shown = statuses.flatMap((s) => final[s]);
      expect([...shown].sort((x, y) => x - y)).toEqual([...all].sort((x, y) => x - y));
      for (const status of statuses) {
        const orders = await sortOrders(status);
        expect(new Set(orders).size, `${status}: ${orders.join(", ")}`).toBe(orders.length);
      }
      const lastTarget = new Map(log.map((m) => [m.issueId, m.status]));
      for (const [issueId, status] of lastTarget) expect(final[status], `card ${issueId}`).toContain(issueId);
      for (const issueId of todo.slice(3)) expect(final.in_progress).toContain(issueId);
      expect(final.in_progress).toContain(m2);
      expect(final.in_progress).toContain(m3);
      expect(final.backlog).toEqual([backlog[1], backlog[0]]);

      // Each change of column wrote one activity and one version, none more, none lost.
      const statusOf = new Map(all.map((id) => [id, statuses.find((s) => initial[s].includes(id))!]));
      const changes = new Map<number, [string, string][]>();
      for (const m of log) {
        const from = statusOf.get(m.issueId)!;
        if (from !== m.status) changes.set(m.issueId, [...(changes.get(m.issueId) ?? []), [from, m.status]]);
        statusOf.set(m.issueId, m.status);
      }
      for (const id of all) {
        const expectedChanges = changes.get(id) ?? [];
        const activities = (await activitiesOf(id)).filter((a) => a.kind === "status");
        expect(
          activities.map((a) => [a.from_value, a.to_value, a.issue_version]),
          `activities of card ${id}`,
        ).toEqual(expectedChanges.map(([from, to], i) => [from, to, i + 2]));
        const row = await issueRow(id);
        expect(row.version, `version of card ${id}`).toBe(1 + expectedChanges.length);
        expect(row.status).toBe(statusOf.get(id));
        expect(row.closed_at === null, `closed_at of card ${id} in ${row.status}`).toBe(!["done", "canceled"].includes(row.status));
      }
    });

    it("loses no move of 20 made at once to positions in the middle of two columns", { timeout: 90_000 }, async () => {
      // Two cards stay at the top of each column, so that every position asked for exists.
      const [a1, a2] = (await fileMany(2, "todo", "anchor")) as [number, number];
      const todo = await fileMany(10, "todo");
      const [b1, b2] = (await fileMany(2, "in_progress", "anchor")) as [number, number];
      const inProgress = await fileMany(10, "in_progress");
      const initial = await storedColumns();
      // Every card of Todo to position 2 of In progress, every card of In progress to position 1 of Todo.
      const moves: Move[] = [
        ...todo.map((issueId) => ({ issueId, status: "in_progress" as const, position: 2 })),
        ...inProgress.map((issueId) => ({ issueId, status: "todo" as const, position: 1 })),
      ];
      await logSortOrderWrites();
      const results = await moveOnTwoHandles(moves);
      expect(results, JSON.stringify(results)).toEqual(moves.map(() => ({ ok: true })));

      const log = await moveLog();
      expect(log).toHaveLength(20);
      const positionOf = (m: { issueId: number; status: Status }) => moves.find((x) => x.issueId === m.issueId && x.status === m.status)!.position;
      const replayed = log.reduce((columns, m) => applyMove(columns, { ...m, position: positionOf(m) }), initial);
      const final = await boardColumns();
      expect(final).toEqual(replayed);

      expect(final.todo[0]).toBe(a1);
      expect(final.in_progress.slice(0, 2)).toEqual([b1, b2]);
      expect([...final.todo].sort((x, y) => x - y)).toEqual([a1, a2, ...inProgress].sort((x, y) => x - y));
      expect([...final.in_progress].sort((x, y) => x - y)).toEqual([b1, b2, ...todo].sort((x, y) => x - y));
      for (const status of ["todo", "in_progress"] as const) {
        const orders = await sortOrders(status);
        expect(new Set(orders).size, `${status}: ${orders.join(", ")}`).toBe(12);
      }
      const { count } = await db.selectFrom("activities").select((eb) => eb.fn.countAll<number>().as("count")).where("kind", "=", "status").executeTakeFirstOrThrow();
      expect(Number(count)).toBe(20);
      for (const id of [...todo, ...inProgress]) expect((await issueRow(id)).version).toBe(2);
    });
  });
});
