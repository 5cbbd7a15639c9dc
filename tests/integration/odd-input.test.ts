/**
 * Issue 11, items 6, 7, 8 and 12, over HTTP as a browser without JavaScript (and with, where a data
 * request differs), on every database:
 * - a NUL in a text field or a query parameter is refused (400, message at the field), and in a
 *   route parameter names nothing (404) — it was a 500 on PostgreSQL;
 * - integers past PostgreSQL's `integer` (a version of 2^31) are refused — a 500 on PostgreSQL;
 * - a form posted as text/plain, JSON or without a content type is a 415 — it was a 500;
 * - direction controls are refused in single-line fields and overrides in Markdown, with the message
 *   at the field and the typed values kept — they were saved and shown as typed;
 * - a User-Agent is stored cleaned, and a redirect target is percent-encoded — it was a 500.
 *
 *   acme: Ada (owner, instance admin), Bo (member); project WEB with issue WEB-1; label Bug.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { createIssue } from "~/issues/issues.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";
import { issueFields } from "../support/issues";
import { type RunningServer, startServer } from "../support/server";
import { insertUser } from "../support/users";
import { addMember, insertProject } from "../support/workspaces";

const password = "correct horse battery";
const at = new Date("2025-05-01T09:00:00.000Z");

const nulMessage = "Remove the invisible control character (U+0000).";
const directionMessage = (code: string) => `Remove the invisible character that changes the direction of text (U+${code}).`;
const unreadable = "This form could not be read. Reload the page and try again.";

/** The page without its scripts (their hydration data repeats every value and message). */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
/** The value attribute of the input with this name, as rendered. */
const inputValue = (page: string, name: string) => /\bvalue="([^"]*)"/.exec(new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(page)?.[0] ?? "")?.[1];

