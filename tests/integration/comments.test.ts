/**
 * Comments on every database (docs/product.md, What is stored, §4 "visible → edited → deleted (soft)", §6): who may edit
 * and delete which, what a deleted comment leaves behind, and the issue's timeline.
 */
import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addComment, type CommentChange, deleteComment, editComment } from "~/comments/comments.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createIssue, findIssueDetail, updateIssue } from "~/issues/issues.server";
import type { ProjectScope } from "~/issues/write-scope.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { issueFields } from "../support/issues";
import { emptyWorkspaceTables, seedTestWorkspace } from "../support/workspaces";

const at = (minute: number) => new Date(Date.UTC(2025, 2, 1, 12, minute));
const ok: CommentChange = { ok: true };
const notFound: CommentChange = { ok: false, status: 404, message: "Comment not found." };
const forbidden: CommentChange = { ok: false, status: 403, message: "You don't have permission to do that." };

const fields = issueFields({ title: "Crash on save", status: "todo" });

describe.each(testDialects)("comments on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  /** A second connection to the same database, as another request or instance has. */
  let other: DatabaseHandle;
  let db: Database;
  let project: ProjectScope;
  let apiProject: ProjectScope;
  /** Ada is an admin of acme; Grace and Linus are members. */
  let ada: number;
  let grace: number;
  let linus: number;
  /** WEB-1 and WEB-2. */
  let issue: number;
  let otherIssue: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
    other = database.open();
  });

  afterAll(async () => {
    await other?.db.destroy();
    await handle?.db.destroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await emptyWorkspaceTables(db);
    const acme = await seedTestWorkspace(db, {
      slug: "acme",
      name: "Acme",
      at: at(0),
      members: { Ada: "admin", Grace: "member", Linus: "member" },
      projects: { WEB: "Website", API: "API" },
    });
    ({ Ada: ada, Grace: grace, Linus: linus } = acme.users);
    project = acme.projects.WEB;
    apiProject = acme.projects.API;
    for (const title of ["Crash on save", "Slow search"]) {
      await createIssue(db, { project, reporterId: ada, fields: { ...fields, title }, now: at(0) });
    }
    const ids = await db.selectFrom("issues").select(["id", "number"]).orderBy("number").execute();
    issue = ids[0]!.id;
    otherIssue = ids[1]!.id;
  });

  /** The timeline of WEB-`number` as the issue page reads it. */
  const timelineOf = async (number: number) => (await findIssueDetail(db, project.id, number, ada))!.timeline;

  /** Adds a comment and returns its id. */
  async function comment(authorId: number, body: string, minute: number, onIssue = issue): Promise<number> {
    await addComment(db, { project, issueId: onIssue, authorId, body, now: at(minute) });
    const row = await db
      .selectFrom("comments")
      .select("id")
      .where("issue_id", "=", onIssue)
      .where("author_id", "=", authorId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const commentRow = (id: number) => db.selectFrom("comments").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const edit = (commentId: number, actorId: number, body: string, options: { minute?: number; onIssue?: number } = {}) =>
    editComment(db, { project, issueId: options.onIssue ?? issue, commentId, actorId, body, now: at(options.minute ?? 30) });
  const remove = (commentId: number, actorId: number, options: { canDeleteAny?: boolean; minute?: number; onIssue?: number } = {}) =>
    deleteComment(db, { project, issueId: options.onIssue ?? issue, commentId, actorId, canDeleteAny: options.canDeleteAny ?? false, now: at(options.minute ?? 40) });
  const activityKinds = async (issueId = issue) =>
    (await db.selectFrom("activities").select("kind").where("issue_id", "=", issueId).orderBy("id").execute()).map((a) => a.kind);

  it("adds a comment and touches the issue", async () => {
    const id = await comment(grace, "I can reproduce this.", 5);
    expect(await commentRow(id)).toMatchObject({
      issue_id: issue,
      author_id: grace,
      body: "I can reproduce this.",
      edited_at: null,
      deleted_at: null,
      created_at: at(5).toISOString(),
      updated_at: at(5).toISOString(),
    });
    const touched = await db.selectFrom("issues").select(["updated_at", "version"]).where("id", "=", issue).executeTakeFirstOrThrow();
    expect(touched).toEqual({ updated_at: at(5).toISOString(), version: 1 });
    // A comment is no change of a field: no activity row.
    expect(await activityKinds()).toEqual(["created"]);
  });

  it("lets the author edit their comment, which then shows as edited", async () => {
    const id = await comment(grace, "Typo hre.", 5);
    expect(await edit(id, grace, "Typo here.", { minute: 7 })).toEqual(ok);
    expect(await commentRow(id)).toMatchObject({ body: "Typo here.", edited_at: at(7).toISOString(), updated_at: at(7).toISOString(), deleted_at: null });
    const [entry] = (await timelineOf(1)).filter((e) => e.type === "comment");
    expect(entry).toMatchObject({ id, body: "Typo here.", edited: true, deleted: false, authorId: grace, authorName: "Grace", at: at(5).toISOString() });
  });

  it("refuses to let anyone else edit it — a member or an admin — with 403", async () => {
    const id = await comment(grace, "Mine.", 5);
    expect(await edit(id, linus, "Linus was here.")).toEqual(forbidden);
    expect(await edit(id, ada, "Ada was here.")).toEqual(forbidden);
    expect(await commentRow(id)).toMatchObject({ body: "Mine.", edited_at: null });
  });

  it("lets the author delete their comment: it keeps its place, flagged deleted, with an empty body", async () => {
    const first = await comment(grace, "First.", 5);
    const second = await comment(linus, "Second, to be deleted.", 6);
    const third = await comment(grace, "Third.", 7);
    expect(await remove(second, linus, { minute: 9 })).toEqual(ok);

    expect(await commentRow(second)).toMatchObject({ body: "", deleted_at: at(9).toISOString(), updated_at: at(9).toISOString() });
    const comments = (await timelineOf(1)).filter((e) => e.type === "comment");
    expect(comments.map((c) => [c.id, c.deleted, c.body])).toEqual([
      [first, false, "First."],
      [second, true, ""],
      [third, false, "Third."],
    ]);
    expect(comments[1]).toMatchObject({ at: at(6).toISOString(), authorName: "Linus" });
  });

  it("writes a comment_deleted activity by whoever deleted it, and keeps the issue's version", async () => {
    const id = await comment(grace, "Spam.", 5);
    expect(await remove(id, ada, { canDeleteAny: true, minute: 9 })).toEqual(ok);
    const activity = await db.selectFrom("activities").selectAll().where("issue_id", "=", issue).where("kind", "=", "comment_deleted").execute();
    expect(activity).toEqual([
      expect.objectContaining({ actor_id: ada, kind: "comment_deleted", issue_version: 1, from_value: null, to_value: null, created_at: at(9).toISOString() }),
    ]);
    expect((await db.selectFrom("issues").select("version").where("id", "=", issue).executeTakeFirstOrThrow()).version).toBe(1);
    expect(await activityKinds(otherIssue)).toEqual(["created"]);
    // The timeline names who did it by id too: the issue page joins one person's changes into one line by it.
    const deletion = (await timelineOf(1)).find((e) => e.type === "activity" && e.kind === "comment_deleted");
    expect(deletion).toMatchObject({ actorId: ada, at: at(9).toISOString() });
  });

  it("refuses a member deleting someone else's comment with 403; an admin (canDeleteAny) may", async () => {
    const id = await comment(grace, "Grace's.", 5);
    expect(await remove(id, linus)).toEqual(forbidden);
    // An admin without canDeleteAny (as the route passes it) is a plain member here.
    expect(await remove(id, ada)).toEqual(forbidden);
    expect(await commentRow(id)).toMatchObject({ body: "Grace's.", deleted_at: null });
    expect(await activityKinds()).toEqual(["created"]);

    expect(await remove(id, ada, { canDeleteAny: true })).toEqual(ok);
    expect((await commentRow(id)).deleted_at).toBe(at(40).toISOString());
    // canDeleteAny also covers one's own comment.
    const own = await comment(ada, "Ada's.", 6);
    expect(await remove(own, ada, { canDeleteAny: true })).toEqual(ok);
  });

  it("answers 404 to editing or deleting a deleted comment, and changes nothing", async () => {
    const id = await comment(grace, "Gone soon.", 5);
    expect(await remove(id, grace, { minute: 9 })).toEqual(ok);
    expect(await edit(id, grace, "Back again?")).toEqual(notFound);
    expect(await remove(id, grace)).toEqual(notFound);
    expect(await remove(id, ada, { canDeleteAny: true })).toEqual(notFound);
    expect(await commentRow(id)).toMatchObject({ body: "", edited_at: null, deleted_at: at(9).toISOString() });
    expect(await activityKinds()).toEqual(["created", "comment_deleted"]);
  });

  it("answers 404 to a comment addressed through another issue, or one that does not exist", async () => {
    const id = await comment(grace, "On WEB-1.", 5);
    expect(await edit(id, grace, "Through WEB-2.", { onIssue: otherIssue })).toEqual(notFound);
    expect(await remove(id, grace, { onIssue: otherIssue })).toEqual(notFound);
    expect(await remove(id, ada, { onIssue: otherIssue, canDeleteAny: true })).toEqual(notFound);
    expect(await edit(987_654, grace, "Nothing.")).toEqual(notFound);
    expect(await remove(987_654, ada, { canDeleteAny: true })).toEqual(notFound);
    expect(await commentRow(id)).toMatchObject({ body: "On WEB-1.", deleted_at: null, edited_at: null });
    expect(await activityKinds(otherIssue)).toEqual(["created"]);
    expect(await activityKinds()).toEqual(["created"]);
  });

  it("finds no issue or comment through another project: comments stay scoped to their project", async () => {
    const id = await comment(grace, "On WEB-1.", 5);
    const issueNotFound = { ok: false, status: 404, message: "Issue not found." };
    expect(await addComment(db, { project: apiProject, issueId: issue, authorId: grace, body: "Through API.", now: at(6) })).toEqual(issueNotFound);
    expect(await editComment(db, { project: apiProject, issueId: issue, commentId: id, actorId: grace, body: "Through API.", now: at(7) })).toEqual(notFound);
    expect(await deleteComment(db, { project: apiProject, issueId: issue, commentId: id, actorId: ada, canDeleteAny: true, now: at(8) })).toEqual(notFound);
    expect(await db.selectFrom("comments").select(["id", "body", "deleted_at"]).where("issue_id", "=", issue).execute()).toEqual([{ id, body: "On WEB-1.", deleted_at: null }]);
    expect(await db.selectFrom("issues").select("updated_at").where("id", "=", issue).executeTakeFirstOrThrow()).toEqual({ updated_at: at(5).toISOString() });
    expect(await activityKinds()).toEqual(["created"]);
  });

  /**
   * A view of the database that, after the first query run through it, waits for `meanwhile` to
   * finish: the interleaving of two requests that chance produces, made certain. `meanwhile` runs on
   * a second handle (a second connection, as another request would have).
   */
  function pausedAfterFirstQuery(meanwhile: () => Promise<unknown>): Database {
    let paused = false;
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      async transformResult(args) {
        if (!paused) {
          paused = true;
          await meanwhile();
        }
        return args.result;
      },
    };
    return db.withPlugin(plugin);
  }

  it("writes one comment_deleted activity when the same comment is deleted twice at once", async () => {
    const id = await comment(grace, "Double-submitted delete.", 5);
    let second: CommentChange | undefined;
    // The first deletion has found the comment alive when the second one runs to its end.
    const first = await deleteComment(pausedAfterFirstQuery(async () => (second = await deleteComment(other.db, { project, issueId: issue, commentId: id, actorId: grace, canDeleteAny: false, now: at(41) }))), {
      project,
      issueId: issue,
      commentId: id,
      actorId: grace,
      canDeleteAny: false,
      now: at(40),
    });
    expect(second).toEqual(ok);
    // Two deletions at once: one deletes (one activity), the other finds nothing left.
    expect(await activityKinds()).toEqual(["created", "comment_deleted"]);
    expect(first).toEqual(notFound);
  });

  it("does not write an edit into a comment deleted since the edit checked it", async () => {
    const id = await comment(grace, "Secret token: abc", 5);
    const edited = await editComment(
      pausedAfterFirstQuery(() => deleteComment(other.db, { project, issueId: issue, commentId: id, actorId: grace, canDeleteAny: false, now: at(39) })),
      { project, issueId: issue, commentId: id, actorId: grace, body: "Secret token: abc (edited)", now: at(40) },
    );
    const row = await commentRow(id);
    expect(row.deleted_at).toBe(at(39).toISOString());
    // An edit racing a deletion never puts text back into a deleted comment.
    expect(row.body).toBe("");
    expect(edited).toEqual(notFound);
  });

  it("orders the timeline by time, comments and activities together, the change first at the same instant", async () => {
    const first = await comment(grace, "First.", 10);
    await updateIssue(db, { project, issueId: issue, actorId: linus, version: 1, changes: { status: "in_progress", priority: "high" }, now: at(20) });
    const second = await comment(linus, "Second.", 30);
    const deleted = await comment(grace, "Oops.", 35);
    expect(await remove(deleted, grace, { minute: 40 })).toEqual(ok);
    // A comment and a change at the same instant: the change was saved first.
    await updateIssue(db, { project, issueId: issue, actorId: grace, version: 2, changes: { status: "done" }, now: at(50) });
    const sameInstant = await comment(grace, "Closing, see above.", 50);
    // Written out of order: an older comment inserted last still sorts by its time.
    const early = await comment(ada, "Early bird.", 5);

    const timeline = await timelineOf(1);
    expect(timeline.map((e) => (e.type === "comment" ? ["comment", e.id, e.at] : ["activity", e.kind, e.at]))).toEqual([
      ["activity", "created", at(0).toISOString()],
      ["comment", early, at(5).toISOString()],
      ["comment", first, at(10).toISOString()],
      ["activity", "status", at(20).toISOString()],
      ["activity", "priority", at(20).toISOString()],
      ["comment", second, at(30).toISOString()],
      ["comment", deleted, at(35).toISOString()],
      ["activity", "comment_deleted", at(40).toISOString()],
      ["activity", "status", at(50).toISOString()],
      ["comment", sameInstant, at(50).toISOString()],
    ]);
    expect(timeline.find((e) => e.type === "activity" && e.kind === "status")).toMatchObject({ actorName: "Linus", from: "todo", to: "in_progress" });
    expect(timeline.find((e) => e.type === "activity" && e.kind === "comment_deleted")).toMatchObject({ actorName: "Grace", from: null, to: null });
    expect(timeline.find((e) => e.type === "comment" && e.id === deleted)).toMatchObject({ deleted: true, body: "" });
    // The other issue's timeline is its own.
    expect((await timelineOf(2)).map((e) => e.type)).toEqual(["activity"]);
  });
});
