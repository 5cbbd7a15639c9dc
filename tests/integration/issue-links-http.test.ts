/**
 * Sub-issues and relations over HTTP, as a browser without JavaScript drives them: "Add sub-issue"
 * (the new-issue form's `parent`), intent=set-parent|add-relation|remove-relation on the issue,
 * odd input answered 400 at its field with what was typed kept, a key of another workspace 404
 * (as one of no issue), a viewer 403; the list's `parent=` filter (and its CSV), and the "Blocked"
 * mark on the list and the board. SQLite: the rules do not depend on the database.
 *
 *   acme:  Ada (owner), Vic (viewer); project WEB with WEB-1 … WEB-4.
 *   other: Oscar (owner); project OPS with OPS-1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient, signUpOverHttp } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

type Answer = { status: number; location: string | null; body: string };

/** The page without its scripts (whose hydration data repeats the action's messages). */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replaceAll("<!-- -->", "");
/** A page's text, as read: its activity lines link the keys they name. */
const said = (page: string) => visible(page).replace(/<[^>]+>/g, "");

/** The properties panel's value for `term`. */
function propertyRow(page: string, term: string): string {
  return new RegExp(`<dt[^>]*>${term}</dt><dd[^>]*>([\\s\\S]*?)</dd>`).exec(page)?.[1] ?? "";
}

function inputValue(page: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(page)?.[0];
  return input ? /\bvalue="([^"]*)"/.exec(input)?.[1] : undefined;
}

