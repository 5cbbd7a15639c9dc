/**
 * Issues on every database: numbering per project, the references an issue may hold (assignee,
 * labels), and updateIssue's contract — one activity row per changed field, versions, conflicts
 * that name who changed what, closed_at (docs/product.md, What is stored, §4, §5, §9).
 */
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { addComment, deleteComment } from "~/comments/comments.server";
import type { Database } from "~/db/database.server";
import {
  type Conflict,
  conflictMessage,
  createIssue,
  findIssue,
  parseIssueNumber,
  updateIssue,
} from "~/issues/issues.server";
import type { IssueFields } from "~/issues/issue-fields";
import { testDialects, type TestDatabase, waitForLockWaiters } from "../support/databases";
import { withMigratedDatabase } from "../support/migrated-database";
import { issueFields } from "../support/issues";
import { addMember, emptyWorkspaceTables, insertProject, type SeededProject, seedTestWorkspace } from "../support/workspaces";

const t0 = new Date("2025-03-01T12:00:00.000Z");
const t1 = new Date("2025-03-02T08:30:00.000Z");
const t2 = new Date("2025-03-03T09:15:00.000Z");
const t3 = new Date("2025-03-04T10:45:00.000Z");

const assigneeProblem = { field: "assigneeId", message: "Choose a member of this workspace who can work on issues." };
const foreignLabelProblem = { field: "labelIds", message: "Choose labels of this workspace." };
const tooManyLabelsProblem = { field: "labelIds", message: "An issue can have at most 10 labels." };

const fields = (overrides: Partial<IssueFields> = {}): IssueFields => issueFields({ title: "Login button does nothing", ...overrides });

describe("parseIssueNumber", () => {
  it.each(["1", "7", "42", "2147483647"])("accepts %j", (raw) => {
    expect(parseIssueNumber(raw)).toBe(Number(raw));
  });

  it.each(["0", "-1", "abc", "1.5", "01", "99999999999", "2147483648", "", " 1", "1 ", "1e3", "+1", "0x1", "١"])(
    "rejects %j",
    (raw) => {
      expect(parseIssueNumber(raw)).toBeNull();
    },
  );

  it("rejects undefined", () => {
    expect(parseIssueNumber(undefined)).toBeNull();
  });
});

