/**
 * Sub-issues and relations (app/issues/issue-links.server.ts, decision record 021) on both
 * databases: the limits (100 sub-issues, 5 levels, no cycle), keys of other workspaces (404, as
 * for no issue), relations both ways round, a duplicate closed as canceled, and the activity and
 * versions of every issue a change touches.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/database.server";
import { linkFlagsOfIssues } from "~/issues/issue-link-reads.server";
import { addRelation, removeRelation, setParent } from "~/issues/issue-links.server";
import { createIssue, findIssueDetail } from "~/issues/issues.server";
import type { ProjectScope } from "~/issues/write-scope.server";
import { parseIssueFilters, listIssues } from "~/issues/issue-list.server";
import { testDialects } from "../support/databases";
import { issueFields } from "../support/issues";
import { withMigratedDatabase } from "../support/migrated-database";
import { emptyWorkspaceTables, seedTestWorkspace } from "../support/workspaces";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute));

describe.each(testDialects)("sub-issues and relations on %s", (dialect) => {
  let db: Database;
  let web: ProjectScope;
  let api: ProjectScope;
  let other: ProjectScope;
  let ada: number;
  let grace: number;

  withMigratedDatabase(dialect, (opened) => ({ db } = opened));

  beforeEach(async () => {
    await emptyWorkspaceTables(db);
    const acme = await seedTestWorkspace(db, { slug: "acme", at: at(0), members: { Ada: "admin", Grace: "member" }, projects: { WEB: "Website", API: "API" } });
    ({ Ada: ada, Grace: grace } = acme.users);
    ({ WEB: web, API: api } = acme.projects);
    const globex = await seedTestWorkspace(db, { slug: "globex", at: at(0), projects: { OPS: "Operations" } });
    other = globex.projects.OPS;
  });

  /** Files issues in a project, numbered from 1 there; returns their ids. */
  async function file(project: ProjectScope, count: number, reporterId = ada): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const created = await createIssue(db, { project, reporterId, fields: issueFields({ title: `Issue ${i + 1}` }), now: at(1) });
      if (!("number" in created)) throw new Error("not filed");
      const { id } = await db.selectFrom("issues").select("id").where("project_id", "=", project.id).where("number", "=", created.number).executeTakeFirstOrThrow();
      ids.push(id);
    }
    return ids;
  }

  const issue = (id: number) => db.selectFrom("issues").select(["parent_id", "version", "status", "closed_at"]).where("id", "=", id).executeTakeFirstOrThrow();
  const activity = async (id: number) =>
    (await db.selectFrom("activities").select(["kind", "from_value", "to_value"]).where("issue_id", "=", id).where("kind", "!=", "created").orderBy("id").execute()).map(
      (row) => [row.kind, row.from_value, row.to_value],
    );
  const link = (project: ProjectScope, issueId: number, parentKey: string) => setParent(db, { project, issueId, actorId: grace, parentKey, now: at(5) });

  describe("setParent", () => {
    it("sets, changes and removes a parent in any project of the workspace, with activity on every side and versions bumped", async () => {
      const [parentId, childId] = await file(web, 2);
      const [apiParentId] = await file(api, 1);
      expect(await link(web, childId!, "web-1")).toEqual({ ok: true, changed: true });
      expect(await issue(childId!)).toMatchObject({ parent_id: parentId, version: 2 });
      expect(await issue(parentId!)).toMatchObject({ version: 2 });
      expect(await activity(childId!)).toEqual([["parent", null, "WEB-1"]]);
      expect(await activity(parentId!)).toEqual([["sub_issue", null, "WEB-2"]]);

      expect(await link(web, childId!, "API-1")).toEqual({ ok: true, changed: true });
      expect(await activity(childId!)).toEqual([["parent", null, "WEB-1"], ["parent", "WEB-1", "API-1"]]);
      expect(await activity(parentId!)).toEqual([["sub_issue", null, "WEB-2"], ["sub_issue", "WEB-2", null]]);
      expect(await activity(apiParentId!)).toEqual([["sub_issue", null, "WEB-2"]]);
      // The same parent again changes nothing.
      expect(await link(web, childId!, "API-1")).toEqual({ ok: true, changed: false });

      expect(await link(web, childId!, "")).toEqual({ ok: true, changed: true });
      expect(await issue(childId!)).toMatchObject({ parent_id: null, version: 4 });
      expect(await activity(apiParentId!)).toEqual([["sub_issue", null, "WEB-2"], ["sub_issue", "WEB-2", null]]);
      expect(await link(web, childId!, "")).toEqual({ ok: true, changed: false });
      // Each change is an event of each issue it touched (webhooks read them as issue.updated).
      const types = await db.selectFrom("events").select("type").where("issue_id", "=", childId!).orderBy("id").execute();
      expect(types.map((t) => t.type)).toEqual(["issue.created", "issue.parent_changed", "issue.parent_changed", "issue.parent_changed"]);
    });

    it("takes a bare number as an issue of the same project", async () => {
      const [parentId, childId] = await file(web, 2);
      expect(await link(web, childId!, " 1 ")).toEqual({ ok: true, changed: true });
      expect((await issue(childId!)).parent_id).toBe(parentId);
    });

    it("refuses a key of another workspace exactly as one of no issue (404), and what is no key (400)", async () => {
      const [childId] = await file(web, 1);
      await file(other, 1);
      expect(await link(web, childId!, "OPS-1")).toEqual({ field: "parent", status: 404, message: "Issue OPS-1 not found." });
      expect(await link(web, childId!, "WEB-99")).toEqual({ field: "parent", status: 404, message: "Issue WEB-99 not found." });
      expect(await link(web, childId!, "not a key")).toEqual({ field: "parent", status: 400, message: "Enter an issue key like WEB-12." });
      expect((await issue(childId!)).parent_id).toBeNull();
      // An issue of another project of the URL is not found at all.
      expect(await link(api, childId!, "WEB-1")).toMatchObject({ ok: false, status: 404 });
    });

    it("refuses the issue itself and any cycle", async () => {
      const [a, b, c] = await file(web, 3);
      expect(await link(web, a!, "WEB-1")).toMatchObject({ field: "parent", status: 400, message: "An issue cannot be its own parent." });
      await link(web, b!, "WEB-1");
      await link(web, c!, "WEB-2");
      expect(await link(web, a!, "WEB-3")).toMatchObject({ field: "parent", status: 400, message: "WEB-3 is a sub-issue of WEB-1: an issue cannot be under its own sub-issue." });
      expect(await link(web, a!, "WEB-2")).toMatchObject({ status: 400 });
      expect((await issue(a!)).parent_id).toBeNull();
    });

    it("refuses a sixth level, counting the sub-issues the child brings along", async () => {
      const ids = await file(web, 7);
      // WEB-1 > WEB-2 > WEB-3 > WEB-4 > WEB-5: five levels.
      for (let n = 2; n <= 5; n++) expect(await link(web, ids[n - 1]!, `WEB-${n - 1}`)).toMatchObject({ ok: true });
      expect(await link(web, ids[5]!, "WEB-5")).toMatchObject({ field: "parent", status: 400, message: "Sub-issues go at most 5 levels deep: under WEB-5, WEB-6 would make 6." });
      // WEB-7 > WEB-6 is two levels: under WEB-3 (level 3) they would end at 5, under WEB-4 at 6.
      await link(web, ids[5]!, "WEB-7");
      expect(await link(web, ids[6]!, "WEB-4")).toMatchObject({ status: 400 });
      expect(await link(web, ids[6]!, "WEB-3")).toMatchObject({ ok: true });
      // A new issue filed under the fifth level is refused too, before it is written.
      const refused = await createIssue(db, { project: web, reporterId: ada, fields: issueFields({ title: "Too deep" }), parentKey: "WEB-5", now: at(6) });
      expect(refused).toMatchObject({ field: "parent", status: 400 });
      expect(await db.selectFrom("issues").select("id").where("title", "=", "Too deep").execute()).toEqual([]);
    });

    it(`refuses a 101st sub-issue`, async () => {
      const [parentId] = await file(web, 1);
      const now = at(2).toISOString();
      // 100 sub-issues written directly (the limit is what is tested, not filing them).
      await db
        .insertInto("issues")
        .values(
          Array.from({ length: 100 }, (_, i) => ({
            project_id: web.id,
            number: 100 + i,
            title: `Child ${i}`,
            status: "todo" as const,
            reporter_id: ada,
            parent_id: parentId!,
            assignee_id: null,
            due_date: null,
            closed_at: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      const [loneId] = await file(web, 1);
      expect(await link(web, loneId!, "WEB-1")).toMatchObject({ field: "parent", status: 400, message: "WEB-1 already has 100 sub-issues, the most an issue can have." });
      const created = await createIssue(db, { project: web, reporterId: ada, fields: issueFields({ title: "One more" }), parentKey: "WEB-1", now: at(6) });
      expect(created).toMatchObject({ field: "parent", status: 400 });
    });

    it("files a new issue as a sub-issue, with activity on both sides", async () => {
      const [parentId] = await file(web, 1);
      const created = await createIssue(db, { project: api, reporterId: ada, fields: issueFields({ title: "Part of it" }), parentKey: "WEB-1", now: at(3) });
      expect(created).toEqual({ id: expect.any(Number), number: 1 });
      const child = await db.selectFrom("issues").select(["id", "parent_id", "version"]).where("project_id", "=", api.id).executeTakeFirstOrThrow();
      expect(child).toMatchObject({ parent_id: parentId, version: 1 });
      expect(await activity(child.id)).toEqual([["parent", null, "WEB-1"]]);
      expect(await activity(parentId!)).toEqual([["sub_issue", null, "API-1"]]);
      expect(await createIssue(db, { project: api, reporterId: ada, fields: issueFields({ title: "Elsewhere" }), parentKey: "OPS-1", now: at(3) })).toMatchObject({
        field: "parent",
        status: 404,
      });
    });
  });

  describe("relations", () => {
    const relate = (issueId: number, type: "blocks" | "blocked_by" | "relates_to" | "duplicate_of", targetKey: string, project = web) =>
      addRelation(db, { project, issueId, actorId: grace, type, targetKey, now: at(5) });

    it("stores 'blocked by' as 'blocks' the other way round and shows each side its own view", async () => {
      const [a, b] = await file(web, 2);
      const added = await relate(a!, "blocked_by", "WEB-2");
      expect(added).toMatchObject({ ok: true });
      const rows = await db.selectFrom("issue_relations").select(["from_id", "to_id", "type"]).execute();
      expect(rows).toEqual([{ from_id: b, to_id: a, type: "blocks" }]);
      const pageOf = async (number: number) => (await findIssueDetail(db, web.id, number, ada))!.links.relations.map((r) => [r.view, r.issue.key]);
      expect(await pageOf(1)).toEqual([["blocked_by", "WEB-2"]]);
      expect(await pageOf(2)).toEqual([["blocks", "WEB-1"]]);
      expect(await activity(a!)).toEqual([["relation", null, "blocked_by WEB-2"]]);
      expect(await activity(b!)).toEqual([["relation", null, "blocks WEB-1"]]);
      expect(await issue(a!)).toMatchObject({ version: 2 });
      expect(await issue(b!)).toMatchObject({ version: 2 });
    });

    it("refuses the issue itself, a second relation of the same pair either way round, and keys it cannot see", async () => {
      const [a, b] = await file(web, 2);
      await file(other, 1);
      expect(await relate(a!, "relates_to", "WEB-1")).toEqual({ field: "target", status: 400, message: "An issue cannot be related to itself." });
      await relate(a!, "blocks", "WEB-2");
      expect(await relate(a!, "blocks", "WEB-2")).toEqual({ field: "target", status: 400, message: "WEB-1 is already blocking WEB-2. Remove that relation first." });
      expect(await relate(b!, "relates_to", "WEB-1")).toEqual({ field: "target", status: 400, message: "WEB-2 is already blocked by WEB-1. Remove that relation first." });
      expect(await relate(a!, "relates_to", "OPS-1")).toEqual({ field: "target", status: 404, message: "Issue OPS-1 not found." });
      expect(await db.selectFrom("issue_relations").select("id").execute()).toHaveLength(1);
    });

    it("closes an open duplicate as canceled, with its activity, and shows 'Duplicated by' on the original", async () => {
      const [original, duplicate] = await file(web, 2);
      expect(await relate(duplicate!, "duplicate_of", "WEB-1")).toMatchObject({ ok: true });
      expect(await issue(duplicate!)).toMatchObject({ status: "canceled", closed_at: at(5).toISOString(), version: 2 });
      expect(await activity(duplicate!)).toEqual([
        ["relation", null, "duplicate_of WEB-1"],
        ["status", "backlog", "canceled"],
      ]);
      expect((await findIssueDetail(db, web.id, 1, ada))!.links.relations.map((r) => [r.view, r.issue.key])).toEqual([["duplicated_by", "WEB-2"]]);
      expect(await issue(original!)).toMatchObject({ status: "backlog" });
    });

    it("reaches the workspace's webhooks as issue.updated on both issues, with the relation as each sees it", async () => {
      const [a, b] = await file(web, 2);
      const now = at(0).toISOString();
      const workspaceId = web.workspace_id;
      await db
        .insertInto("webhooks")
        .values({ workspace_id: workspaceId, url: "https://example.com/hook", events: "[]", secret: "whsec_test", created_by: ada, created_at: now, updated_at: now })
        .execute();
      await relate(a!, "blocked_by", "WEB-2");
      const deliveries = await db.selectFrom("webhook_deliveries").select(["issue_id", "type", "payload"]).orderBy("id").execute();
      expect(deliveries.map((d) => [d.issue_id, d.type, (JSON.parse(d.payload) as { data: { changes: unknown } }).data.changes])).toEqual([
        [a, "issue.updated", { relations: { added: [{ type: "blocked_by", issue: "WEB-2" }], removed: [] } }],
        [b, "issue.updated", { relations: { added: [{ type: "blocks", issue: "WEB-1" }], removed: [] } }],
      ]);
      await db.deleteFrom("webhook_deliveries").execute();
      await db.deleteFrom("webhooks").execute();
    });

    it("removes a relation from either side, with activity on both; another issue's relation is not found", async () => {
      const [a, b, c] = await file(web, 3);
      const added = await relate(a!, "relates_to", "WEB-2");
      if (!("relationId" in added)) throw new Error("not added");
      expect(await removeRelation(db, { project: web, issueId: c!, relationId: added.relationId, actorId: grace, now: at(6) })).toMatchObject({ ok: false, status: 404 });
      expect(await removeRelation(db, { project: web, issueId: b!, relationId: added.relationId, actorId: grace, now: at(6) })).toEqual({ ok: true });
      expect(await db.selectFrom("issue_relations").select("id").execute()).toEqual([]);
      expect(await activity(a!)).toEqual([
        ["relation", null, "relates_to WEB-2"],
        ["relation", "relates_to WEB-2", null],
      ]);
      expect(await activity(b!)).toEqual([
        ["relation", null, "relates_to WEB-1"],
        ["relation", "relates_to WEB-1", null],
      ]);
    });
  });

  describe("on pages", () => {
    it("gives the issue page its parent, sub-issues with their progress, and relations, in its one query", async () => {
      await file(web, 4);
      await link(api, (await file(api, 1))[0]!, "WEB-1");
      for (const key of ["WEB-2", "WEB-3"]) await setParent(db, { project: web, issueId: (await idOf(key))!, actorId: ada, parentKey: "WEB-1", now: at(7) });
      await db.updateTable("issues").set({ status: "done" }).where("id", "=", (await idOf("WEB-2"))!).execute();
      const page = await findIssueDetail(db, web.id, 1, ada);
      expect(page!.links.subIssues.map((s) => s.key)).toEqual(["API-1", "WEB-2", "WEB-3"]);
      expect(page!.links.progress).toEqual({ done: 1, total: 3 });
      expect((await findIssueDetail(db, web.id, 2, ada))!.links.parent).toMatchObject({ key: "WEB-1", title: "Issue 1", status: "backlog" });
    });

    it("flags parents' progress and blocked issues on the list, filters by parent, and unblocks once the blocker closes", async () => {
      const ids = await file(web, 4);
      await link(web, ids[1]!, "WEB-1");
      await link(web, ids[2]!, "WEB-1");
      await addRelation(db, { project: web, issueId: ids[3]!, actorId: ada, type: "blocked_by", targetKey: "WEB-2", now: at(8) });
      const list = await listIssues(db, web.id, parseIssueFilters(new URLSearchParams()), ada);
      const byNumber = new Map(list.issues.map((i) => [i.number, i]));
      expect(byNumber.get(1)).toMatchObject({ progress: { done: 0, total: 2 }, blocked: false });
      expect(byNumber.get(4)).toMatchObject({ progress: null, blocked: true });
      const children = await listIssues(db, web.id, parseIssueFilters(new URLSearchParams("parent=web-1")), ada);
      expect(children.issues.map((i) => i.number).sort()).toEqual([2, 3]);
      // A key of another workspace matches nothing.
      expect((await listIssues(db, other.id, parseIssueFilters(new URLSearchParams("parent=WEB-1")), ada)).issues).toEqual([]);
      await db.updateTable("issues").set({ status: "done" }).where("id", "=", ids[1]!).execute();
      const flags = await linkFlagsOfIssues(db, ids);
      expect(flags.progress.get(ids[0]!)).toEqual({ done: 1, total: 2 });
      expect(flags.blocked.size).toBe(0);
    });
  });

  async function idOf(key: string) {
    const [projectKey, number] = key.split("-");
    const row = await db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .select("issues.id")
      .where("projects.key", "=", projectKey!)
      .where("issues.number", "=", Number(number))
      .executeTakeFirst();
    return row?.id;
  }
});
