/**
 * The issue list's row menus over HTTP, as a browser without JavaScript sends them (DESIGN.md §1,
 * principle 4): intent=status|priority|assignee with the issue's id and version post to the list,
 * which saves through the one write path and redirects back to the page it came from. A bad value
 * is 400, a stale version 409, a viewer or an archived project 403, another project's issue 404 —
 * each refusal named above the list, never a 500. SQLite: the rules do not depend on the database.
 *
 *   acme: Ada (owner), Max (member), Vic (viewer); projects WEB (WEB-1) and OLD (OLD-1, archived).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { BrowserlessClient, signUpOverHttp } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const list = "/w/acme/p/WEB/issues";

/** The page without its scripts (their hydration data repeats the action's answer). */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replaceAll("<!-- -->", "");

describe("the issue list's row menus over HTTP", () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: RunningServer;
  const clients = {} as Record<"ada" | "max" | "vic", BrowserlessClient>;
  const ids = { web1: 0, old1: 0, max: 0, vic: 0 };

  const signUp = (name: string, email: string) => signUpOverHttp(server.url, name, email);

  async function post(path: string, fields: Record<string, string>, client = clients.ada) {
    const response = await client.post(path, fields);
    return { status: response.status, location: response.headers.get("location"), body: await response.text() };
  }

  const issue = (id: number) => handle.db.selectFrom("issues").select(["status", "priority", "assignee_id", "version"]).where("id", "=", id).executeTakeFirstOrThrow();
  const version = async (id: number) => String((await issue(id)).version);

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer(database.env);
    handle = database.open();
    clients.ada = await signUp("Ada Admin", "ada@example.com");
    clients.max = await signUp("Max Member", "max@example.com");
    clients.vic = await signUp("Vic Viewer", "vic@example.com");
    expect((await post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    const workspace = await handle.db.selectFrom("workspaces").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow();
    const users = await handle.db.selectFrom("users").select(["id", "name"]).execute();
    ids.max = users.find((u) => u.name === "Max Member")!.id;
    ids.vic = users.find((u) => u.name === "Vic Viewer")!.id;
    const now = new Date().toISOString();
    for (const [userId, role] of [
      [ids.max, "member"],
      [ids.vic, "viewer"],
    ] as const) {
      await handle.db.insertInto("memberships").values({ workspace_id: workspace.id, user_id: userId, role, created_at: now, updated_at: now }).execute();
    }
    for (const [key, name] of [
      ["WEB", "Website"],
      ["OLD", "Old site"],
    ] as const) {
      expect((await post("/w/acme/projects/new", { name, key, description: "" })).status).toBe(302);
      expect((await post(`/w/acme/p/${key}/issues/new`, { title: `First of ${key}` })).status).toBe(302);
    }
    expect((await post("/w/acme/p/OLD/settings", { intent: "archive" })).status).toBe(302);
    const issues = await handle.db.selectFrom("issues").innerJoin("projects", "projects.id", "issues.project_id").select(["issues.id", "projects.key"]).execute();
    ids.web1 = issues.find((i) => i.key === "WEB")!.id;
    ids.old1 = issues.find((i) => i.key === "OLD")!.id;
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await server?.stop();
    await database?.drop();
  });

  it("renders each row's menus as links that open them, and an open menu as a form of submit buttons", async () => {
    const page = visible(await (await clients.ada.get(list)).text());
    for (const property of ["status", "priority", "assignee"]) expect(page).toContain(`menu=${property}-${ids.web1}`);
    // Only the opened menu is rendered: the closed list has no forms of rows.
    expect(page).not.toContain('name="issueId"');
    const open = visible(await (await clients.ada.get(`${list}?menu=priority-${ids.web1}`)).text());
    expect(open).toMatch(new RegExp(`name="issueId" value="${ids.web1}"`));
    expect(open).toMatch(/<button type="submit" value="urgent"[^>]*name="priority"/);
    expect(open).toMatch(new RegExp(`name="returnTo" value="${list}"`));
  });

  it.each([
    ["status", { status: "in_progress" }, { status: "in_progress" }],
    ["priority", { priority: "high" }, { priority: 3 }],
    ["assignee", { assigneeId: "" }, { assignee_id: null }],
  ] as const)("intent=%s saves the one field and goes back to the list as it was", async (intent, fields, saved) => {
    if (intent === "assignee") {
      expect((await post(list, { intent, issueId: String(ids.web1), version: await version(ids.web1), assigneeId: String(ids.max) })).status).toBe(302);
      expect((await issue(ids.web1)).assignee_id).toBe(ids.max);
    }
    const before = await issue(ids.web1);
    const answer = await post(list, { intent, issueId: String(ids.web1), version: String(before.version), returnTo: `${list}?sort=number`, ...fields });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${list}?sort=number`);
    const after = await issue(ids.web1);
    expect(after).toMatchObject({ ...before, ...saved, version: before.version + 1 });
  });

  it("goes back to the list itself when returnTo leads elsewhere", async () => {
    const answer = await post(list, { intent: "priority", issueId: String(ids.web1), version: await version(ids.web1), priority: "low", returnTo: "https://evil.example/" });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(list);
  });

  it.each([
    ["an unknown status", { intent: "status", status: "someday" }, "Choose a status."],
    ["an unknown priority", { intent: "priority", priority: "extreme" }, "Choose a priority."],
    ["an assignee that is not a number", { intent: "assignee", assigneeId: "abc" }, "Choose a member."],
    ["an unknown intent", { intent: "dance", status: "done" }, "Choose a status, a priority or an assignee."],
  ])("%s → 400 with a message above the list, nothing saved", async (_what, fields, message) => {
    const before = await issue(ids.web1);
    const answer = await post(list, { issueId: String(ids.web1), version: String(before.version), ...fields });
    expect(answer.status).toBe(400);
    expect(visible(answer.body)).toMatch(new RegExp(`role="alert"[^>]*>${message.replace(/[.,]/g, "\\$&")}<`));
    expect(await issue(ids.web1)).toEqual(before);
  });

  it("an assignee who may not be assigned (a viewer) → 400 naming the issue", async () => {
    const before = await issue(ids.web1);
    const answer = await post(list, { intent: "assignee", issueId: String(ids.web1), version: String(before.version), assigneeId: String(ids.vic) });
    expect(answer.status).toBe(400);
    expect(visible(answer.body)).toMatch(/role="alert"[^>]*>WEB-1: /);
    expect(await issue(ids.web1)).toEqual(before);
  });

  it("a malformed issue id or version → 400", async () => {
    for (const fields of [
      { intent: "status", issueId: "abc", version: "1", status: "done" },
      { intent: "status", issueId: String(ids.web1), version: "abc", status: "done" },
      { intent: "priority", version: "1", priority: "high" },
    ] as Record<string, string>[]) {
      expect((await post(list, fields)).status, JSON.stringify(fields)).toBe(400);
    }
  });

  it("a stale version → 409 above the list, naming the issue and who changed what", async () => {
    const stale = await version(ids.web1);
    expect((await post(list, { intent: "priority", issueId: String(ids.web1), version: stale, priority: "urgent" }, clients.max)).status).toBe(302);
    // The refused row may be gone from the reloaded list (filtered out): the message names the issue.
    const answer = await post(`${list}?status=todo`, { intent: "assignee", issueId: String(ids.web1), version: stale, assigneeId: "" });
    expect(answer.status).toBe(409);
    expect(visible(answer.body)).toMatch(/role="alert"[^>]*>WEB-1: This issue was changed by Max Member since you opened it: priority\.</);
    expect((await issue(ids.web1)).priority).toBe(4);
  });

  it("a viewer → 403; an archived project's issue → 403; another project's issue → 404; nothing saved", async () => {
    const before = await issue(ids.web1);
    expect((await post(list, { intent: "status", issueId: String(ids.web1), version: String(before.version), status: "done" }, clients.vic)).status).toBe(403);
    const old = await issue(ids.old1);
    expect((await post("/w/acme/p/OLD/issues", { intent: "status", issueId: String(ids.old1), version: String(old.version), status: "done" })).status).toBe(403);
    expect((await post(list, { intent: "status", issueId: String(ids.old1), version: String(old.version), status: "done" })).status).toBe(404);
    expect(await issue(ids.web1)).toEqual(before);
    expect(await issue(ids.old1)).toEqual(old);
  });

  it("a viewer's list shows the values without menus", async () => {
    const page = visible(await (await clients.vic.get(list)).text());
    expect(page).toMatch(/role="img" aria-label="Status of WEB-1: /);
    expect(page).not.toContain(`menu=status-${ids.web1}`);
  });
});
