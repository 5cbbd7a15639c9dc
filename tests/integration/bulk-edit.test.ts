/**
 * Bulk edit on every database (issue 16, docs/product.md "Bulk edit"): one change set on up to 50
 * issues of a project in one transaction, all or nothing; each issue that changes gets its own
 * version, event, activity and notifications, one that already has the value gets none.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/database.server";
import { type BulkChanges, bulkNotFoundMessage, bulkUpdateIssues } from "~/issues/bulk-edit.server";
import type { IssueFields } from "~/issues/issue-fields";
import { createIssue, updateIssue } from "~/issues/issues.server";
import { testDialects } from "../support/databases";
import { withMigratedDatabase } from "../support/migrated-database";
import { issueFields } from "../support/issues";
import { emptyWorkspaceTables, type SeededProject, seedTestWorkspace } from "../support/workspaces";

const t0 = new Date("2025-03-01T12:00:00.000Z");
const t1 = new Date("2025-03-02T08:30:00.000Z");

describe.each(testDialects)("bulk edit on %s", (dialect) => {
  let db: Database;
  let web: SeededProject & { key: string };
  let api: SeededProject & { key: string };
  let foreignProject: SeededProject & { key: string };
  /** Ada owns acme; Grace is a member, Victor a viewer; Oscar owns another workspace. */
  let ada: number;
  let grace: number;
  let victor: number;
  let oscar: number;
  let labels: Record<string, number>;
  let foreignLabel: number;

  const label = (name: string) => labels[name]!;

  withMigratedDatabase(dialect, (opened) => ({ db } = opened));

  beforeEach(async () => {
    await emptyWorkspaceTables(db);
    const acme = await seedTestWorkspace(db, {
      slug: "acme",
      at: t0,
      members: { Ada: "owner", Grace: "member", Victor: "viewer" },
      projects: { WEB: "WEB", API: "API" },
      labels: Object.fromEntries(["Bug", "Frontend", "Docs", "Design", "Backend", "Infra", "Mobile", "Perf", "Ux", "Zeta", "Extra"].map((name) => [name, "blue" as const])),
    });
    const other = await seedTestWorkspace(db, { slug: "other", at: t0, members: { Oscar: "owner" }, projects: { OUT: "OUT" }, labels: { Bug: "blue" } });
    ({ Ada: ada, Grace: grace, Victor: victor } = acme.users);
    oscar = other.users.Oscar;
    web = { ...acme.projects.WEB, key: "WEB" };
    api = { ...acme.projects.API, key: "API" };
    foreignProject = { ...other.projects.OUT, key: "OUT" };
    labels = acme.labels;
    foreignLabel = other.labels.Bug;
  });

  async function file(count: number, overrides: Partial<IssueFields> = {}, project = web, reporterId = ada): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const created = await createIssue(db, { project, reporterId, fields: issueFields({ title: `Issue ${i + 1}`, ...overrides }), now: t0 });
      if (!("number" in created)) throw new Error(JSON.stringify(created));
      const row = await db.selectFrom("issues").select("id").where("project_id", "=", project.id).where("number", "=", created.number).executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return ids;
  }

  const bulk = (issueIds: number[], changes: BulkChanges, options: { actorId?: number; project?: typeof web } = {}) =>
    bulkUpdateIssues(db, { project: options.project ?? web, issueIds, actorId: options.actorId ?? ada, changes, now: t1 });

  /** Each issue's fields as stored, by id. */
  async function issues(ids: number[]) {
    if (!ids.length) return [];
    const rows = await db
      .selectFrom("issues")
      .select(["id", "status", "priority", "assignee_id", "closed_at", "version", "updated_at"])
      .where("id", "in", ids)
      .orderBy("id")
      .execute();
    const labelRows = await db.selectFrom("issue_labels").select(["issue_id", "label_id"]).where("issue_id", "in", ids).execute();
    return rows.map((row) => ({
      ...row,
      labelIds: labelRows
        .filter((l) => l.issue_id === row.id)
        .map((l) => l.label_id)
        .sort((a, b) => a - b),
    }));
  }

  /** The activity rows after creation, per issue: [kind, from, to]. */
  async function activityOf(issueId: number) {
    const rows = await db
      .selectFrom("activities")
      .select(["kind", "from_value", "to_value", "from_user_id", "to_user_id", "actor_id", "issue_version", "created_at"])
      .where("issue_id", "=", issueId)
      .where("kind", "!=", "created")
      .orderBy("id")
      .execute();
    return rows;
  }

  async function count(table: "activities" | "events" | "notifications") {
    const { n } = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return Number(n);
  }

  it("sets the status on each issue with its own version, event and activity row", async () => {
    const ids = await file(3, { status: "todo" });
    const events = await count("events");
    expect(await bulk(ids, { status: "done" })).toEqual({ ok: true, updated: 3, unchanged: 0 });
    for (const issue of await issues(ids)) {
      expect(issue).toMatchObject({ status: "done", closed_at: t1.toISOString(), version: 2, updated_at: t1.toISOString() });
      expect(await activityOf(issue.id)).toEqual([
        { kind: "status", from_value: "todo", to_value: "done", from_user_id: null, to_user_id: null, actor_id: ada, issue_version: 2, created_at: t1.toISOString() },
      ]);
    }
    expect(await count("events")).toBe(events + 3);
    const payloads = await db.selectFrom("events").select(["issue_id", "type"]).where("type", "=", "issue.updated").orderBy("issue_id").execute();
    expect(payloads).toEqual(ids.map((id) => ({ issue_id: id, type: "issue.updated" })));
  });

  it("sets several fields at once: one activity row per field and issue", async () => {
    const ids = await file(2);
    expect(await bulk(ids, { status: "in_progress", priority: "high", assigneeId: grace, addLabelId: label("Bug") })).toEqual({ ok: true, updated: 2, unchanged: 0 });
    for (const issue of await issues(ids)) {
      expect(issue).toMatchObject({ status: "in_progress", priority: 3, assignee_id: grace, labelIds: [label("Bug")], version: 2 });
      expect((await activityOf(issue.id)).map((a) => a.kind)).toEqual(["status", "priority", "assignee", "labels"]);
    }
    // The new assignee hears of each issue once, and now watches each.
    const notified = await db.selectFrom("notifications").select(["issue_id", "reason", "actor_id"]).where("user_id", "=", grace).orderBy("issue_id").execute();
    expect(notified).toEqual(ids.map((id) => ({ issue_id: id, reason: "assigned", actor_id: ada })));
    const watches = await db.selectFrom("watches").select("issue_id").where("user_id", "=", grace).orderBy("issue_id").execute();
    expect(watches.map((w) => w.issue_id)).toEqual(ids);
  });

  it("leaves an issue that already has the value as it is, without activity", async () => {
    const [todo, done] = [...(await file(1, { status: "todo" })), ...(await file(1, { status: "done" }))] as [number, number];
    const [before] = await issues([done]);
    expect(await bulk([todo, done], { status: "done" })).toEqual({ ok: true, updated: 1, unchanged: 1 });
    expect((await issues([done]))[0]).toEqual(before);
    expect(await activityOf(done)).toEqual([]);
    expect(await activityOf(todo)).toHaveLength(1);
    // Nothing to change at all: nothing written, and still a success.
    const activities = await count("activities");
    expect(await bulk([todo, done], { status: "done" })).toEqual({ ok: true, updated: 0, unchanged: 2 });
    expect(await count("activities")).toBe(activities);
  });

  it("adds and removes a label, keeping the issues' other labels", async () => {
    const [plain, tagged] = [...(await file(1)), ...(await file(1, { labelIds: [label("Bug"), label("Docs")] }))] as [number, number];
    expect(await bulk([plain, tagged], { addLabelId: label("Frontend"), removeLabelId: label("Bug") })).toEqual({ ok: true, updated: 2, unchanged: 0 });
    const [a, b] = await issues([plain, tagged]);
    expect(a!.labelIds).toEqual([label("Frontend")]);
    expect(b!.labelIds).toEqual([label("Docs"), label("Frontend")].sort((x, y) => x - y));
    expect(await activityOf(tagged)).toMatchObject([
      { kind: "labels", from_value: JSON.stringify([label("Bug"), label("Docs")].sort((x, y) => x - y)), to_value: JSON.stringify([label("Docs"), label("Frontend")].sort((x, y) => x - y)) },
    ]);
    // Removing a label no issue has changes nothing.
    expect(await bulk([plain, tagged], { removeLabelId: label("Zeta") })).toEqual({ ok: true, updated: 0, unchanged: 2 });
    // Unassigning.
    const assigned = await file(2, { assigneeId: grace });
    expect(await bulk(assigned, { assigneeId: null })).toEqual({ ok: true, updated: 2, unchanged: 0 });
    expect((await issues(assigned)).map((i) => i.assignee_id)).toEqual([null, null]);
  });

  it("bumps each version, so an editor open on an issue meets a conflict", async () => {
    const [id] = (await file(1)) as [number];
    expect(await bulk([id], { priority: "urgent" })).toMatchObject({ ok: true, updated: 1 });
    const stale = await updateIssue(db, { project: web, issueId: id, actorId: grace, version: 1, changes: { title: "Mine" }, now: t1 });
    expect(stale).toEqual({ conflict: { names: ["Ada"], fields: ["priority"] } });
  });

  describe("all or nothing", () => {
    /** Runs a refused edit and checks that nothing at all was written. */
    async function expectRefused(ids: number[], changes: BulkChanges, refusal: unknown, options: { actorId?: number; project?: typeof web } = {}) {
      const before = await issues(ids);
      const written = { activities: await count("activities"), events: await count("events"), notifications: await count("notifications") };
      expect(await bulk(ids, changes, options)).toEqual(refusal);
      expect(await issues(ids)).toEqual(before);
      expect({ activities: await count("activities"), events: await count("events"), notifications: await count("notifications") }).toEqual(written);
    }

    it("refuses the whole edit for one issue of another project or workspace, or none at all, without saying which", async () => {
      const ids = await file(3);
      const [ofApi] = await file(1, {}, api);
      const [outside] = await file(1, {}, foreignProject, oscar);
      const notFound = { field: "issueIds", message: bulkNotFoundMessage };
      await expectRefused([...ids, ofApi!], { status: "done" }, notFound);
      await expectRefused([...ids, outside!], { status: "done" }, notFound);
      await expectRefused([...ids, 987_654], { status: "done" }, notFound);
    });

    it("refuses an assignee who may not be assigned: a viewer, someone of another workspace", async () => {
      const ids = await file(2);
      const problem = { field: "assigneeId", message: "Choose a member of this workspace who can work on issues." };
      await expectRefused(ids, { assigneeId: victor, status: "done" }, problem);
      await expectRefused(ids, { assigneeId: oscar }, problem);
    });

    it("refuses a label of another workspace, and the same label added and removed", async () => {
      const ids = await file(2);
      await expectRefused(ids, { addLabelId: foreignLabel }, { field: "addLabelId", message: "Choose a label of this workspace." });
      await expectRefused(ids, { removeLabelId: foreignLabel }, { field: "removeLabelId", message: "Choose a label of this workspace." });
      await expectRefused(ids, { addLabelId: label("Bug"), removeLabelId: label("Bug") }, { field: "removeLabelId", message: "Choose different labels to add and to remove." });
    });

    it("refuses a label that would give one issue more than 10, naming it", async () => {
      const ten = Object.values(labels).filter((id) => id !== label("Extra")).slice(0, 10);
      const ids = [...(await file(2)), ...(await file(1, { labelIds: ten }))];
      await expectRefused(ids, { addLabelId: label("Extra"), status: "done" }, { field: "addLabelId", message: "WEB-3 already has 10 labels, the most an issue can have." });
      // A label it already has is no eleventh.
      expect(await bulk(ids, { addLabelId: ten[0]! })).toEqual({ ok: true, updated: 2, unchanged: 1 });
    });

    it("refuses no issues, the same issue twice, more than 50, and no change", async () => {
      const ids = await file(51);
      await expectRefused([], { status: "done" }, { field: "issueIds", message: "Select the issues to change." });
      await expectRefused([ids[0]!, ids[0]!], { status: "done" }, { field: "issueIds", message: "Select each issue once." });
      await expectRefused(ids, { status: "done" }, { field: "issueIds", message: "Select at most 50 issues at a time." });
      await expectRefused(ids.slice(0, 2), {}, { field: "changes", message: "Choose a change: a status, a priority, an assignee or a label." });
      // 50 is a page: it goes through, each with its activity.
      expect(await bulk(ids.slice(0, 50), { status: "done" })).toEqual({ ok: true, updated: 50, unchanged: 0 });
      expect(await db.selectFrom("activities").select("issue_id").where("kind", "=", "status").execute()).toHaveLength(50);
    });
  });
});
