/**
 * docs/product.md, Roles over HTTP for projects, issues and comments: every role against every project and issue
 * screen of the real production server, driven as a browser without JavaScript would (form posts,
 * redirects not followed, one cookie jar per person). Setup goes through HTTP only: sign-ups, a
 * workspace, invitations, a project, a label, an issue.
 *
 * The tests of one dialect share one server and run in order. Everyone starts from:
 *
 *   acme:  Olivia (owner), Adam (admin), Mia (member), Victor (viewer); project WEB with issue WEB-1.
 *   other: Oscar (owner), who is in none of acme.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

type Person = "owner" | "admin" | "member" | "viewer" | "outsider";
/** Who sends a request: one of the people, signed in, or nobody. */
type Who = Person | "signed-out";
type Member = Exclude<Person, "outsider">;

type Answer = { status: number; location: string | null; body: string; requestId: string | null };
type Sent = { who: Who; method: string; path: string; status: number; requestId: string | null };

const people: Record<Person, { name: string; email: string }> = {
  owner: { name: "Olivia Owner", email: "olivia@example.com" },
  admin: { name: "Adam Admin", email: "adam@example.com" },
  member: { name: "Mia Member", email: "mia@example.com" },
  viewer: { name: "Victor Viewer", email: "victor@example.com" },
  outsider: { name: "Oscar Outsider", email: "oscar@example.com" },
};
const persons = Object.keys(people) as Person[];
const members: Member[] = ["owner", "admin", "member", "viewer"];
const everyone: Who[] = [...persons, "signed-out"];
const password = "projects are checked on the server";

const forbidden = "You don&#x27;t have permission to do that.";
const archivedRefusal = "This project is archived: it is read-only.";

/** Where an unauthenticated request is sent (docs/product.md, Errors): a GET keeps its query, a POST its path. */
/** Where sign-in brings one back: the page's URL as React Router normalises it (query re-encoded). */
function loginFor(path: string) {
  const page = new URL(path, "http://cairn.test");
  page.searchParams.delete("_routes");
  return `/login?${new URLSearchParams({ redirectTo: page.pathname + page.search })}`;
}

/** The expected status per person: the four roles as given; a stranger 404, nobody signed in 302. */
function byRole(owner: number, admin: number, member: number, viewer: number): Record<Who, number> {
  return { owner, admin, member, viewer, outsider: 404, "signed-out": 302 };
}
const readers = byRole(200, 200, 200, 200);
const writers = byRole(302, 302, 302, 403);
const managers = byRole(302, 302, 403, 403);
const rowsOf = (statuses: Record<Who, number>) => everyone.map((who) => [who, statuses[who]] as const);

