/**
 * What every signed-in page shares is looked up once per request (issue 13): the session with its
 * user (one query), then the workspace with the user's workspaces, its projects, members and
 * labels (one query) — whichever of the nested loaders asks first. The issue page adds one query:
 * the issue with its labels and timeline, and one more when its texts reference issues (WEB-42).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

function queries(response: Response): number {
  const match = /desc="(\d+) quer(?:y|ies)"/.exec(response.headers.get("server-timing") ?? "");
  if (!match) throw new Error("No query count in Server-Timing");
  return Number(match[1]);
}

/**
 * The second of two requests: the first may also write what a visit records now and then (the
 * session's last use, once a minute; the user's last workspace, when it changes).
 */
async function settled(client: BrowserlessClient, path: string): Promise<Response> {
  await (await client.get(path)).arrayBuffer();
  return client.get(path);
}

/** A `.data` request for these routes alone, as a client-side navigation makes. */
const dataOf = (path: string, ...routes: string[]) => `${path}.data?_routes=${encodeURIComponent(routes.join(","))}`;

describe.each(testDialects)("lookups shared by a page's loaders on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let ada: BrowserlessClient;
  let grace: BrowserlessClient;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    ada = new BrowserlessClient(server.url);
    grace = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada Lovelace", email: "ada@example.com", password: "correct horse battery" })).status).toBe(302);
    expect((await grace.post("/signup", { name: "Grace Hopper", email: "grace@example.com", password: "correct horse battery" })).status).toBe(302);
    expect((await ada.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    expect((await ada.post("/w/new", { name: "Beta", slug: "beta" })).status).toBe(302);
    expect((await ada.post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "The public site" })).status).toBe(302);
    expect((await ada.post("/w/acme/projects/new", { name: "API", key: "API", description: "" })).status).toBe(302);
    expect((await ada.post("/w/acme/settings/labels", { intent: "create", name: "Bug", color: "red" })).status).toBe(302);
    expect((await ada.post("/w/acme/p/WEB/issues/new", { title: "Fix the login redirect", description: "It loops." })).status).toBe(302);
    expect((await ada.post("/w/acme/p/WEB/issues/1", { intent: "comment", body: "Seen it **too**" })).status).toBe(302);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("takes two queries for the shell: the session, and the workspace with its sidebar", async () => {
    const response = await settled(ada, dataOf("/w/acme/p/WEB/settings", "routes/w/$workspace/layout", "routes/w/$workspace/p/$key/layout"));
    expect(response.status).toBe(200);
    expect(queries(response)).toBe(2);
    const body = await response.text();
    // The sidebar's projects and the other workspace.
    for (const name of ['"API"', '"Website"', '"Beta"']) expect(body).toContain(name);
  });

  it("shows the project's settings, with its description, from the same two", async () => {
    const response = await settled(ada, "/w/acme/p/WEB/settings");
    expect(response.status).toBe(200);
    expect(queries(response)).toBe(2);
    const html = await response.text();
    expect(html).toContain("The public site");
    // The sidebar's projects by name, the current one marked.
    expect(html.indexOf('href="/w/acme/p/API"')).toBeGreaterThan(-1);
    expect(html.indexOf('href="/w/acme/p/WEB"')).toBeGreaterThan(html.indexOf('href="/w/acme/p/API"'));
    expect(html).toContain('<a aria-current="page" class="side-link" href="/w/acme/p/WEB"');
  });

  it("takes one more query for the issue, with its labels, comments and changes", async () => {
    const response = await settled(ada, dataOf("/w/acme/p/WEB/issues/1", "routes/w/$workspace/p/$key/issues/$number"));
    expect(response.status).toBe(200);
    expect(queries(response)).toBe(3);
    const body = await response.text();
    expect(body).toContain("Fix the login redirect");
    expect(body).toContain("<strong>too</strong>");
    expect(body).toContain("created the issue");
    expect(body).toContain('"Bug"');
  });

  it("takes one query more when its texts reference issues (WEB-1), for all of them at once", async () => {
    expect((await ada.post("/w/acme/p/WEB/issues/new", { title: "Login redirect, again", description: "Like WEB-1, API-1 and WEB-99." })).status).toBe(302);
    expect((await ada.post("/w/acme/p/WEB/issues/2", { intent: "comment", body: "And WEB-1 again, or WEB-3?" })).status).toBe(302);
    const response = await settled(ada, dataOf("/w/acme/p/WEB/issues/2", "routes/w/$workspace/p/$key/issues/$number"));
    expect(response.status).toBe(200);
    expect(queries(response)).toBe(4);
    expect(await response.text()).toContain('title=\\"Fix the login redirect\\" class=\\"issue-ref\\"');
  });

  it("renders the whole issue page, its menus offering the members and labels of the one lookup", async () => {
    const response = await settled(ada, "/w/acme/p/WEB/issues/1");
    expect(response.status).toBe(200);
    expect(queries(response)).toBeLessThanOrEqual(6);
    const html = await response.text();
    expect(html).toContain('<h2 id="issue-title"');
    expect(html).toMatch(/<button type="submit" value="\d+" class="menu-item" name="assigneeId">.*?Ada Lovelace<\/span><\/button>/);
    expect(html).toContain('<span class="chip chip-red">Bug</span>');
  });

  it("answers 404 to someone who is not a member, after the same two queries", async () => {
    const response = await settled(grace, "/w/acme/p/WEB/issues/1");
    expect(response.status).toBe(404);
    expect(queries(response)).toBe(2);
  });

  it("answers 404 for an issue or a project that does not exist", async () => {
    expect((await ada.get("/w/acme/p/WEB/issues/99")).status).toBe(404);
    expect((await ada.get("/w/acme/p/NOPE/issues")).status).toBe(404);
  });
});
