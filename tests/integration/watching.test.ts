import { beforeEach, describe, expect, it } from "vitest";
import { addComment } from "~/comments/comments.server";
import type { Database } from "~/db/database.server";
import { createIssue, findIssueDetail, updateIssue } from "~/issues/issues.server";
import type { ProjectScope } from "~/issues/write-scope.server";
import { unwatchIssue, watchIssue } from "~/issues/watching.server";
import { testDialects } from "../support/databases";
import { withMigratedDatabase } from "../support/migrated-database";
import { issueFields } from "../support/issues";
import { emptyWorkspaceTables, seedTestWorkspace } from "../support/workspaces";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute));

describe.each(testDialects)("watching on %s", (dialect) => {
  let db: Database;
  let web: ProjectScope;
  let api: ProjectScope;
  let people: Record<"Ada" | "Grace" | "Linus" | "Margaret", number>;
  let issueId: number;

  withMigratedDatabase(dialect, (opened) => ({ db } = opened));

  beforeEach(async () => {
    await emptyWorkspaceTables(db);
    const acme = await seedTestWorkspace(db, {
      slug: "acme",
      name: "Acme",
      at: at(0),
      members: { Ada: "admin", Grace: "member", Linus: "member", Margaret: "viewer" },
      projects: { WEB: "Website", API: "API" },
    });
    people = acme.users;
    ({ WEB: web, API: api } = acme.projects);
    await createIssue(db, { project: web, reporterId: people.Ada, fields: issueFields({ title: "Crash on save", assigneeId: people.Grace }), now: at(1) });
    issueId = (await db.selectFrom("issues").select("id").executeTakeFirstOrThrow()).id;
  });

  const watchers = async () =>
    (await db.selectFrom("watches").innerJoin("users", "users.id", "watches.user_id").select("users.name").where("issue_id", "=", issueId).orderBy("users.name").execute()).map(
      (row) => row.name,
    );

  it("has the reporter and the assignee watch a new issue, a new assignee and every commenter too", async () => {
    expect(await watchers()).toEqual(["Ada", "Grace"]);
    await updateIssue(db, { project: web, issueId, actorId: people.Ada, version: 1, changes: { assigneeId: people.Linus }, now: at(2) });
    expect(await watchers()).toEqual(["Ada", "Grace", "Linus"]);
    // Unassigning adds nobody.
    await updateIssue(db, { project: web, issueId, actorId: people.Ada, version: 2, changes: { assigneeId: null }, now: at(3) });
    expect(await watchers()).toEqual(["Ada", "Grace", "Linus"]);
    await addComment(db, { project: web, issueId, authorId: people.Margaret, body: "Seen it too.", now: at(4) });
    expect(await watchers()).toEqual(["Ada", "Grace", "Linus", "Margaret"]);
  });

  it("watches once however often asked, unwatches, and watches again on the next comment", async () => {
    await watchIssue(db, { project: web, issueId, userId: people.Ada, now: at(2) });
    await watchIssue(db, { project: web, issueId, userId: people.Ada, now: at(3) });
    expect(await watchers()).toEqual(["Ada", "Grace"]);
    await unwatchIssue(db, { project: web, issueId, userId: people.Ada });
    expect(await watchers()).toEqual(["Grace"]);
    expect((await findIssueDetail(db, web.id, 1, people.Ada))?.watching).toBe(false);
    expect((await findIssueDetail(db, web.id, 1, people.Grace))?.watching).toBe(true);
    await addComment(db, { project: web, issueId, authorId: people.Ada, body: "Back on it.", now: at(4) });
    expect(await watchers()).toEqual(["Ada", "Grace"]);
  });

  it("finds no issue through another project", async () => {
    await watchIssue(db, { project: api, issueId, userId: people.Linus, now: at(2) });
    await unwatchIssue(db, { project: api, issueId, userId: people.Grace });
    expect(await watchers()).toEqual(["Ada", "Grace"]);
  });
});