/** A page without its scripts (whose hydration data repeats what the loaders and actions returned). */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Fails setup with the answer that was not what it should have been. */
function must(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status} (${answer.location ?? ""}) ${answer.body.slice(0, 500)}`);
  }
  return answer;
}

describe.each(testDialects)("docs/product.md, Roles for projects and issues over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  /** Every response of this suite, to prove that none was a 500. */
  const sent: Sent[] = [];
  const clients = new Map<Who, BrowserlessClient>();
  let labelId = 0;

  async function record(who: Who, method: string, path: string, response: Response): Promise<Answer> {
    const answer = {
      status: response.status,
      location: response.headers.get("location"),
      body: await response.text(),
      requestId: response.headers.get("x-request-id"),
    };
    sent.push({ who, method, path, status: answer.status, requestId: answer.requestId });
    return answer;
  }

  const as = (who: Who) => ({
    get: async (path: string) => record(who, "GET", path, await clients.get(who)!.get(path)),
    post: async (path: string, fields: Record<string, string>) => record(who, "POST", path, await clients.get(who)!.post(path, fields)),
  });

  /** Asserts what a refused or redirected answer says, for the status it has. */
  function expectAnswer(answer: Answer, who: Who, status: number, path: string, okLocation?: string) {
    expect(answer.status, `${who} ${path}: ${answer.body.slice(0, 300)}`).toBe(status);
    if (who === "signed-out") expect(answer.location).toBe(loginFor(path));
    else if (status === 302 && okLocation !== undefined) expect(answer.location).toBe(okLocation);
    if (status === 403) expect(visible(answer.body)).toMatch(new RegExp(`${escapeRegExp(forbidden)}|${escapeRegExp(archivedRefusal)}`));
    if (status === 404) expect(visible(answer.body)).toMatch(/not found/i);
  }

  /** Creates an invitation and returns the path of its link, as the inviter sees it in the flash. */
  async function invite(person: Person, role: string): Promise<string> {
    const invited = must(await as("owner").post("/w/acme/settings/members", { intent: "invite", email: people[person].email, role }), 302, `invite ${person}`);
    const page = must(await as("owner").get(invited.location!), 200, "the members page after inviting");
    const link = /Invitation link<input[^>]*value="([^"]+)"/.exec(page.body)?.[1];
    if (!link) throw new Error(`no invitation link for ${person}`);
    return new URL(link).pathname;
  }

  /** WEB-1 as the owner sees it. */
  async function issuePage(number = 1): Promise<string> {
    return must(await as("owner").get(`/w/acme/p/WEB/issues/${number}`), 200, `the owner reads WEB-${number}`).body;
  }

  /** The parts of an issue the tables below change: title, status and version. */
  async function issueState(number = 1) {
    const html = await issuePage(number);
    const title = /<h2 id="issue-title"[^>]*>([\s\S]*?)<\/h2>/.exec(html)?.[1];
    // The status menu's current choice.
    const status = /<button type="submit" value="(\w+)" aria-current="true"[^>]*name="status"/.exec(html)?.[1];
    const version = /name="version" value="(\d+)"/.exec(html)?.[1];
    return { title, status, version };
  }


  /** The live comments of an issue as the owner sees them, oldest first: body text, and id while the owner may delete it. */
  async function commentsOn(number = 1): Promise<{ body: string; id: string | undefined }[]> {
    const html = await issuePage(number);
    const comments: { body: string; id: string | undefined }[] = [];
    for (const [, item] of html.matchAll(/<li aria-label="Comment by [^"]*"[^>]*>([\s\S]*?)<\/li>/g)) {
      // The edit form's field, or the link that asks before deleting (`?confirm=delete-comment-<id>`).
      const id = /(?:name="commentId" value="|confirm=delete-comment-)(\d+)/.exec(item!)?.[1];
      // The body's text: references such as "WEB-2" render as links to their issue.
      const body = /<p>([\s\S]*?)<\/p>/.exec(item!.replace(/<p class[\s\S]*?<\/p>/, ""))?.[1]?.replace(/<[^>]*>/g, "");
      if (body) comments.push({ body, id });
    }
    return comments;
  }

  /** The comments of an issue the owner (who may delete any) can act on: body text → id. */
  async function liveComments(number = 1): Promise<Map<string, string>> {
    return new Map((await commentsOn(number)).flatMap(({ body, id }) => (id ? [[body, id] as const] : [])));
  }

  /** Posts a comment as `author` and returns its id. */
  async function comment(author: Member, body: string, number = 1): Promise<string> {
    must(await as(author).post(`/w/acme/p/WEB/issues/${number}`, { intent: "comment", body }), 302, `${author} comments`);
    const id = (await liveComments(number)).get(body);
    if (!id) throw new Error(`no comment "${body}" on WEB-${number}`);
    return id;
  }

  /**
   * The issue id, version and status of one row of the issue list: the id from its status menu's link
   * (`?menu=status-<id>`), the version and status from that menu's form, opened as a browser without
   * JavaScript opens it.
   */
  async function listRow(number: number) {
    const list = "/w/acme/p/WEB/issues?sort=number";
    const html = must(await as("owner").get(list), 200, "the owner reads the list").body;
    const row = [...html.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[1]!).find((r) => r.includes(`>WEB-${number}<`));
    if (!row) throw new Error(`no row WEB-${number}`);
    const issueId = /menu=status-(\d+)/.exec(row)?.[1] ?? "";
    const page = must(await as("owner").get(`${list}&menu=status-${issueId}`), 200, "the owner opens the status menu").body;
    // Without JavaScript the open menu is a panel (role=group) named after the row's trigger.
    const menu = new RegExp(`<div role="group" aria-label="Status of WEB-${number}: [^"]*"[^>]*>([\\s\\S]*?)</form>`).exec(page)?.[1] ?? "";
    return {
      issueId,
      version: /name="version" value="(\d+)"/.exec(menu)?.[1] ?? "",
      // The menu's current choice.
      status: /<button type="submit" value="(\w+)" aria-current="true"[^>]*name="status"/.exec(menu)?.[1],
    };
  }

  async function projectName(): Promise<string | undefined> {
    const html = must(await as("owner").get("/w/acme/p/WEB/issues"), 200, "the owner reads WEB").body;
    // The header's heading is the project's name, then its key in a span of its own.
    return /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<span[\s\S]*?<\/span>|<!-- -->/g, "").trim();
  }

  async function isArchived(): Promise<boolean> {
    return must(await as("owner").get("/w/acme/p/WEB/issues"), 200, "the owner reads WEB").body.includes("Archived — read-only");
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    for (const who of everyone) clients.set(who, new BrowserlessClient(server.url));

    for (const person of persons) {
      must(await as(person).post("/signup", { ...people[person], password }), 302, `${person} signs up`);
    }
    must(await as("owner").post("/w/new", { name: "Acme", slug: "acme" }), 302, "owner creates acme");
    must(await as("outsider").post("/w/new", { name: "Other", slug: "other" }), 302, "outsider creates other");
    for (const person of ["admin", "member", "viewer"] as const) {
      const accepted = must(await as(person).post(await invite(person, person), {}), 302, `${person} accepts`);
      expect(accepted.location).toBe("/w/acme");
    }

    // A lower-case key is upper-cased (docs/product.md, Rules for what is submitted).
    const created = must(await as("owner").post("/w/acme/projects/new", { name: "Website", key: "web", description: "" }), 302, "WEB");
    expect(created.location).toBe("/w/acme/p/WEB/issues");

    must(await as("owner").post("/w/acme/settings/labels", { intent: "create", name: "Bug", color: "red" }), 302, "label Bug");
    const labels = must(await as("owner").get("/w/acme/settings/labels"), 200, "labels page").body;
    labelId = Number(/<li aria-label="Bug"[^>]*>[\s\S]*?name="labelId" value="(\d+)"/.exec(labels)?.[1]);
    expect(labelId).toBeGreaterThan(0);

    const filed = must(
      await as("owner").post("/w/acme/p/WEB/issues/new", {
        title: "First issue",
        description: "It is broken.",
        status: "todo",
        priority: "high",
        assigneeId: "",
        labelIds: String(labelId),
        dueDate: "",
      }),
      302,
      "WEB-1",
    );
    expect(filed.location).toBe("/w/acme/p/WEB/issues/1");
    expect(await issueState()).toEqual({ title: "First issue", status: "todo", version: "1" });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  describe("creating projects (admin+)", () => {
    it.each(rowsOf(byRole(200, 200, 403, 403)))("%s: GET /w/acme/projects/new → %i", async (who, status) => {
      const answer = await as(who).get("/w/acme/projects/new");
      expectAnswer(answer, who, status, "/w/acme/projects/new");
      if (status === 200) expect(visible(answer.body)).toContain("Create project");
    });

    const keys: Record<Who, string> = { owner: "OWN", admin: "ADM", member: "MEM", viewer: "VIEW", outsider: "OUT", "signed-out": "ANON" };
    it.each(rowsOf(managers))("%s: POST /w/acme/projects/new → %i", async (who, status) => {
      const key = keys[who];
      const answer = await as(who).post("/w/acme/projects/new", { name: `Project of ${who}`, key, description: "" });
      expectAnswer(answer, who, status, "/w/acme/projects/new", `/w/acme/p/${key}/issues`);
      const created = await as("owner").get(`/w/acme/p/${key}/issues`);
      expect(created.status).toBe(status === 302 && who !== "signed-out" ? 200 : 404);
    });

    it("checks the role before the form: a member's invalid project is 403, an admin's 400", async () => {
      expect((await as("member").post("/w/acme/projects/new", { name: "", key: "1" })).status).toBe(403);
      expect((await as("viewer").post("/w/acme/projects/new", {})).status).toBe(403);
      expect((await as("outsider").post("/w/acme/projects/new", {})).status).toBe(404);
      expect((await as("admin").post("/w/acme/projects/new", { name: "", key: "1" })).status).toBe(400);
    });
  });

  describe("reading a project", () => {
    const paths: [string, Record<Who, number>][] = [
      ["/w/acme/p/WEB/issues", readers],
      ["/w/acme/p/WEB/issues?status=open&assignee=me&priority=high&q=first&sort=priority&page=1", readers],
      ["/w/acme/p/WEB/issues?status=closed,todo&assignee=unassigned&label=LABEL&sort=due&page=7", readers],
      // Filters that mean nothing are ignored, never an error.
      ["/w/acme/p/WEB/issues?status=bogus&assignee=abc&label=-1&priority=9&sort=nope&page=0&q=%25_%5C", readers],
      ["/w/acme/p/WEB/issues?assignee=99999999999&label=1.5&page=99999999999", readers],
      ["/w/acme/p/WEB/issues/1", readers],
      ["/w/acme/p/WEB/issues/1?status=open&sort=number", readers],
      ["/w/acme/p/web/issues/1", readers],
      ["/w/acme/p/WEB/issues/new", byRole(200, 200, 200, 403)],
      ["/w/acme/p/WEB/settings", byRole(200, 200, 403, 403)],
    ];
    const rows = paths.flatMap(([path, statuses]) => rowsOf(statuses).map(([who, status]) => [who, path, status] as const));

    it.each(rows)("%s: GET %s → %i", async (who, template, status) => {
      const path = template.replace("LABEL", String(labelId));
      const answer = await as(who).get(path);
      expectAnswer(answer, who, status, path);
      if (status === 200) expect(visible(answer.body)).toContain("Website");
      if (status === 200 && path.includes("/issues/1")) expect(visible(answer.body)).toContain("First issue");
    });

    it.each(rowsOf(byRole(302, 302, 302, 302)))("%s: GET /w/acme/p/WEB → %i (a project opens on its issues)", async (who, status) => {
      const answer = await as(who).get("/w/acme/p/WEB");
      expectAnswer(answer, who, status, "/w/acme/p/WEB", "/w/acme/p/WEB/issues");
    });

    it("shows the write controls to members and the Settings tab to admins only", async () => {
      for (const who of members) {
        const list = (await as(who).get("/w/acme/p/WEB/issues")).body;
        const detail = (await as(who).get("/w/acme/p/WEB/issues/1")).body;
        const canWrite = who !== "viewer";
        expect(list.includes('href="/w/acme/p/WEB/issues/new"'), who).toBe(canWrite);
        // A writer's rows have menus (status, priority, assignee); a viewer's only show them.
        expect(list.includes("menu=status-"), who).toBe(canWrite);
        expect(detail.includes('value="update"'), who).toBe(canWrite);
        expect(detail.includes('value="comment"'), who).toBe(canWrite);
        expect(list.includes('href="/w/acme/p/WEB/settings"'), who).toBe(who === "owner" || who === "admin");
      }
    });
  });

  describe("unknown and malformed keys and numbers → 404", () => {
    const badKeys = ["NOPE", "123", "W", "TOOLONG", "WE-B", "W%20B"];
    const rows = badKeys.flatMap((key) =>
      [`/w/acme/p/${key}`, `/w/acme/p/${key}/issues`, `/w/acme/p/${key}/issues/1`, `/w/acme/p/${key}/issues/new`, `/w/acme/p/${key}/settings`].flatMap(
        (path) => (["owner", "member", "viewer", "outsider"] as const).map((who) => [who, path] as const),
      ),
    );

    it.each(rows)("%s: GET %s → 404", async (who, path) => {
      expect((await as(who).get(path)).status).toBe(404);
    });

    it.each(badKeys)("POST to project %s → 404 for the owner", async (key) => {
      expect((await as("owner").post(`/w/acme/p/${key}/issues/new`, { title: "Lost" })).status).toBe(404);
      expect((await as("owner").post(`/w/acme/p/${key}/issues/1`, { intent: "comment", body: "Lost" })).status).toBe(404);
      expect((await as("owner").post(`/w/acme/p/${key}/issues`, { intent: "status", issueId: "1", version: "1", status: "done" })).status).toBe(404);
      expect((await as("owner").post(`/w/acme/p/${key}/settings`, { intent: "archive" })).status).toBe(404);
    });

    const badNumbers = ["999", "abc", "0", "-1", "1.5", "99999999999", "2147483648", "1e3", "%20", "01"];
    it.each(badNumbers.flatMap((number) => members.map((who) => [who, number] as const)))("%s: GET /w/acme/p/WEB/issues/%s → 404", async (who, number) => {
      const answer = await as(who).get(`/w/acme/p/WEB/issues/${number}`);
      expect(answer.status).toBe(404);
      expect(visible(answer.body)).toContain("not found");
    });

    it.each(badNumbers)("POST /w/acme/p/WEB/issues/%s → 404 for a member, never 500", async (number) => {
      for (const fields of [
        { intent: "comment", body: "Into the void" } as Record<string, string>,
        { intent: "status", version: "1", status: "done" },
        { intent: "delete-comment", commentId: "1" },
      ]) {
        expect((await as("member").post(`/w/acme/p/WEB/issues/${number}`, fields)).status).toBe(404);
      }
    });

    it("the list's quick status refuses an issue of another project, or none, with 404", async () => {
      const own = must(await as("owner").post("/w/acme/p/OWN/issues/new", { title: "In OWN" }), 302, "an issue in OWN");
      expect(own.location).toBe("/w/acme/p/OWN/issues/1");
      const html = (await as("owner").get("/w/acme/p/OWN/issues")).body;
      const issueId = /menu=status-(\d+)/.exec(html)![1]!;
      for (const id of [issueId, "999999"]) {
        const answer = await as("member").post("/w/acme/p/WEB/issues", { intent: "status", issueId: id, version: "1", status: "done" });
        expect(answer.status).toBe(404);
      }
      expect((await as("owner").get("/w/acme/p/OWN/issues")).body).toContain('aria-label="Status of OWN-1: Backlog"');
    });
  });

  describe("filing issues (member+)", () => {
    it.each(rowsOf(writers))("%s: POST /w/acme/p/WEB/issues/new → %i", async (who, status) => {
      const title = `Filed by ${who}`;
      const answer = await as(who).post("/w/acme/p/WEB/issues/new", { title, description: "", status: "backlog", priority: "none" });
      expectAnswer(answer, who, status, "/w/acme/p/WEB/issues/new");
      if (answer.status === 302 && who !== "signed-out") expect(answer.location).toMatch(/^\/w\/acme\/p\/WEB\/issues\/\d+$/);
      const list = (await as("owner").get("/w/acme/p/WEB/issues")).body;
      expect(list.includes(title)).toBe(status === 302 && who !== "signed-out");
    });

    it("checks the role before the form: a viewer's empty issue is 403, a member's 400", async () => {
      expect((await as("viewer").post("/w/acme/p/WEB/issues/new", { title: "" })).status).toBe(403);
      expect((await as("member").post("/w/acme/p/WEB/issues/new", { title: "" })).status).toBe(400);
    });
  });

  describe("changing WEB-1 (member+)", () => {
    it.each(rowsOf(writers))("%s: intent=update → %i", async (who, status) => {
      const before = await issueState();
      const title = `Edited by ${who}`;
      const answer = await as(who).post("/w/acme/p/WEB/issues/1", { intent: "update", version: before.version!, title });
      expectAnswer(answer, who, status, "/w/acme/p/WEB/issues/1", "/w/acme/p/WEB/issues/1");
      const after = await issueState();
      if (status === 302 && who !== "signed-out") {
        expect(after).toEqual({ ...before, title, version: String(Number(before.version) + 1) });
      } else {
        expect(after).toEqual(before);
      }
    });

    const statusFor: Record<Who, string> = { owner: "in_progress", admin: "in_review", member: "done", viewer: "canceled", outsider: "backlog", "signed-out": "todo" };
    it.each(rowsOf(writers))("%s: intent=status → %i", async (who, status) => {
      const before = await issueState();
      const answer = await as(who).post("/w/acme/p/WEB/issues/1", { intent: "status", version: before.version!, status: statusFor[who] });
      expectAnswer(answer, who, status, "/w/acme/p/WEB/issues/1", "/w/acme/p/WEB/issues/1");
      const after = await issueState();
      if (status === 302 && who !== "signed-out") {
        expect(after).toEqual({ ...before, status: statusFor[who], version: String(Number(before.version) + 1) });
      } else {
        expect(after).toEqual(before);
      }
    });

    it.each(rowsOf(writers))("%s: intent=comment → %i", async (who, status) => {
      const body = `Comment by ${who}`;
      const answer = await as(who).post("/w/acme/p/WEB/issues/1", { intent: "comment", body });
      expectAnswer(answer, who, status, "/w/acme/p/WEB/issues/1", "/w/acme/p/WEB/issues/1");
      expect((await liveComments()).has(body)).toBe(status === 302 && who !== "signed-out");
    });

    const quickStatusFor: Record<Who, string> = { owner: "todo", admin: "in_progress", member: "in_review", viewer: "done", outsider: "canceled", "signed-out": "done" };
    it.each(rowsOf(writers))("%s: POST /w/acme/p/WEB/issues intent=status (the list's quick status) → %i", async (who, status) => {
      const before = await listRow(1);
      const returnTo = "/w/acme/p/WEB/issues?status=open&sort=number";
      const answer = await as(who).post("/w/acme/p/WEB/issues", {
        intent: "status",
        issueId: before.issueId,
        version: before.version,
        status: quickStatusFor[who],
        returnTo,
      });
      expectAnswer(answer, who, status, "/w/acme/p/WEB/issues", returnTo);
      const after = await listRow(1);
      if (status === 302 && who !== "signed-out") {
        expect(after).toEqual({ ...before, status: quickStatusFor[who], version: String(Number(before.version) + 1) });
      } else {
        expect(after).toEqual(before);
      }
    });

    it("a quick status with a stale version is a 409 naming who changed what", async () => {
      const { issueId, version } = await listRow(1);
      const answer = await as("member").post("/w/acme/p/WEB/issues", { intent: "status", issueId, version: String(Number(version) - 1), status: "backlog" });
      expect(answer.status).toBe(409);
      expect(visible(answer.body)).toContain("This issue was changed by");
    });
  });

  describe("editing comments: only one's own", () => {
    // [who, whose comment, status]
    const rows = [
      ["owner", "owner", 302],
      ["admin", "admin", 302],
      ["member", "member", 302],
      ["owner", "member", 403],
      ["admin", "member", 403],
      ["member", "admin", 403],
      ["member", "owner", 403],
      ["viewer", "member", 403],
      ["outsider", "member", 404],
      ["signed-out", "member", 302],
    ] as const;

    it.each(rows)("%s: intent=edit-comment of %s's comment → %i", async (who, author, status) => {
      const original = `Original by ${author}, to be edited by ${who}`;
      const commentId = await comment(author, original);
      const body = `Rewritten by ${who}, was by ${author}`;
      const answer = await as(who).post("/w/acme/p/WEB/issues/1", { intent: "edit-comment", commentId, body });
      expectAnswer(answer, who, status, "/w/acme/p/WEB/issues/1", "/w/acme/p/WEB/issues/1");
      const edited = status === 302 && who !== "signed-out";
      const comments = await liveComments();
      expect(comments.get(edited ? body : original)).toBe(commentId);
      expect(comments.has(edited ? original : body)).toBe(false);
    });
  });

  describe("deleting comments: one's own (member+), anyone's (admin+)", () => {
    // [who, whose comment, status]
    const rows = [
      ["member", "member", 302],
      ["member", "admin", 403],
      ["member", "owner", 403],
      ["admin", "member", 302],
      ["admin", "owner", 302],
      ["owner", "admin", 302],
      ["owner", "owner", 302],
      ["viewer", "member", 403],
      ["outsider", "member", 404],
      ["signed-out", "member", 302],
    ] as const;

    it.each(rows)("%s: intent=delete-comment of %s's comment → %i", async (who, author, status) => {
      const body = `Written by ${author}, to be deleted by ${who}`;
      const commentId = await comment(author, body);
      const answer = await as(who).post("/w/acme/p/WEB/issues/1", { intent: "delete-comment", commentId });
      expectAnswer(answer, who, status, "/w/acme/p/WEB/issues/1", "/w/acme/p/WEB/issues/1");
      const deleted = status === 302 && who !== "signed-out";
      expect((await liveComments()).has(body)).toBe(!deleted);
    });

    it("a comment is reached only through its own issue: 404 through another one", async () => {
      const commentId = await comment("member", "On WEB-2 only", 2);
      expect((await as("member").post("/w/acme/p/WEB/issues/1", { intent: "edit-comment", commentId, body: "Hijacked" })).status).toBe(404);
      expect((await as("admin").post("/w/acme/p/WEB/issues/1", { intent: "delete-comment", commentId })).status).toBe(404);
      expect((await liveComments(2)).get("On WEB-2 only")).toBe(commentId);
    });

    it("a deleted comment cannot be edited or deleted again: 404", async () => {
      const commentId = await comment("member", "Soon gone");
      must(await as("member").post("/w/acme/p/WEB/issues/1", { intent: "delete-comment", commentId }), 302, "delete");
      expect((await as("member").post("/w/acme/p/WEB/issues/1", { intent: "edit-comment", commentId, body: "Back" })).status).toBe(404);
      expect((await as("admin").post("/w/acme/p/WEB/issues/1", { intent: "delete-comment", commentId })).status).toBe(404);
    });
  });

  describe("project settings (admin+)", () => {
    it.each(rowsOf(managers))("%s: POST /w/acme/p/WEB/settings intent=update → %i", async (who, status) => {
      const name = `Website of ${who}`;
      const answer = await as(who).post("/w/acme/p/WEB/settings", { intent: "update", name, description: "The site" });
      expectAnswer(answer, who, status, "/w/acme/p/WEB/settings", "/w/acme/p/WEB/settings");
      const renamed = status === 302 && who !== "signed-out";
      expect((await projectName()) === name).toBe(renamed);
      if (renamed) must(await as(who).post("/w/acme/p/WEB/settings", { intent: "update", name: "Website", description: "" }), 302, "rename back");
    });

    it.each(rowsOf(managers))("%s: POST /w/acme/p/WEB/settings intent=archive, then intent=unarchive → %i", async (who, status) => {
      const archived = await as(who).post("/w/acme/p/WEB/settings", { intent: "archive" });
      expectAnswer(archived, who, status, "/w/acme/p/WEB/settings", "/w/acme/p/WEB/settings");
      const done = status === 302 && who !== "signed-out";
      expect(await isArchived()).toBe(done);
      if (!done) must(await as("owner").post("/w/acme/p/WEB/settings", { intent: "archive" }), 302, "the owner archives");
      const unarchived = await as(who).post("/w/acme/p/WEB/settings", { intent: "unarchive" });
      expectAnswer(unarchived, who, status, "/w/acme/p/WEB/settings", "/w/acme/p/WEB/settings");
      expect(await isArchived()).toBe(!done);
      if (!done) must(await as("owner").post("/w/acme/p/WEB/settings", { intent: "unarchive" }), 302, "the owner unarchives");
      expect(await isArchived()).toBe(false);
    });
  });

  describe("labels (admin+)", () => {
    it.each(rowsOf(managers))("%s: POST /w/acme/settings/labels intent=create → %i", async (who, status) => {
      const name = `Label of ${who}`;
      const answer = await as(who).post("/w/acme/settings/labels", { intent: "create", name, color: "blue" });
      expectAnswer(answer, who, status, "/w/acme/settings/labels", "/w/acme/settings/labels");
      const page = (await as("owner").get("/w/acme/settings/labels")).body;
      expect(page.includes(`aria-label="${name}"`)).toBe(status === 302 && who !== "signed-out");
    });
  });

  /** WEB as it was just before it was archived, to compare with after it is unarchived. */
  let before: Awaited<ReturnType<typeof issueState>>;
  let listBefore: Awaited<ReturnType<typeof listRow>>;
  let commentsBefore: Awaited<ReturnType<typeof commentsOn>>;
  let issueCountBefore: string | undefined;
  const issueCount = async () =>
    />(\d+) issues?<\/span>/.exec((await as("owner").get("/w/acme/p/WEB/issues")).body.replaceAll("<!-- -->", ""))?.[1];

  describe("an archived project is read-only for everyone", () => {
    const ownComment = {} as Record<Member, string>;

    beforeAll(async () => {
      for (const who of ["owner", "admin", "member"] as const) ownComment[who] = await comment(who, `Before archiving, by ${who}`);
      before = await issueState();
      listBefore = await listRow(1);
      commentsBefore = await commentsOn();
      issueCountBefore = await issueCount();
      expect(Number(issueCountBefore)).toBeGreaterThan(1);
      must(await as("admin").post("/w/acme/p/WEB/settings", { intent: "archive" }), 302, "the admin archives WEB");
      expect(await isArchived()).toBe(true);
    });

    const commentOf = (who: Who) => ownComment[who as Member] ?? ownComment.member;
    const writes: [string, string, (who: Who) => Record<string, string>][] = [
      ["new issue", "/w/acme/p/WEB/issues/new", (who) => ({ title: `Archived issue by ${who}` })],
      ["update", "/w/acme/p/WEB/issues/1", (who) => ({ intent: "update", version: before.version!, title: `Archived edit by ${who}` })],
      ["status", "/w/acme/p/WEB/issues/1", () => ({ intent: "status", version: before.version!, status: "canceled" })],
      ["comment", "/w/acme/p/WEB/issues/1", (who) => ({ intent: "comment", body: `Archived comment by ${who}` })],
      ["edit-comment (own)", "/w/acme/p/WEB/issues/1", (who) => ({ intent: "edit-comment", commentId: commentOf(who), body: `Archived rewrite by ${who}` })],
      ["delete-comment (own)", "/w/acme/p/WEB/issues/1", (who) => ({ intent: "delete-comment", commentId: commentOf(who) })],
      ["quick status", "/w/acme/p/WEB/issues", () => ({ intent: "status", issueId: listBefore.issueId, version: listBefore.version, status: "canceled" })],
      ["settings update", "/w/acme/p/WEB/settings", (who) => ({ intent: "update", name: `Archived name by ${who}`, description: "" })],
      ["settings archive", "/w/acme/p/WEB/settings", () => ({ intent: "archive" })],
    ];
    const rows = writes.flatMap(([what, path, fields]) => rowsOf(byRole(403, 403, 403, 403)).map(([who, status]) => [who, what, path, fields, status] as const));

    it.each(rows)("%s: %s at %s → %i", async (who, _what, path, fields, status) => {
      const answer = await as(who).post(path, fields(who));
      expectAnswer(answer, who, status, path);
      // Those who could write before are told why they cannot now.
      if (status === 403 && who !== "viewer" && !(path.endsWith("/settings") && who === "member")) {
        expect(visible(answer.body)).toContain(archivedRefusal);
      }
    });

    // Watching is reading: anyone who can see the issue watches and unwatches it, archived or not.
    it.each(rowsOf(byRole(302, 302, 302, 302)))("%s: watch and unwatch WEB-1 → %i", async (who, status) => {
      const watchingNow = async () => /<button[^>]*value="unwatch"/.test((await as(who).get("/w/acme/p/WEB/issues/1")).body);
      for (const intent of ["watch", "unwatch"]) {
        const answer = await as(who).post("/w/acme/p/WEB/issues/1", { intent });
        expectAnswer(answer, who, status, "/w/acme/p/WEB/issues/1", "/w/acme/p/WEB/issues/1");
        if (status === 302 && who !== "signed-out") expect(await watchingNow()).toBe(intent === "watch");
      }
    });

    it("changed nothing that can be seen while archived", async () => {
      expect(await isArchived()).toBe(true);
      const html = await issuePage();
      expect(html).toContain(`>${before.title}</h2>`);
      expect((await commentsOn()).map((c) => c.body)).toEqual(commentsBefore.map((c) => c.body));
      expect(await issueCount()).toBe(issueCountBefore);
      expect(await projectName()).toBe("Website");
    });

    const reads: [string, Record<Who, number>][] = [
      ["/w/acme/p/WEB/issues", readers],
      ["/w/acme/p/WEB/issues?status=open&sort=number", readers],
      ["/w/acme/p/WEB/issues/1", readers],
      ["/w/acme/p/WEB/settings", byRole(200, 200, 403, 403)],
      ["/w/acme/p/WEB/issues/new", byRole(403, 403, 403, 403)],
    ];
    const readRows = reads.flatMap(([path, statuses]) => rowsOf(statuses).map(([who, status]) => [who, path, status] as const));

    it.each(readRows)("%s: GET %s → %i", async (who, path, status) => {
      const answer = await as(who).get(path);
      expectAnswer(answer, who, status, path);
    });

    it("shows no write control on an archived project, not even to the owner", async () => {
      const list = (await as("owner").get("/w/acme/p/WEB/issues")).body;
      const detail = (await as("owner").get("/w/acme/p/WEB/issues/1")).body;
      expect(list).not.toContain("menu=status-");
      expect(list).not.toContain('href="/w/acme/p/WEB/issues/new"');
      expect(detail).not.toContain('value="update"');
      expect(detail).not.toContain('value="comment"');
      // Deleting asks first: the link to the question (`?confirm=delete-comment-<id>`) is the control.
      expect(detail).not.toContain("confirm=delete-comment-");
    });

    it("workspace-wide writes are unaffected: an admin still creates labels and projects", async () => {
      expect((await as("admin").post("/w/acme/settings/labels", { intent: "create", name: "While archived", color: "green" })).status).toBe(302);
      expect((await as("admin").post("/w/acme/projects/new", { name: "While archived", key: "ARCH", description: "" })).status).toBe(302);
    });

    it.each(rowsOf(byRole(302, 302, 403, 403)))("%s: intent=unarchive → %i", async (who, status) => {
      const answer = await as(who).post("/w/acme/p/WEB/settings", { intent: "unarchive" });
      expectAnswer(answer, who, status, "/w/acme/p/WEB/settings", "/w/acme/p/WEB/settings");
      const unarchived = status === 302 && who !== "signed-out";
      expect(await isArchived()).toBe(!unarchived);
      if (unarchived) must(await as("admin").post("/w/acme/p/WEB/settings", { intent: "archive" }), 302, "archive again");
    });

    afterAll(async () => {
      must(await as("owner").post("/w/acme/p/WEB/settings", { intent: "unarchive" }), 302, "the owner unarchives WEB");
    });
  });

  describe("after unarchiving", () => {
    it("WEB-1 is exactly as it was before archiving: same version, status, title, comments", async () => {
      expect(await issueState()).toEqual(before);
      expect(await listRow(1)).toEqual(listBefore);
      expect(await commentsOn()).toEqual(commentsBefore);
      expect(await issueCount()).toBe(issueCountBefore);
    });

    it("WEB is writable again", async () => {
      expect(await isArchived()).toBe(false);
      const answer = await as("member").post("/w/acme/p/WEB/issues/1", { intent: "comment", body: "Back in business" });
      expect(answer.status).toBe(302);
      expect((await liveComments()).has("Back in business")).toBe(true);
    });
  });

  it("answered no request with a 500", () => {
    expect(sent.length).toBeGreaterThan(400);
    expect(sent.filter((s) => s.status >= 500).map(({ requestId: _, ...s }) => s)).toEqual([]);
  });

  it("logged no error for any request it sent", async () => {
    const ours = new Set(sent.map((s) => s.requestId));
    // The last request's completion line may still be on its way.
    await expect.poll(() => server.logs.some((line) => line.reqId === sent.at(-1)!.requestId && line.msg === "request completed")).toBe(true);
    const errors = server.logs.filter((line) => ours.has(line.reqId as string) && typeof line.level === "number" && line.level >= 50);
    expect(errors).toEqual([]);
  });
});
