/**
 * The issue list's bulk edit over HTTP, as a browser without JavaScript sends it: one form
 * (intent=bulk, `issueIds` repeated, the change) posts to the list, which changes every selected
 * issue or none, and goes back to the list as it was with "Updated N issues". A refusal is 400 above
 * the list, which comes back with the same boxes ticked and the same change chosen; a viewer or an
 * archived project is 403; issues of another project or workspace are refused without saying so.
 * SQLite: the rules do not depend on the database (tests/integration/bulk-edit.test.ts runs both).
 *
 *   acme: Ada (owner), Max (member), Vic (viewer); WEB-1..3, OLD-1 (archived); labels Bug, Docs.
 *   beta: Oscar (owner); BET-1, label Secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { BrowserlessClient, signUpOverHttp } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const list = "/w/acme/p/WEB/issues";

/** The page without its scripts (their hydration data repeats the action's answer). */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replaceAll("<!-- -->", "");

/** The tag of the box that selects an issue (by its key), or undefined. */
const box = (page: string, key: string) => new RegExp(`<input[^>]*aria-label="Select ${key}"[^>]*>`).exec(page)?.[0];

/** A bulk edit's form body: the ids (repeated), then the change fields. */
function bulkForm(issueIds: (number | string)[], fields: Record<string, string>) {
  const form = new URLSearchParams({ intent: "bulk" });
  for (const id of issueIds) form.append("issueIds", String(id));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

describe("the issue list's bulk edit over HTTP", () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: RunningServer;
  const clients = {} as Record<"ada" | "max" | "vic" | "oscar", BrowserlessClient>;
  const ids = { web: [] as number[], old1: 0, bet1: 0, max: 0, vic: 0, bug: 0, docs: 0, secret: 0 };

  const signUp = (name: string, email: string) => signUpOverHttp(server.url, name, email);

  async function post(path: string, fields: Record<string, string> | URLSearchParams, client = clients.ada) {
    const response = await client.post(path, fields);
    return { status: response.status, location: response.headers.get("location"), body: await response.text() };
  }

  /** The WEB issues as stored, and the number of activity rows of all issues. */
  const state = async () => ({
    issues: await handle.db.selectFrom("issues").select(["id", "status", "priority", "assignee_id", "version"]).orderBy("id").execute(),
    labels: await handle.db.selectFrom("issue_labels").select(["issue_id", "label_id"]).orderBy("issue_id").orderBy("label_id").execute(),
    activities: Number((await handle.db.selectFrom("activities").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n),
  });

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer(database.env);
    handle = database.open();
    clients.ada = await signUp("Ada Admin", "ada@example.com");
    clients.max = await signUp("Max Member", "max@example.com");
    clients.vic = await signUp("Vic Viewer", "vic@example.com");
    clients.oscar = await signUp("Oscar Other", "oscar@example.com");
    expect((await post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    expect((await post("/w/new", { name: "Beta", slug: "beta" }, clients.oscar)).status).toBe(302);
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
    for (const name of ["Bug", "Docs"]) expect((await post("/w/acme/settings/labels", { intent: "create", name, color: "red" })).status).toBe(302);
    expect((await post("/w/beta/settings/labels", { intent: "create", name: "Secret", color: "red" }, clients.oscar)).status).toBe(302);
    expect((await post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" })).status).toBe(302);
    for (const title of ["One", "Two", "Three"]) expect((await post(`${list}/new`, { title, status: "todo" })).status).toBe(302);
    expect((await post("/w/acme/projects/new", { name: "Old site", key: "OLD", description: "" })).status).toBe(302);
    expect((await post("/w/acme/p/OLD/issues/new", { title: "Old one" })).status).toBe(302);
    expect((await post("/w/acme/p/OLD/settings", { intent: "archive" })).status).toBe(302);
    expect((await post("/w/beta/projects/new", { name: "Beta", key: "BET", description: "" }, clients.oscar)).status).toBe(302);
    expect((await post("/w/beta/p/BET/issues/new", { title: "Secret plan" }, clients.oscar)).status).toBe(302);
    const issues = await handle.db.selectFrom("issues").innerJoin("projects", "projects.id", "issues.project_id").select(["issues.id", "projects.key"]).orderBy("issues.id").execute();
    ids.web = issues.filter((i) => i.key === "WEB").map((i) => i.id);
    ids.old1 = issues.find((i) => i.key === "OLD")!.id;
    ids.bet1 = issues.find((i) => i.key === "BET")!.id;
    const labels = await handle.db.selectFrom("labels").select(["id", "name"]).execute();
    ids.bug = labels.find((l) => l.name === "Bug")!.id;
    ids.docs = labels.find((l) => l.name === "Docs")!.id;
    ids.secret = labels.find((l) => l.name === "Secret")!.id;
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await server?.stop();
    await database?.drop();
  });

  it("renders a box per row in the bulk form (by its id), the form with its changes, and every box ticked for ?select=all", async () => {
    const page = visible(await (await clients.ada.get(`${list}?sort=number`)).text());
    const form = /<form[^>]*id="bulk-edit"[^>]*>/.exec(page)?.[0];
    expect(form).toContain('method="post"');
    expect(form).toContain(`action="${list}?sort=number"`);
    expect(page).toContain('name="intent" value="bulk"');
    for (const [n, id] of ids.web.entries()) {
      const tag = box(page, `WEB-${n + 1}`);
      for (const attribute of ['type="checkbox"', 'form="bulk-edit"', 'name="issueIds"', `value="${id}"`]) expect(tag).toContain(attribute);
      expect(tag).not.toContain("checked");
    }
    for (const name of ["status", "priority", "assigneeId", "addLabelId", "removeLabelId"]) expect(page).toContain(`name="${name}"`);
    expect(page).toContain(">Apply to selected<");
    expect(page).toMatch(/href="\/w\/acme\/p\/WEB\/issues\?sort=number&amp;select=all"[^>]*>Select all on this page</);

    const all = visible(await (await clients.ada.get(`${list}?sort=number&select=all`)).text());
    for (const key of ["WEB-1", "WEB-2", "WEB-3"]) expect(box(all, key)).toContain('checked=""');
    expect(all).toMatch(/href="\/w\/acme\/p\/WEB\/issues\?sort=number"[^>]*>Clear selection</);
    // The selection is not where an applied edit goes back to.
    expect(all).toContain(`name="returnTo" value="${list}?sort=number"`);
  });

  it("has no boxes and no bulk form for a viewer, nor on an archived project", async () => {
    for (const [client, path] of [
      [clients.vic, list],
      [clients.ada, "/w/acme/p/OLD/issues"],
    ] as const) {
      const page = visible(await (await client.get(path)).text());
      expect(page).not.toContain('name="issueIds"');
      expect(page).not.toContain('id="bulk-edit"');
    }
  });

  it("changes every selected issue, each with its activity, and goes back to the list as it was with what it did", async () => {
    const [one, two, three] = ids.web as [number, number, number];
    const answer = await post(list, bulkForm([one, two], { status: "in_progress", priority: "", assigneeId: "keep", addLabelId: String(ids.bug), removeLabelId: "", returnTo: `${list}?sort=number&page=1` }));
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${list}?sort=number&page=1`);
    const after = await state();
    expect(after.issues.filter((i) => i.id === one || i.id === two).map((i) => i.status)).toEqual(["in_progress", "in_progress"]);
    expect(after.issues.find((i) => i.id === three)!.status).toBe("todo");
    expect(after.labels.filter((l) => l.label_id === ids.bug).map((l) => l.issue_id)).toEqual([one, two]);
    for (const id of [one, two]) {
      const kinds = await handle.db.selectFrom("activities").select("kind").where("issue_id", "=", id).where("kind", "!=", "created").orderBy("id").execute();
      expect(kinds.map((k) => k.kind)).toEqual(["status", "labels"]);
    }
    // The flash, once, on the page the redirect leads to.
    const landed = visible(await (await clients.ada.get(answer.location!)).text());
    expect(landed).toMatch(/role="status"[^>]*><p>Updated 2 issues\.</);

    // Unassigning ("" is nobody) and taking a label away; an issue that has neither is left alone.
    expect((await post(list, bulkForm([one, two, three], { assigneeId: "", removeLabelId: String(ids.bug) }))).status).toBe(302);
    expect((await state()).labels.filter((l) => l.label_id === ids.bug)).toEqual([]);
    const flash = visible(await (await clients.ada.get(list)).text());
    expect(flash).toMatch(/role="status"[^>]*><p>Updated 2 issues; 1 issue already had that change\.</);
  });

  it.each([
    ["ids that are not numbers", bulkForm(["abc", "1"], { status: "done" }), "Select issues of the list."],
    ["no issue", bulkForm([], { status: "done" }), "Select the issues to change."],
    ["the same issue twice", bulkForm(["ONE", "ONE"], { status: "done" }), "Select each issue once."],
    ["more than 50 issues", bulkForm(Array.from({ length: 51 }, (_, i) => i + 1), { status: "done" }), "Select at most 50 issues at a time."],
    ["no change chosen", bulkForm(["ONE", "TWO"], { status: "", priority: "", assigneeId: "keep", addLabelId: "", removeLabelId: "" }), "Choose a change: a status, a priority, an assignee or a label."],
    ["an unknown status", bulkForm(["ONE"], { status: "someday" }), "Choose a status."],
    ["an assignee who is a viewer", bulkForm(["ONE", "TWO"], { assigneeId: "VIC" }), "Choose a member of this workspace who can work on issues."],
    ["a label of another workspace", bulkForm(["ONE"], { addLabelId: "SECRET" }), "Choose a label of this workspace."],
    ["an issue of an archived project", bulkForm(["ONE", "OLD"], { status: "done" }), "Some of the selected issues are not in this project. Reload the list and try again."],
    ["an issue of another workspace", bulkForm(["ONE", "BET"], { status: "done" }), "Some of the selected issues are not in this project. Reload the list and try again."],
    ["an issue that does not exist", bulkForm(["ONE", "999999"], { status: "done" }), "Some of the selected issues are not in this project. Reload the list and try again."],
  ])("%s → 400 above the list, nothing changed, the selection and the change kept", async (_what, template, message) => {
    const names: Record<string, number> = { ONE: ids.web[0]!, TWO: ids.web[1]!, OLD: ids.old1, BET: ids.bet1, VIC: ids.vic, SECRET: ids.secret };
    const form = new URLSearchParams([...template].map(([name, value]) => [name, String(names[value] ?? value)]));
    const before = await state();
    const answer = await post(`${list}?sort=number`, form);
    expect(answer.status).toBe(400);
    const page = visible(answer.body);
    expect(page).toMatch(new RegExp(`role="alert"[^>]*>${message.replace(/[.,:]/g, "\\$&")}<`));
    expect(await state()).toEqual(before);
    // Nothing of another workspace is named.
    expect(page).not.toContain("Secret plan");
    expect(page).not.toContain("BET-1");
    // The same list, the same boxes ticked (those on it), the same choices.
    expect(page).toContain('id="bulk-edit"');
    for (const [n, id] of ids.web.entries()) {
      const tag = box(page, `WEB-${n + 1}`);
      if (form.getAll("issueIds").includes(String(id))) expect(tag).toContain('checked=""');
      else expect(tag).not.toContain("checked");
    }
    const status = form.get("status");
    if (status && status !== "someday") expect(page).toMatch(new RegExp(`<option value="${status}" selected="">`));
  });

  it("a viewer → 403; an archived project → 403; nothing changed", async () => {
    const before = await state();
    expect((await post(list, bulkForm([ids.web[0]!], { status: "done" }), clients.vic)).status).toBe(403);
    expect((await post("/w/acme/p/OLD/issues", bulkForm([ids.old1], { status: "done" }))).status).toBe(403);
    // A member of another workspace does not learn that this one exists.
    expect((await post(list, bulkForm([ids.web[0]!], { status: "done" }), clients.oscar)).status).toBe(404);
    expect(await state()).toEqual(before);
  });

  it("a member can bulk edit too", async () => {
    expect((await post(list, bulkForm([ids.web[2]!], { priority: "urgent" }), clients.max)).status).toBe(302);
    expect((await state()).issues.find((i) => i.id === ids.web[2])!.priority).toBe(4);
  });
});