describe.each(testDialects)("odd input on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let handle: DatabaseHandle;
  let ada: BrowserlessClient;
  let issueId: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    handle = database.open();
    ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password })).status).toBe(302);
    expect((await ada.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    const { db } = handle;
    const workspace = await db.selectFrom("workspaces").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow();
    const adaId = (await db.selectFrom("users").select("id").where("email", "=", "ada@example.com").executeTakeFirstOrThrow()).id;
    const boId = await insertUser(db, { name: "Bo", at });
    await addMember(db, { workspaceId: workspace.id, userId: boId, role: "member", at });
    const project = await insertProject(db, { workspaceId: workspace.id, key: "WEB", name: "Website", at });
    await db.insertInto("labels").values({ workspace_id: workspace.id, name: "Bug", color: "red", created_at: at.toISOString(), updated_at: at.toISOString() }).execute();
    await createIssue(db, { project, reporterId: adaId, fields: issueFields({ title: "Login fails" }), now: at });
    issueId = (await db.selectFrom("issues").select("id").executeTakeFirstOrThrow()).id;
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await server?.stop();
    await database?.drop();
  });

  const issueVersion = async () => (await handle.db.selectFrom("issues").select("version").where("id", "=", issueId).executeTakeFirstOrThrow()).version;

  describe("item 6: NUL", () => {
    it.each([
      ["a project name", "/w/acme/projects/new", { name: "Mo\u0000bile", key: "MOB", description: "Apps" }, "key", "MOB"],
      ["a project description", "/w/acme/projects/new", { name: "Mobile", key: "MOB", description: "A\u0000pps" }, "name", "Mobile"],
      ["an issue title", "/w/acme/p/WEB/issues/new", { title: "Cr\u0000ash", description: "", status: "todo", priority: "none", assigneeId: "", dueDate: "2030-01-31" }, "dueDate", "2030-01-31"],
      ["an issue description", "/w/acme/p/WEB/issues/new", { title: "Crash", description: "St\u0000eps", status: "todo", priority: "none", assigneeId: "", dueDate: "" }, "title", "Crash"],
      ["a label name", "/w/acme/settings/labels", { intent: "create", name: "Bu\u0000g", color: "blue" }, undefined, undefined],
      ["a workspace name", "/w/new", { name: "Be\u0000ta", slug: "beta" }, "slug", "beta"],
      ["a profile name", "/settings?index", { name: "A\u0000da", email: "ada@example.com" }, "email", "ada@example.com"],
    ])("in %s is refused at the field, the other values kept", async (_what, path, fields, keptName, keptValue) => {
      const response = await ada.post(path, fields);
      expect(response.status).toBe(400);
      const page = visible(await response.text());
      expect(page).toContain(nulMessage);
      if (keptName) expect(inputValue(page, keptName)).toBe(keptValue);
    });

    it("in a comment is refused at the field", async () => {
      const response = await ada.post("/w/acme/p/WEB/issues/1", { intent: "comment", body: "Me\u0000 too" });
      expect(response.status).toBe(400);
      expect(visible(await response.text())).toContain(nulMessage);
      expect(await handle.db.selectFrom("comments").select("id").execute()).toEqual([]);
    });

    it("in the list's or the search's text is refused at the search field, the typed text kept", async () => {
      const list = await ada.get("/w/acme/p/WEB/issues?q=lo%00gin&status=open");
      expect(list.status).toBe(400);
      const listPage = visible(await list.text());
      const searchInput = /<input[^>]*aria-describedby="issue-search-error"[^>]*>/.exec(listPage)?.[0];
      expect(searchInput).toContain('aria-invalid="true"');
      expect(searchInput).toContain('name="q"');
      // The field's description is the message itself (IssueFilterBar), not a second alert.
      expect(/<span id="issue-search-error"[^>]*>([^<]*)<\/span>/.exec(listPage)?.[1]).toBe(nulMessage);
      expect(listPage).toContain("Login fails");

      const search = await ada.get("/w/acme/search?q=lo%00gin");
      expect(search.status).toBe(400);
      const searchPage = visible(await search.text());
      expect(searchPage).toContain(nulMessage);
      expect(searchPage).not.toContain("result");
    });

    it("in the search text of the board's or the CSV's address is a 400 that says why", async () => {
      for (const path of ["/w/acme/p/WEB/board?q=a%00b", "/w/acme/p/WEB/issues.csv?q=a%00b"]) {
        const response = await ada.get(path);
        expect(response.status, path).toBe(400);
        expect(await response.text(), path).toContain(`The search text of this address cannot be used. ${nulMessage}`);
      }
    });

    it("in the monitoring screen's route filter is ignored, as an unknown route is", async () => {
      expect((await ada.get("/admin/monitoring?route=%2Fw%00")).status).toBe(200);
    });

    it("in a workspace's slug in the URL names no workspace (404)", async () => {
      for (const path of ["/w/ac%00me", "/w/%00", "/w/ac%00me/p/WEB/issues", "/w/ac%00me/search?q=x", `/w/${"a".repeat(41)}`]) {
        expect((await ada.get(path)).status, path).toBe(404);
      }
      expect((await ada.post("/w/ac%00me", { intent: "leave" })).status).toBe(404);
    });
  });

  describe("item 7: integers past PostgreSQL's integer", () => {
    it.each([
      ["an edit", "/w/acme/p/WEB/issues/1", (version: string) => ({ intent: "update", version, title: "Login fails badly" })],
      ["a status change", "/w/acme/p/WEB/issues/1", (version: string) => ({ intent: "status", version, status: "done" })],
      ["a status change from the list", "/w/acme/p/WEB/issues", (version: string) => ({ intent: "status", issueId: String(issueId), version, status: "done" })],
    ])("a version of 2^31 in %s is refused, and nothing changes", async (_what, path, fields) => {
      const before = await issueVersion();
      for (const version of ["2147483648", "99999999999999999999"]) {
        const response = await ada.post(path, fields(version));
        expect(response.status, version).toBe(400);
      }
      expect(await issueVersion()).toBe(before);
    });
  });

  describe("item 8: a form body that is not a form", () => {
    const send = (path: string, body: string, headers: Record<string, string>) =>
      fetch(new URL(path, server.url), { method: "POST", redirect: "manual", body, headers: { cookie: ada.cookieHeader(), origin: server.url, ...headers } });

    it.each([
      ["text/plain", { "content-type": "text/plain" }],
      ["application/json", { "content-type": "application/json" }],
      ["no content type", {}],
    ])("as %s is a 415 with the form error, on every form route", async (_what, headers) => {
      for (const path of ["/w/acme/settings/labels", "/w/acme/p/WEB/issues/1", "/w/acme/settings?index", "/w/acme", "/w/new"]) {
        const response = await send(path, "intent=create&name=Bug", headers);
        expect(response.status, path).toBe(415);
        const page = visible(await response.text());
        expect(page, path).toContain(unreadable);
        expect(page, path).toContain("Form not readable");
      }
    });

    it("as a data request (JavaScript on) is a 415 too", async () => {
      const response = await send("/w/acme/settings/labels.data", "intent=create&name=Bug", { "content-type": "text/plain;charset=UTF-8" });
      expect(response.status).toBe(415);
      expect(await response.text()).toContain(unreadable);
    });

    it("that claims to be multipart but is broken is a 400 with the form error", async () => {
      const response = await send("/w/acme/settings/labels", "--x\r\ngarbage", { "content-type": "multipart/form-data; boundary=x" });
      expect(response.status).toBe(400);
      expect(visible(await response.text())).toContain(unreadable);
    });
  });

  describe("item 12: direction controls and broken characters", () => {
    it.each([
      ["an issue title", "/w/acme/p/WEB/issues/new", { title: "\u202egnp.exe", description: "", status: "todo", priority: "none", assigneeId: "", dueDate: "" }, "title", "202E"],
      ["a label name", "/w/acme/settings/labels", { intent: "create", name: "B\u2067ug\u2069", color: "blue" }, "name", "2067"],
      ["a project name", "/w/acme/projects/new", { name: "Mo\u202abile", key: "MOB", description: "" }, "name", "202A"],
      ["a workspace name", "/w/acme/settings?index", { intent: "rename", name: "Ac\u202dme" }, "name", "202D"],
      ["a user name", "/settings?index", { name: "A\u2068da", email: "ada@example.com" }, "name", "2068"],
    ])("in %s are refused at the field, the typed value kept", async (_what, path, fields, field, code) => {
      const response = await ada.post(path, fields);
      expect(response.status).toBe(400);
      const page = visible(await response.text());
      expect(page).toContain(directionMessage(code));
      expect(page).toContain(`name="${field}" value="${(fields as Record<string, string>)[field]}"`);
    });

    it("an override in a description or a comment is refused; embeddings, isolates and marks are kept", async () => {
      const refused = await ada.post("/w/acme/p/WEB/issues/1", { intent: "comment", body: "see `x = 1; \u202e// }`" });
      expect(refused.status).toBe(400);
      expect(visible(await refused.text())).toContain(directionMessage("202E"));

      const rightToLeft = "שלום \u2067world\u2069 \u202bעולם\u202c (1)\u200f";
      expect((await ada.post("/w/acme/p/WEB/issues/1", { intent: "comment", body: rightToLeft })).status).toBe(302);
      expect((await handle.db.selectFrom("comments").select("body").executeTakeFirstOrThrow()).body).toBe(rightToLeft);
    });

    it("a form whose bytes are not UTF-8 (half of a surrogate pair) is a 400, not a title of U+FFFD", async () => {
      const response = await fetch(new URL("/w/acme/p/WEB/issues/new", server.url), {
        method: "POST",
        redirect: "manual",
        body: "title=Crash%ED%A0%80&description=&status=todo&priority=none&assigneeId=&dueDate=",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: ada.cookieHeader(), origin: server.url },
      });
      expect(response.status).toBe(400);
      expect(visible(await response.text())).toContain(unreadable);
      expect(await handle.db.selectFrom("issues").select("title").where("title", "like", "Crash%").execute()).toEqual([]);
    });

    it("a right-to-left mark in a title is kept", async () => {
      const title = "שלום\u200f (login)";
      const response = await ada.post("/w/acme/p/WEB/issues/new", { title, description: "", status: "todo", priority: "none", assigneeId: "", dueDate: "" });
      expect(response.status).toBe(302);
      expect(await handle.db.selectFrom("issues").select("title").where("title", "=", title).executeTakeFirst()).toEqual({ title });
    });
  });

  describe("what reaches SQL or a header from elsewhere", () => {
    it("a User-Agent is stored without its control characters", async () => {
      const bea = new BrowserlessClient(server.url);
      const response = await bea.post("/login", { email: "ada@example.com", password }, { "user-agent": "Mozilla/5.0 \u0085\u009b[31mred" });
      expect(response.status).toBe(302);
      const sessions = await handle.db.selectFrom("sessions").select("user_agent").where("user_agent", "like", "Mozilla/5.0 %").execute();
      expect(sessions).toEqual([{ user_agent: "Mozilla/5.0 [31mred" }]);
    });

    it("a redirect target with a direction control or a non-ASCII letter is percent-encoded", async () => {
      const bea = new BrowserlessClient(server.url);
      const response = await bea.post("/login", { email: "ada@example.com", password, redirectTo: "/w/acme/search?q=caf\u00e9\u202e" });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/w/acme/search?q=caf%C3%A9%E2%80%AE");
    });
  });
});
