/**
 * Saved views over HTTP, as a browser without JavaScript sends them: intent=save-view posts to the
 * list and opens the saved view; the sidebar lists each person's views and marks the open one; the
 * view's page renames and deletes it. Viewers save their own views, outsiders get 404, a member
 * looking at someone else's shared view gets 403 for a change. Odd names come back at the field
 * (400) with what was typed. SQLite: the rules do not depend on the database (saved-views.test.ts
 * runs the domain on both).
 *
 *   acme: Ada (owner), Bea (admin), Max (member), Vic (viewer); project WEB.  Olga: another workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { BrowserlessClient, signUpOverHttp } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const list = "/w/acme/p/WEB/issues";

/** The page without its scripts (their hydration data repeats the loaders' answers). */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replaceAll("<!-- -->", "");
const escaped = (text: string) => text.replaceAll("&", "&amp;");

function queries(response: Response): number {
  const match = /desc="(\d+) quer(?:y|ies)"/.exec(response.headers.get("server-timing") ?? "");
  if (!match) throw new Error("No query count in Server-Timing");
  return Number(match[1]);
}

describe("saved views over HTTP", () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: RunningServer;
  const clients = {} as Record<"ada" | "bea" | "max" | "vic" | "olga", BrowserlessClient>;

  const signUp = (name: string, email: string) => signUpOverHttp(server.url, name, email);

  async function post(client: BrowserlessClient, path: string, fields: Record<string, string>) {
    const response = await client.post(path, fields);
    return { status: response.status, location: response.headers.get("location"), body: visible(await response.text()) };
  }

  const saveView = (client: BrowserlessClient, name: string, query: string, shared = false, at = list) =>
    post(client, at, { intent: "save-view", name, query, ...(shared ? { shared: "on" } : {}) });
  const viewIdOf = (location: string | null) => Number(/[?&]view=(\d+)$/.exec(location ?? "")?.[1]);
  const page = async (client: BrowserlessClient, path: string) => {
    const response = await client.get(path);
    return { status: response.status, body: visible(await response.text()) };
  };

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer(database.env);
    handle = database.open();
    clients.ada = await signUp("Ada Owner", "ada@example.com");
    clients.bea = await signUp("Bea Admin", "bea@example.com");
    clients.max = await signUp("Max Member", "max@example.com");
    clients.vic = await signUp("Vic Viewer", "vic@example.com");
    clients.olga = await signUp("Olga Outsider", "olga@example.com");
    expect((await post(clients.ada, "/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    expect((await post(clients.olga, "/w/new", { name: "Other", slug: "other" })).status).toBe(302);
    const workspace = await handle.db.selectFrom("workspaces").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow();
    const users = await handle.db.selectFrom("users").select(["id", "name"]).execute();
    const now = new Date().toISOString();
    for (const [name, role] of [
      ["Bea Admin", "admin"],
      ["Max Member", "member"],
      ["Vic Viewer", "viewer"],
    ] as const) {
      const userId = users.find((u) => u.name === name)!.id;
      await handle.db.insertInto("memberships").values({ workspace_id: workspace.id, user_id: userId, role, created_at: now, updated_at: now }).execute();
    }
    expect((await post(clients.ada, "/w/acme/projects/new", { name: "Website", key: "WEB", description: "" })).status).toBe(302);
    expect((await post(clients.ada, `${list}/new`, { title: "Fix the login redirect", status: "todo" })).status).toBe(302);
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await server?.stop();
    await database?.drop();
  });

  it("offers Save view on a filtered list: a link that renders the form open, with the list's query", async () => {
    expect((await page(clients.max, list)).body).not.toContain(">Save view</a>");
    const filtered = await page(clients.max, `${list}?status=todo&assignee=me&page=1`);
    expect(filtered.body).toMatch(/<a href="[^"]*status=todo&amp;assignee=me&amp;page=1&amp;menu=save-view"[^>]*>.*?Save view<\/a>/);
    const open = await page(clients.max, `${list}?status=todo&assignee=me&menu=save-view`);
    expect(open.body).toContain('role="group" aria-label="Save view"');
    expect(open.body).toContain('name="query" value="status=todo&amp;assignee=me"');
    expect(open.body).toContain("Share with the workspace");
    // A viewer may save only their own.
    const vics = await page(clients.vic, `${list}?status=todo&menu=save-view`);
    expect(vics.body).not.toContain("Share with the workspace");
    expect(vics.body).toContain("Only you will see this view.");
  });

  it("saves a private view and opens the list with it, marked in the owner's sidebar only", async () => {
    const saved = await saveView(clients.max, "My todo", "status=todo&assignee=me&page=3&menu=save-view");
    expect(saved.status).toBe(302);
    expect(saved.location).toMatch(new RegExp(`^${list}\\?status=todo&assignee=me&view=\\d+$`));
    const id = viewIdOf(saved.location);
    const opened = await page(clients.max, saved.location!);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain(`<a aria-current="page" class="side-link" href="${escaped(saved.location!)}"`);
    expect(opened.body).toContain("(only you)");
    // The toolbar names the view and leads to its page.
    expect(opened.body).toContain(`href="/w/acme/p/WEB/views/${id}"`);
    // Elsewhere the link is there, not current.
    const elsewhere = await page(clients.max, "/w/acme");
    expect(elsewhere.body).toContain(`<a class="side-link" href="${escaped(saved.location!)}"`);
    for (const other of [clients.ada, clients.vic]) expect((await page(other, "/w/acme")).body).not.toContain("My todo");
  });

  it("shares a view with everyone in the workspace", async () => {
    const saved = await saveView(clients.max, "Team triage", "status=backlog&sort=priority", true);
    expect(saved.status).toBe(302);
    for (const client of [clients.ada, clients.bea, clients.vic]) {
      const body = (await page(client, "/w/acme")).body;
      expect(body).toContain(`href="${escaped(saved.location!)}"`);
      expect(body).toContain("Team triage");
    }
    expect((await page(clients.olga, "/w/other")).body).not.toContain("Team triage");
  });

  it("keeps the sidebar's views in the workspace lookup: the shell still takes two queries", async () => {
    await (await clients.max.get(`/w/acme/p/WEB/settings.data?_routes=${encodeURIComponent("routes/w/$workspace/layout")}`)).arrayBuffer();
    const response = await clients.max.get(`/w/acme/p/WEB/issues.data?_routes=${encodeURIComponent("routes/w/$workspace/layout")}`);
    expect(response.status).toBe(200);
    expect(queries(response)).toBe(2);
    expect(await response.text()).toContain("Team triage");
  });

  it("lets a viewer save a private view, not a shared one (403)", async () => {
    expect((await saveView(clients.vic, "Vic's", "priority=urgent")).status).toBe(302);
    const shared = await saveView(clients.vic, "Vic's for all", "priority=urgent", true);
    expect(shared.status).toBe(403);
    expect(shared.body).toContain("You don&#x27;t have permission to do that.");
  });

  it("refuses odd names at the field (400), the list and the typed name kept", async () => {
    for (const [name, message] of [
      ["", "Enter a name for the view."],
      ["   ", "Enter a name for the view."],
      ["x".repeat(61), "Use at most 60 characters."],
      ["a\u0000b", "Remove the invisible control character (U+0000)."],
      ["evil\u202Etxt", "Remove the invisible character that changes the direction of text (U+202E)."],
      ["my TODO", "A view named “my TODO” already exists. Choose another name."],
    ]) {
      const refused = await saveView(clients.max, name!, "status=todo&assignee=me", false, `${list}?status=todo&assignee=me&menu=save-view`);
      expect(refused.status, name).toBe(400);
      expect(refused.body).toContain(message);
      expect(refused.body).toContain('aria-invalid="true"');
      // The list as it was (its filter chips), and the form still carrying its query.
      expect(refused.body).toContain('name="query" value="status=todo&amp;assignee=me"');
      expect(refused.body).toContain("Remove filter Status: Todo");
    }
    const long = await saveView(clients.max, "y".repeat(61), "status=todo", false, `${list}?status=todo&menu=save-view`);
    expect(long.body).toContain(`value="${"y".repeat(61)}"`);
    const count = await handle.db.selectFrom("saved_views").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });

  it("refuses unusable search text in the query as a form error, not a 500", async () => {
    const refused = await saveView(clients.max, "Odd", "q=a%00b", false);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("The search text of this address cannot be used.");
  });

  it("answers 404 to an outsider, for the list's save and for a view's page", async () => {
    const saved = await handle.db.selectFrom("saved_views").select("id").where("name", "=", "Team triage").executeTakeFirstOrThrow();
    expect((await saveView(clients.olga, "Mine", "status=todo")).status).toBe(404);
    expect((await page(clients.olga, `/w/acme/p/WEB/views/${saved.id}`)).status).toBe(404);
    expect((await post(clients.olga, `/w/acme/p/WEB/views/${saved.id}`, { intent: "delete" })).status).toBe(404);
  });

  it("shows a view's page to those who see it: rename and delete for its owner, read-only for other members", async () => {
    const mine = await handle.db.selectFrom("saved_views").select("id").where("name", "=", "My todo").executeTakeFirstOrThrow();
    const shared = await handle.db.selectFrom("saved_views").select("id").where("name", "=", "Team triage").executeTakeFirstOrThrow();
    const own = await page(clients.max, `/w/acme/p/WEB/views/${mine.id}`);
    expect(own.status).toBe(200);
    expect(own.body).toContain("<title>My todo · Views · Website · Cairn</title>");
    expect(own.body).toContain("Rename view");
    expect(own.body).toContain("Delete view");
    // Another's private view does not exist for Ada, even as the workspace's owner.
    expect((await page(clients.ada, `/w/acme/p/WEB/views/${mine.id}`)).status).toBe(404);
    const vics = await page(clients.vic, `/w/acme/p/WEB/views/${shared.id}`);
    expect(vics.status).toBe(200);
    expect(vics.body).toContain("Shared with the workspace by Max Member.");
    expect(vics.body).not.toContain("Rename view");
    for (const path of ["/w/acme/p/WEB/views/abc", "/w/acme/p/WEB/views/2147483648", "/w/acme/p/WEB/views/0", "/w/acme/p/NOPE/views/1"]) {
      expect((await page(clients.max, path)).status, path).toBe(404);
    }
  });

  it("renames and deletes: the owner, an admin for a shared view; 403 for other members, 400 at the field", async () => {
    const mine = await handle.db.selectFrom("saved_views").select("id").where("name", "=", "My todo").executeTakeFirstOrThrow();
    const shared = await handle.db.selectFrom("saved_views").select("id").where("name", "=", "Team triage").executeTakeFirstOrThrow();
    const at = (id: number) => `/w/acme/p/WEB/views/${id}`;
    expect((await post(clients.vic, at(shared.id), { intent: "rename", name: "Vic's now" })).status).toBe(403);
    expect((await post(clients.vic, at(shared.id), { intent: "delete" })).status).toBe(403);
    const bad = await post(clients.max, at(mine.id), { intent: "rename", name: "\u202Ebad" });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Remove the invisible character that changes the direction of text (U+202E).");
    const renamed = await post(clients.max, at(mine.id), { intent: "rename", name: "  Todo for me  " });
    expect(renamed).toMatchObject({ status: 302, location: at(mine.id) });
    expect((await page(clients.max, "/w/acme")).body).toContain("Todo for me");
    expect((await post(clients.bea, at(shared.id), { intent: "rename", name: "Triage" })).status).toBe(302);
    expect((await page(clients.vic, "/w/acme")).body).toContain(">Triage<");
    // Without JavaScript, Delete asks first on the same page.
    const asked = await page(clients.ada, `${at(shared.id)}?confirm=delete-view`);
    expect(asked.body).toContain('role="alertdialog"');
    const deleted = await post(clients.ada, at(shared.id), { intent: "delete" });
    expect(deleted).toMatchObject({ status: 302, location: list });
    expect((await page(clients.max, "/w/acme")).body).not.toContain(">Triage<");
    expect((await post(clients.max, at(mine.id), { intent: "delete" })).status).toBe(302);
    expect((await page(clients.max, at(mine.id))).status).toBe(404);
  });

  it("keeps the views of an archived project: they open, and can still be saved", async () => {
    const saved = await saveView(clients.max, "Before archiving", "status=todo", true);
    expect(saved.status).toBe(302);
    expect((await post(clients.ada, "/w/acme/p/WEB/settings", { intent: "archive" })).status).toBe(302);
    const sidebar = await page(clients.vic, "/w/acme");
    expect(sidebar.body).toContain(`href="${escaped(saved.location!)}"`);
    expect((await page(clients.vic, saved.location!)).status).toBe(200);
    expect((await saveView(clients.vic, "Archived todo", "status=todo")).status).toBe(302);
  });
});