describe.each(testDialects)("issues on %s", (dialect) => {
  let database: TestDatabase;
  let db: Database;
  let workspaceId: number;
  let otherWorkspaceId: number;
  let web: SeededProject;
  let api: SeededProject;
  /** Ada owns acme; Grace and Linus are members; Victor a viewer; Oscar owns another workspace. */
  let ada: number;
  let grace: number;
  let linus: number;
  let victor: number;
  let oscar: number;
  /** acme's labels by name, and one label of Oscar's workspace. */
  let labels: Record<string, number>;
  let foreignLabel: number;

  withMigratedDatabase(dialect, (opened) => ({ database, db } = opened));

  beforeEach(async () => {
    await emptyWorkspaceTables(db);
    const acme = await seedTestWorkspace(db, {
      slug: "acme",
      at: t0,
      members: { Ada: "owner", Grace: "member", Linus: "member", Victor: "viewer" },
      projects: { WEB: "WEB", API: "API" },
      // Capitalised names: "sorted" is then the same order in JavaScript, SQLite and PostgreSQL.
      labels: Object.fromEntries(
        ["Security", "Bug", "Frontend", "Docs", "Design", "Backend", "Infra", "Mobile", "Perf", "Ux", "Zeta"].map((name) => [name, "blue" as const]),
      ),
    });
    const other = await seedTestWorkspace(db, { slug: "other", at: t0, members: { Oscar: "owner" }, labels: { Bug: "blue" } });
    workspaceId = acme.id;
    otherWorkspaceId = other.id;
    ({ Ada: ada, Grace: grace, Linus: linus, Victor: victor } = acme.users);
    oscar = other.users.Oscar;
    ({ WEB: web, API: api } = acme.projects);
    labels = acme.labels;
    foreignLabel = other.labels.Bug;
  });

  const label = (name: string) => labels[name]!;

  async function create(overrides: Partial<IssueFields> = {}, project = web, now = t0) {
    return createIssue(db, { project, reporterId: ada, fields: fields(overrides), now });
  }

  async function createNumber(overrides: Partial<IssueFields> = {}, project = web, now = t0): Promise<number> {
    const created = await create(overrides, project, now);
    if (!("number" in created)) throw new Error(`not created: ${JSON.stringify(created)}`);
    return created.number;
  }

  async function issueRow(number: number, project = web) {
    return db.selectFrom("issues").selectAll().where("project_id", "=", project.id).where("number", "=", number).executeTakeFirstOrThrow();
  }

  async function labelIdsOf(issueId: number) {
    const rows = await db.selectFrom("issue_labels").select("label_id").where("issue_id", "=", issueId).execute();
    return rows.map((r) => r.label_id).sort((a, b) => a - b);
  }

  /** The activity rows of an issue, an assignee's values as their user id (as text). */
  async function activitiesOf(issueId: number) {
    const rows = await db
      .selectFrom("activities")
      .select(["kind", "actor_id", "issue_version", "from_value", "to_value", "from_user_id", "to_user_id", "created_at"])
      .where("issue_id", "=", issueId)
      .orderBy("id")
      .execute();
    return rows.map(({ from_user_id, to_user_id, ...row }) => ({
      ...row,
      from_value: row.from_value ?? (from_user_id === null ? null : String(from_user_id)),
      to_value: row.to_value ?? (to_user_id === null ? null : String(to_user_id)),
    }));
  }

  /** Label ids as activity keeps them: JSON, in order. */
  const labelValue = (...names: string[]) => JSON.stringify(names.map(label).sort((a, b) => a - b));

  async function issueCount() {
    const { count } = await db.selectFrom("issues").select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    return Number(count);
  }

  const update = (
    issueId: number,
    version: number,
    changes: Partial<IssueFields>,
    options: { actorId?: number; now?: Date; project?: SeededProject } = {},
  ) => updateIssue(db, { project: options.project ?? web, issueId, actorId: options.actorId ?? ada, version, changes, now: options.now ?? t1 });

  describe("numbering", () => {
    it("starts at 1 in each project, counts independently, and never reuses a number", async () => {
      expect(await createNumber()).toBe(1);
      expect(await createNumber()).toBe(2);
      expect(await createNumber({}, api)).toBe(1);
      expect(await createNumber()).toBe(3);
      expect(await createNumber({}, api)).toBe(2);

      // WEB-3 goes away (deleted by hand): its number is not handed out again.
      await db.deleteFrom("issues").where("project_id", "=", web.id).where("number", "=", 3).execute();
      expect(await createNumber()).toBe(4);
      const numbers = await db.selectFrom("issues").select("number").where("project_id", "=", web.id).orderBy("number").execute();
      expect(numbers.map((n) => n.number)).toEqual([1, 2, 4]);

      // A project of another workspace starts at 1 as well.
      const other = await insertProject(db, { workspaceId: otherWorkspaceId, key: "WEB", name: "WEB", at: t0 });
      expect(await createIssue(db, { project: other, reporterId: oscar, fields: fields(), now: t0 })).toEqual({ id: expect.any(Number), number: 1 });
    });

    it("takes no number for an issue it refuses", async () => {
      expect(await createNumber()).toBe(1);
      expect(await create({ assigneeId: victor })).toEqual(assigneeProblem);
      expect(await create({ labelIds: [foreignLabel] })).toEqual(foreignLabelProblem);
      expect(await createNumber()).toBe(2);
    });

    it("stores what was filed, at version 1, with a 'created' activity", async () => {
      const number = await createNumber({
        title: "Crash on save",
        description: "Steps:\n1. save",
        status: "todo",
        priority: "high",
        assigneeId: grace,
        labelIds: [label("Frontend"), label("Bug")],
        dueDate: "2025-04-30",
      });
      const row = await issueRow(number);
      expect(row).toMatchObject({
        number: 1,
        title: "Crash on save",
        description: "Steps:\n1. save",
        status: "todo",
        priority: 3,
        assignee_id: grace,
        reporter_id: ada,
        due_date: "2025-04-30",
        closed_at: null,
        version: 1,
        created_at: t0.toISOString(),
        updated_at: t0.toISOString(),
      });
      expect(await labelIdsOf(row.id)).toEqual([label("Frontend"), label("Bug")].sort((a, b) => a - b));
      expect(await activitiesOf(row.id)).toEqual([
        { kind: "created", actor_id: ada, issue_version: 1, from_value: null, to_value: null, created_at: t0.toISOString() },
      ]);

      expect(await findIssue(db, web.id, number)).toMatchObject({
        id: row.id,
        number: 1,
        title: "Crash on save",
        status: "todo",
        priority: "high",
        assigneeName: "Grace",
        reporterName: "Ada",
        due_date: "2025-04-30",
        version: 1,
        labels: [
          { id: label("Bug"), name: "Bug", color: "blue" },
          { id: label("Frontend"), name: "Frontend", color: "blue" },
        ],
      });
      expect(await findIssue(db, web.id, 2)).toBeUndefined();
      expect(await findIssue(db, api.id, 1)).toBeUndefined();
    });

    it("puts a new issue at the end of its status column", async () => {
      await createNumber({ status: "todo" });
      await createNumber({ status: "todo" });
      await createNumber({ status: "done" });
      const orders = await db.selectFrom("issues").select(["number", "sort_order"]).where("project_id", "=", web.id).orderBy("number").execute();
      expect(orders.map((o) => Number(o.sort_order))).toEqual([1, 2, 1]);
    });
  });

  describe("createIssue", () => {
    it("sets closed_at when filed as done or canceled, and not when open", async () => {
      expect((await issueRow(await createNumber({ status: "done" }, web, t1))).closed_at).toBe(t1.toISOString());
      expect((await issueRow(await createNumber({ status: "canceled" }, web, t2))).closed_at).toBe(t2.toISOString());
      for (const status of ["backlog", "todo", "in_progress", "in_review"] as const) {
        expect((await issueRow(await createNumber({ status }))).closed_at).toBeNull();
      }
    });

    it("assigns to a member, an admin or the owner, never to a viewer or an outsider", async () => {
      await addMember(db, { workspaceId, userId: oscar, role: "admin", at: t0 });
      for (const assignee of [grace, ada, oscar]) {
        expect(await create({ assigneeId: assignee })).toEqual({ id: expect.any(Number), number: expect.any(Number) });
      }
      await db.deleteFrom("memberships").where("workspace_id", "=", workspaceId).where("user_id", "=", oscar).execute();
      const before = await issueCount();
      expect(await create({ assigneeId: victor })).toEqual(assigneeProblem);
      expect(await create({ assigneeId: oscar })).toEqual(assigneeProblem);
      expect(await create({ assigneeId: 987_654 })).toEqual(assigneeProblem);
      expect(await issueCount()).toBe(before);
    });

    it("takes labels of its own workspace only, at most 10 of them", async () => {
      const ten = Object.values(labels).slice(0, 10);
      const number = await createNumber({ labelIds: ten });
      expect(await labelIdsOf((await issueRow(number)).id)).toEqual([...ten].sort((a, b) => a - b));

      const before = await issueCount();
      expect(await create({ labelIds: Object.values(labels) })).toEqual(tooManyLabelsProblem);
      expect(await create({ labelIds: [label("Bug"), foreignLabel] })).toEqual(foreignLabelProblem);
      expect(await create({ labelIds: [987_654] })).toEqual(foreignLabelProblem);
      expect(await issueCount()).toBe(before);

      // The same label twice is one label.
      const twice = await createNumber({ labelIds: [label("Bug"), label("Bug")] });
      expect(await labelIdsOf((await issueRow(twice)).id)).toEqual([label("Bug")]);
    });
  });

  describe("updateIssue", () => {
    let issue: { id: number; number: number };

    beforeEach(async () => {
      const number = await createNumber({ title: "Old title", description: "Old text" });
      issue = { id: (await issueRow(number)).id, number };
    });

    const changesSince = async (count: number) => (await activitiesOf(issue.id)).slice(count);

    it("finds no issue through another project, and changes nothing", async () => {
      expect(await update(issue.id, 1, { title: "Through API" }, { project: api })).toEqual({ ok: false, status: 404, message: "Issue not found." });
      expect(await issueRow(issue.number)).toMatchObject({ title: "Old title", version: 1 });
      expect(await changesSince(1)).toEqual([]);
    });

    it("writes one activity row per changed field, with values (keys and ids), and bumps the version once per save", async () => {
      const steps: [Partial<IssueFields>, { kind: string; from_value: string | null; to_value: string | null }][] = [
        [{ title: "New title" }, { kind: "title", from_value: "Old title", to_value: "New title" }],
        [{ description: "New text" }, { kind: "description", from_value: null, to_value: null }],
        [{ status: "in_progress" }, { kind: "status", from_value: "backlog", to_value: "in_progress" }],
        [{ status: "in_review" }, { kind: "status", from_value: "in_progress", to_value: "in_review" }],
        [{ priority: "urgent" }, { kind: "priority", from_value: "none", to_value: "urgent" }],
        [{ priority: "low" }, { kind: "priority", from_value: "urgent", to_value: "low" }],
        [{ assigneeId: grace }, { kind: "assignee", from_value: null, to_value: String(grace) }],
        [{ assigneeId: linus }, { kind: "assignee", from_value: String(grace), to_value: String(linus) }],
        [{ assigneeId: null }, { kind: "assignee", from_value: String(linus), to_value: null }],
        [{ labelIds: [label("Security"), label("Bug")] }, { kind: "labels", from_value: null, to_value: labelValue("Bug", "Security") }],
        [
          { labelIds: [label("Frontend"), label("Security"), label("Bug")] },
          { kind: "labels", from_value: labelValue("Bug", "Security"), to_value: labelValue("Bug", "Frontend", "Security") },
        ],
        [{ dueDate: "2025-05-01" }, { kind: "due_date", from_value: null, to_value: "2025-05-01" }],
        [{ dueDate: "2025-06-15" }, { kind: "due_date", from_value: "2025-05-01", to_value: "2025-06-15" }],
        [{ dueDate: null }, { kind: "due_date", from_value: "2025-06-15", to_value: null }],
      ];
      let version = 1;
      for (const [changes, expected] of steps) {
        const before = (await activitiesOf(issue.id)).length;
        expect(await update(issue.id, version, changes, { actorId: grace, now: t2 }), JSON.stringify(changes)).toEqual({ ok: true, changed: true });
        version += 1;
        expect(await changesSince(before), JSON.stringify(changes)).toEqual([
          { ...expected, actor_id: grace, issue_version: version, created_at: t2.toISOString() },
        ]);
        expect((await issueRow(issue.number)).version).toBe(version);
      }
      const row = await issueRow(issue.number);
      expect(row).toMatchObject({
        title: "New title",
        description: "New text",
        status: "in_review",
        priority: 1,
        assignee_id: null,
        due_date: null,
        updated_at: t2.toISOString(),
      });
      expect(await labelIdsOf(issue.id)).toEqual([label("Bug"), label("Frontend"), label("Security")].sort((a, b) => a - b));
    });

    it("writes one row per field when several change in one save, all with the new version", async () => {
      const saved = await update(issue.id, 1, {
        title: "Old title",
        status: "todo",
        priority: "medium",
        assigneeId: grace,
        labelIds: [label("Ux"), label("Backend")],
        dueDate: "2025-12-31",
      });
      expect(saved).toEqual({ ok: true, changed: true });
      const rows = await changesSince(1);
      expect(rows.map((r) => [r.kind, r.from_value, r.to_value])).toEqual(
        expect.arrayContaining([
          ["status", "backlog", "todo"],
          ["priority", "none", "medium"],
          ["assignee", null, String(grace)],
          ["labels", null, labelValue("Backend", "Ux")],
          ["due_date", null, "2025-12-31"],
        ]),
      );
      expect(rows).toHaveLength(5);
      expect(new Set(rows.map((r) => r.issue_version))).toEqual(new Set([2]));
      expect((await issueRow(issue.number)).version).toBe(2);
    });

    it("writes nothing and keeps the version when nothing changed", async () => {
      await update(issue.id, 1, { assigneeId: grace, labelIds: [label("Bug"), label("Docs")], dueDate: "2025-05-01", priority: "high" });
      const before = await issueRow(issue.number);
      const activities = (await activitiesOf(issue.id)).length;
      const same = {
        title: "Old title",
        description: "Old text",
        status: "backlog",
        priority: "high",
        assigneeId: grace,
        // Another order, and a repeat: the same set.
        labelIds: [label("Docs"), label("Bug"), label("Docs")],
        dueDate: "2025-05-01",
      } satisfies IssueFields;
      expect(await update(issue.id, 2, same, { now: t3 })).toEqual({ ok: true, changed: false });
      expect(await update(issue.id, 2, {}, { now: t3 })).toEqual({ ok: true, changed: false });
      expect((await activitiesOf(issue.id)).length).toBe(activities);
      expect(await issueRow(issue.number)).toEqual(before);

      // One changed field among unchanged ones writes exactly one row.
      expect(await update(issue.id, 2, { ...same, title: "Renamed" }, { now: t3 })).toEqual({ ok: true, changed: true });
      expect((await changesSince(activities)).map((a) => a.kind)).toEqual(["title"]);
      expect((await issueRow(issue.number)).version).toBe(3);
    });

    it("refuses a stale version with a conflict naming who changed what, and saves nothing", async () => {
      // Ada opened the issue at version 1; Grace changes its status and assignee.
      expect(await update(issue.id, 1, { status: "in_progress", assigneeId: grace }, { actorId: grace })).toEqual({ ok: true, changed: true });
      const before = await issueRow(issue.number);
      const saved = await update(issue.id, 1, { title: "Ada's title", status: "done" }, { actorId: ada, now: t2 });
      expect(saved).toEqual({ conflict: { names: ["Grace"], fields: ["status", "assignee"] } });
      expect(conflictMessage(saved as Conflict)).toBe("This issue was changed by Grace since you opened it: status, assignee.");
      expect(await issueRow(issue.number)).toEqual(before);
      expect((await activitiesOf(issue.id)).map((a) => a.kind)).toEqual(["created", "status", "assignee"]);

      // Then Linus sets a due date: both are named, each field once.
      await update(issue.id, 2, { dueDate: "2025-05-01", status: "todo" }, { actorId: linus });
      const twice = await update(issue.id, 1, { title: "Ada's title" }, { actorId: ada });
      expect(twice).toEqual({ conflict: { names: ["Grace", "Linus"], fields: ["status", "assignee", "due date"] } });
      expect(conflictMessage(twice as Conflict)).toBe("This issue was changed by Grace and Linus since you opened it: status, assignee, due date.");
      // At version 2, only Linus's change is news.
      expect(await update(issue.id, 2, { title: "Ada's title" }, { actorId: ada })).toEqual({
        conflict: { names: ["Linus"], fields: ["status", "due date"] },
      });
      // At the current version the save goes through.
      expect(await update(issue.id, 3, { title: "Ada's title" }, { actorId: ada })).toEqual({ ok: true, changed: true });
    });

    it("names a person whose user was deleted as someone", async () => {
      await update(issue.id, 1, { priority: "low" }, { actorId: linus });
      await db.deleteFrom("memberships").where("user_id", "=", linus).execute();
      await db.deleteFrom("users").where("id", "=", linus).execute();
      const saved = await update(issue.id, 1, { title: "x" });
      expect(saved).toEqual({ conflict: { names: ["someone"], fields: ["priority"] } });
      expect(conflictMessage(saved as Conflict)).toBe("This issue was changed by someone since you opened it: priority.");
    });

    it("names only the people who changed the issue, not someone who deleted a comment", async () => {
      // Grace changes the status (version 2); later Linus deletes his comment, which changes no field.
      await update(issue.id, 1, { status: "todo" }, { actorId: grace });
      await addComment(db, { project: web, issueId: issue.id, authorId: linus, body: "Never mind", now: t1 });
      const comment = await db.selectFrom("comments").select("id").where("issue_id", "=", issue.id).executeTakeFirstOrThrow();
      expect(await deleteComment(db, { project: web, issueId: issue.id, commentId: comment.id, actorId: linus, canDeleteAny: false, now: t2 })).toEqual({ ok: true });
      const saved = await update(issue.id, 1, { title: "Ada's title" });
      // A deleted comment is no conflicting edit: only field changes are named.
      expect(saved).toEqual({ conflict: { names: ["Grace"], fields: ["status"] } });
    });

    it("refuses one of two saves racing from the same version", async () => {
      const race = () =>
        Promise.all([
          update(issue.id, 1, { status: "done" }, { actorId: grace }),
          update(issue.id, 1, { priority: "urgent", title: "Linus's title" }, { actorId: linus }),
        ]);
      let results: Awaited<ReturnType<typeof race>>;
      if (dialect === "postgres") {
        // Hold the issue's row lock so that both read version 1, then both wait at their UPDATE.
        const locker = new pg.Client({ connectionString: database.env.DATABASE_URL });
        await locker.connect();
        try {
          await locker.query("begin");
          await locker.query("select id from issues where id = $1 for update", [issue.id]);
          const both = race();
          await waitForLockWaiters(locker, 2);
          await locker.query("commit");
          results = await both;
        } finally {
          await locker.end();
        }
      } else {
        results = await race();
      }
      const winners = results.filter((r) => "ok" in r);
      const losers = results.filter((r): r is Conflict => "conflict" in r);
      expect(winners).toEqual([{ ok: true, changed: true }]);
      expect(losers).toHaveLength(1);
      const row = await issueRow(issue.number);
      expect(row.version).toBe(2);
      const activities = await changesSince(1);
      expect(new Set(activities.map((a) => a.issue_version))).toEqual(new Set([2]));
      // The loser is told who won and what they changed.
      if (row.status === "done") {
        expect(losers[0]).toEqual({ conflict: { names: ["Grace"], fields: ["status"] } });
        expect(activities.map((a) => a.kind)).toEqual(["status"]);
      } else {
        expect(losers[0]).toEqual({ conflict: { names: ["Linus"], fields: ["title", "priority"] } });
        expect(activities.map((a) => a.kind)).toEqual(["title", "priority"]);
      }
    });

    it("sets closed_at on entering done or canceled, keeps it between them, clears it on reopening", async () => {
      expect((await issueRow(issue.number)).closed_at).toBeNull();
      await update(issue.id, 1, { status: "todo" }, { now: t1 });
      expect((await issueRow(issue.number)).closed_at).toBeNull();
      await update(issue.id, 2, { status: "done" }, { now: t1 });
      expect((await issueRow(issue.number)).closed_at).toBe(t1.toISOString());
      await update(issue.id, 3, { status: "canceled" }, { now: t2 });
      expect((await issueRow(issue.number)).closed_at).toBe(t1.toISOString());
      await update(issue.id, 4, { title: "Still closed" }, { now: t2 });
      expect((await issueRow(issue.number)).closed_at).toBe(t1.toISOString());
      await update(issue.id, 5, { status: "in_review" }, { now: t3 });
      expect((await issueRow(issue.number)).closed_at).toBeNull();
      await update(issue.id, 6, { status: "canceled" }, { now: t3 });
      expect((await issueRow(issue.number)).closed_at).toBe(t3.toISOString());
      await update(issue.id, 7, { status: "backlog" }, { now: t3 });
      expect((await issueRow(issue.number)).closed_at).toBeNull();
      expect((await findIssue(db, web.id, issue.number))?.closed_at).toBeNull();
    });

    it("clears the labels with an empty list", async () => {
      await update(issue.id, 1, { labelIds: [label("Bug"), label("Frontend")] });
      expect(await update(issue.id, 2, { labelIds: [] }, { now: t2 })).toEqual({ ok: true, changed: true });
      expect(await labelIdsOf(issue.id)).toEqual([]);
      expect(await changesSince(2)).toEqual([
        { kind: "labels", actor_id: ada, issue_version: 3, from_value: labelValue("Bug", "Frontend"), to_value: null, created_at: t2.toISOString() },
      ]);
      expect((await findIssue(db, web.id, issue.number))?.labels).toEqual([]);
      // Clearing labels that are already clear is no change.
      expect(await update(issue.id, 3, { labelIds: [] })).toEqual({ ok: true, changed: false });
    });

    it("refuses an assignee who is a viewer or not a member, and labels of another workspace or more than 10", async () => {
      const before = await issueRow(issue.number);
      expect(await update(issue.id, 1, { title: "x", assigneeId: victor })).toEqual(assigneeProblem);
      expect(await update(issue.id, 1, { title: "x", assigneeId: oscar })).toEqual(assigneeProblem);
      expect(await update(issue.id, 1, { title: "x", labelIds: [foreignLabel] })).toEqual(foreignLabelProblem);
      expect(await update(issue.id, 1, { title: "x", labelIds: Object.values(labels) })).toEqual(tooManyLabelsProblem);
      expect(await issueRow(issue.number)).toEqual(before);
      expect((await activitiesOf(issue.id)).length).toBe(1);
      // Ten is allowed.
      expect(await update(issue.id, 1, { labelIds: Object.values(labels).slice(0, 10) })).toEqual({ ok: true, changed: true });
      expect((await labelIdsOf(issue.id)).length).toBe(10);
    });

    it("lets an issue keep an assignee who has since become a viewer while other fields are edited", async () => {
      await update(issue.id, 1, { assigneeId: grace });
      await db.updateTable("memberships").set({ role: "viewer" }).where("workspace_id", "=", workspaceId).where("user_id", "=", grace).execute();
      // The edit form sends every field back, the unchanged assignee included.
      const saved = await update(issue.id, 2, { title: "Renamed", assigneeId: grace });
      // An assignee kept as it was is not checked again, so it does not block other edits.
      expect(saved).toEqual({ ok: true, changed: true });
    });
  });
});