describe("sub-issues and relations over HTTP", () => {
  let database: TestDatabase;
  let server: RunningServer;
  const clients: Record<"ada" | "vic" | "oscar", BrowserlessClient> = {} as never;

  async function send(client: BrowserlessClient, method: "GET" | "POST", path: string, fields: Record<string, string> = {}): Promise<Answer> {
    const response = method === "GET" ? await client.get(path) : await client.post(path, fields);
    return { status: response.status, location: response.headers.get("location"), body: await response.text() };
  }
  const post = (path: string, fields: Record<string, string>, client = clients.ada) => send(client, "POST", path, fields);
  const get = (path: string, client = clients.ada) => send(client, "GET", path);
  function must(answer: Answer, status: number, what: string): Answer {
    if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.body.slice(0, 300)}`);
    return answer;
  }
  const signUp = (name: string, email: string) => signUpOverHttp(server.url, name, email);

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer(database.env);
    clients.ada = await signUp("Ada Admin", "ada@example.com");
    clients.vic = await signUp("Vic Viewer", "vic@example.com");
    clients.oscar = await signUp("Oscar Outsider", "oscar@example.com");
    must(await post("/w/new", { name: "Acme", slug: "acme" }), 302, "acme");
    must(await post("/w/new", { name: "Other", slug: "other" }, clients.oscar), 302, "other");
    const invited = must(await post("/w/acme/settings/members", { intent: "invite", email: "vic@example.com", role: "viewer" }), 302, "invite");
    const link = /Invitation link<input[^>]*value="([^"]+)"/.exec((await get(invited.location!)).body)?.[1];
    expect((await clients.vic.post(new URL(link!).pathname, {})).status).toBe(302);
    must(await post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" }), 302, "WEB");
    for (const title of ["Launch the site", "Design the header", "Write the copy", "Publish"]) must(await post("/w/acme/p/WEB/issues/new", { title }), 302, title);
    must(await post("/w/other/projects/new", { name: "Operations", key: "OPS", description: "" }, clients.oscar), 302, "OPS");
    must(await post("/w/other/p/OPS/issues/new", { title: "Secret plan" }, clients.oscar), 302, "OPS-1");
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  describe("sub-issues", () => {
    it("files a sub-issue from the parent's 'Add sub-issue' link, and the parent shows it with its progress", async () => {
      const parent = visible(must(await get("/w/acme/p/WEB/issues/1"), 200, "WEB-1").body);
      expect(parent).toContain('href="/w/acme/p/WEB/issues/new?parent=WEB-1"');
      const form = must(await get("/w/acme/p/WEB/issues/new?parent=WEB-1"), 200, "new").body;
      expect(inputValue(form, "parent")).toBe("WEB-1");
      expect(must(await post("/w/acme/p/WEB/issues/new", { title: "Pick the fonts", parent: "WEB-1" }), 302, "WEB-5").location).toBe("/w/acme/p/WEB/issues/5");
      const after = visible((await get("/w/acme/p/WEB/issues/1")).body);
      expect(after).toContain("Sub-issues");
      expect(after).toContain("0 of 1 done");
      expect(after).toContain("Pick the fonts");
      expect(said(after)).toContain("added sub-issue WEB-5");
      expect(visible((await get("/w/acme/p/WEB/issues/5")).body)).toContain("Sub-issue of");
    });

    it("refuses a new issue under a key it cannot see with 404 at the field, keeping what was typed", async () => {
      const answer = await post("/w/acme/p/WEB/issues/new", { title: "Kept title", parent: "OPS-1" });
      expect(answer.status).toBe(404);
      expect(visible(answer.body)).toContain("Issue OPS-1 not found.");
      expect(inputValue(answer.body, "title")).toBe("Kept title");
      expect(inputValue(answer.body, "parent")).toBe("OPS-1");
    });

    it("sets and removes a parent (intent=set-parent), with activity on both sides", async () => {
      must(await post("/w/acme/p/WEB/issues/3", { intent: "set-parent", parent: "web-1" }), 302, "set");
      const child = visible((await get("/w/acme/p/WEB/issues/3")).body);
      expect(propertyRow(child, "Parent")).toContain("WEB-1");
      expect(said(child)).toContain("set parent WEB-1");
      expect(said((await get("/w/acme/p/WEB/issues/1")).body)).toMatch(/added sub-issue (WEB-5 and sub-issue )?WEB-3/);
      const filtered = visible((await get("/w/acme/p/WEB/issues?parent=WEB-1")).body);
      expect(filtered).toContain('aria-label="Remove filter Parent: WEB-1"');
      expect(filtered).toContain("Write the copy");
      expect(filtered).not.toContain("Design the header");
      const csv = (await get("/w/acme/p/WEB/issues.csv?parent=WEB-1")).body;
      expect(csv).toContain("Write the copy");
      expect(csv).not.toContain("Design the header");

      must(await post("/w/acme/p/WEB/issues/3", { intent: "set-parent", parent: "" }), 302, "remove");
      expect(said((await get("/w/acme/p/WEB/issues/3")).body)).toContain("removed parent WEB-1");
      expect(said((await get("/w/acme/p/WEB/issues/1")).body)).toContain("removed sub-issue WEB-3");
    });

    it.each([
      ["a key of another workspace", "OPS-1", 404, "Issue OPS-1 not found."],
      ["no issue", "WEB-404", 404, "Issue WEB-404 not found."],
      ["no key at all", "the first one", 400, "Enter an issue key like WEB-12."],
      ["itself", "WEB-2", 400, "An issue cannot be its own parent."],
      ["a long text", "W".repeat(500), 400, "Enter an issue key like WEB-12."],
    ])("refuses %s as parent at the Parent property, keeping what was typed", async (_, parent, status, message) => {
      const answer = await post("/w/acme/p/WEB/issues/2", { intent: "set-parent", parent });
      expect(answer.status).toBe(status);
      const page = visible(answer.body);
      expect(propertyRow(page, "Parent")).toContain(message);
      expect(inputValue(propertyRow(page, "Parent"), "parent")).toBe(parent);
    });

    it("refuses a cycle", async () => {
      must(await post("/w/acme/p/WEB/issues/2", { intent: "set-parent", parent: "WEB-1" }), 302, "WEB-2 under WEB-1");
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "set-parent", parent: "WEB-2" });
      expect(answer.status).toBe(400);
      expect(visible(answer.body)).toContain("WEB-2 is a sub-issue of WEB-1: an issue cannot be under its own sub-issue.");
      must(await post("/w/acme/p/WEB/issues/2", { intent: "set-parent", parent: "" }), 302, "undo");
    });

    it("lets a viewer change nothing (403), and an outsider see nothing (404)", async () => {
      expect((await post("/w/acme/p/WEB/issues/2", { intent: "set-parent", parent: "WEB-1" }, clients.vic)).status).toBe(403);
      expect((await post("/w/acme/p/WEB/issues/2", { intent: "set-parent", parent: "WEB-1" }, clients.oscar)).status).toBe(404);
      // The viewer sees the links, without their forms.
      const page = visible((await get("/w/acme/p/WEB/issues/1", clients.vic)).body);
      expect(page).toContain("Sub-issues");
      expect(page).not.toContain("Add sub-issue");
      expect(page).not.toContain('value="set-parent"');
    });
  });

  describe("relations", () => {
    it("adds 'blocked by', shown on both issues, and marks the blocked issue on the list and the board until the blocker closes", async () => {
      must(await post("/w/acme/p/WEB/issues/4", { intent: "add-relation", type: "blocked_by", target: "WEB-2" }), 302, "blocked by");
      const blocked = visible((await get("/w/acme/p/WEB/issues/4")).body);
      expect(propertyRow(blocked, "Relations")).toMatch(/Blocked by<\/span><ul aria-label="Blocked by"><li><a[^>]*href="\/w\/acme\/p\/WEB\/issues\/2"/);
      expect(said(blocked)).toContain("marked it as blocked by WEB-2");
      const blocker = visible((await get("/w/acme/p/WEB/issues/2")).body);
      expect(propertyRow(blocker, "Relations")).toContain("Blocks");
      expect(said(blocker)).toContain("marked it as blocking WEB-4");

      const list = visible((await get("/w/acme/p/WEB/issues")).body);
      expect(list.match(/aria-label="Blocked"/g)).toHaveLength(1);
      expect(visible((await get("/w/acme/p/WEB/board")).body).match(/aria-label="Blocked"/g)).toHaveLength(1);

      const version = /name="version" value="(\d+)"/.exec((await get("/w/acme/p/WEB/issues/2")).body)![1]!;
      must(await post("/w/acme/p/WEB/issues/2", { intent: "status", version, status: "done" }), 302, "WEB-2 done");
      expect(visible((await get("/w/acme/p/WEB/issues")).body)).not.toContain('aria-label="Blocked"');
    });

    it.each([
      ["an unknown type", { type: "causes", target: "WEB-1" }, 400, "Choose a kind of relation."],
      ["no key", { type: "relates_to", target: " " }, 400, "Enter an issue key like WEB-12."],
      ["a key of another workspace", { type: "relates_to", target: "OPS-1" }, 404, "Issue OPS-1 not found."],
      ["itself", { type: "relates_to", target: "WEB-3" }, 400, "An issue cannot be related to itself."],
    ])("refuses %s at the Relations property, keeping what was typed", async (_, fields, status, message) => {
      const answer = await post("/w/acme/p/WEB/issues/3", { intent: "add-relation", ...fields });
      expect(answer.status).toBe(status);
      const row = propertyRow(visible(answer.body), "Relations");
      expect(row).toContain(message);
      if (status === 404) expect(inputValue(row, "target")).toBe(fields.target);
    });

    it("refuses a second relation between the same two issues", async () => {
      must(await post("/w/acme/p/WEB/issues/3", { intent: "add-relation", type: "relates_to", target: "WEB-1" }), 302, "relates");
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "add-relation", type: "blocks", target: "WEB-3" });
      expect(answer.status).toBe(400);
      expect(visible(answer.body)).toContain("WEB-1 is already related to WEB-3. Remove that relation first.");
    });

    it("removes a relation by its button (intent=remove-relation); an odd or unknown id is refused", async () => {
      const page = (await get("/w/acme/p/WEB/issues/3")).body;
      const relationId = /name="relationId" value="(\d+)"/.exec(page)![1]!;
      expect(page).toContain('aria-label="Remove relation: Related to WEB-1"');
      expect((await post("/w/acme/p/WEB/issues/3", { intent: "remove-relation", relationId: "abc" })).status).toBe(400);
      expect((await post("/w/acme/p/WEB/issues/3", { intent: "remove-relation", relationId: "99999" })).status).toBe(404);
      expect((await post("/w/acme/p/WEB/issues/3", { intent: "remove-relation", relationId }, clients.vic)).status).toBe(403);
      must(await post("/w/acme/p/WEB/issues/3", { intent: "remove-relation", relationId }), 302, "remove");
      expect(said((await get("/w/acme/p/WEB/issues/1")).body)).toContain("removed “Related to WEB-3”");
    });

    it("closes a duplicate as canceled and shows 'Duplicated by' on the original", async () => {
      must(await post("/w/acme/p/WEB/issues/5", { intent: "add-relation", type: "duplicate_of", target: "WEB-3" }), 302, "duplicate");
      const duplicate = visible((await get("/w/acme/p/WEB/issues/5")).body);
      expect(propertyRow(duplicate, "Status")).toContain("Canceled");
      expect(said(duplicate)).toContain("marked it as a duplicate of WEB-3 and changed the status from Backlog to Canceled");
      expect(propertyRow(visible((await get("/w/acme/p/WEB/issues/3")).body), "Relations")).toContain("Duplicated by");
      // The parent of WEB-5 counts it as done.
      const parent = visible((await get("/w/acme/p/WEB/issues/1")).body);
      expect(/<section aria-labelledby="sub-issues-title"[\s\S]*?<\/section>/.exec(parent)?.[0]).toContain("1 of 1 done");
    });
  });
});
