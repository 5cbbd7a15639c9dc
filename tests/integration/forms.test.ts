import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

// Every form, given bad input by a browser without JavaScript: 400, the same form with the typed
// values and a message at each bad field — never a 500. (SQLite: the rules do not depend on the database.)
describe("bad input on every form", () => {
  let database: TestDatabase;
  let server: RunningServer;
  let ada: BrowserlessClient;
  const password = "correct horse battery";

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer(database.env);
    ada = new BrowserlessClient(server.url);
    expect((await ada.post("/signup", { name: "Ada", email: "ada@example.com", password })).status).toBe(302);
    expect((await ada.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  type Case = [what: string, path: string, fields: Record<string, string>, messages: string[], kept: string[]];
  const signedOut: Case[] = [
    ["sign-up with nothing", "/signup", { name: "", email: "", password: "" }, ["Enter a name.", "Enter an email address.", "Enter a password."], []],
    ["sign-up with a bad email and a short password", "/signup", { name: "Bea", email: "bea@", password: "short" }, ["Enter a valid email address.", "Use at least 10 characters."], ['value="Bea"', 'value="bea@"']],
    ["sign-up with a common password", "/signup", { name: "Bea", email: "bea@example.com", password: "1234567890" }, ["This password is too common: choose another."], ['value="bea@example.com"']],
    ["sign-up with the email as password", "/signup", { name: "Bea", email: "bea.long@example.com", password: "BEA.LONG@example.com" }, ["Your password must not be your email address."], ['value="bea.long@example.com"']],
    ["sign-up with a taken email", "/signup", { name: "Other Ada", email: "ADA@example.com", password }, ["An account with this email already exists."], ['value="Other Ada"']],
    ["sign-up with a 81-character name", "/signup", { name: "n".repeat(81), email: "long@example.com", password }, ["Use at most 80 characters."], ['value="long@example.com"']],
    ["sign-in with nothing", "/login", { email: "", password: "" }, ["Enter an email address.", "Enter your password."], []],
  ];
  const signedIn: Case[] = [
    ["profile with an empty name and a bad email", "/settings?index", { name: " ", email: "nope" }, ["Enter a name.", "Enter a valid email address."], ['value="nope"']],
    ["profile: a new email without the password", "/settings?index", { name: "Ada", email: "ada2@example.com" }, ["Enter your current password to change your email."], ['value="ada2@example.com"']],
    ["profile: a new email with a wrong password", "/settings?index", { name: "Ada", email: "ada2@example.com", currentPassword: "wrong password!" }, ["That is not your current password."], ['value="ada2@example.com"']],
    ["password: a short new one", "/settings/password", { currentPassword: password, newPassword: "short" }, ["Use at least 10 characters."], []],
    ["password: a wrong current one", "/settings/password", { currentPassword: "wrong password!", newPassword: "another good password" }, ["That is not your current password."], []],
    ["new workspace with a bad slug", "/w/new", { name: "Beta", slug: "-beta-" }, ["Use a–z, 0–9 and single hyphens, not at the start or the end."], ['value="Beta"', 'value="-beta-"']],
    ["new workspace with a reserved slug", "/w/new", { name: "Beta", slug: "settings" }, ["That slug is reserved: choose another."], ['value="settings"']],
    ["new workspace with a taken slug", "/w/new", { name: "Beta", slug: "ACME" }, ["That slug is taken: choose another."], ['value="Beta"']],
    ["new workspace with no name and a short slug", "/w/new", { name: "", slug: "ab" }, ["Enter a workspace name.", "Use at least 3 characters."], ['value="ab"']],
    ["rename to nothing", "/w/acme/settings?index", { intent: "rename", name: "   " }, ["Enter a workspace name."], []],
    ["delete with the wrong slug", "/w/acme/settings?index", { intent: "delete", confirm: "acne" }, ["Type acme to confirm."], ['value="acne"']],
    ["invite a bad email with no role", "/w/acme/settings/members", { intent: "invite", email: "x@", role: "" }, ["Enter a valid email address.", "Choose a role."], ['value="x@"']],
    ["invite with an unknown role", "/w/acme/settings/members", { intent: "invite", email: "bo@example.com", role: "king" }, ["Choose a role."], ['value="bo@example.com"']],
    ["invite oneself", "/w/acme/settings/members", { intent: "invite", email: "ada@example.com", role: "member" }, ["This person is already a member."], []],
  ];

  it.each(signedOut)("%s", async (_what, path, fields, messages, kept) => {
    const response = await new BrowserlessClient(server.url).post(path, fields);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    for (const message of messages) expect(html).toContain(message);
    for (const value of kept) expect(html).toContain(value);
    if (fields.password) expect(html).not.toContain(`value="${fields.password}"`);
  });

  it.each(signedIn)("%s", async (_what, path, fields, messages, kept) => {
    const response = await ada.post(path, fields);
    expect(response.status).toBe(400);
    const html = await response.text();
    for (const message of messages) expect(html).toContain(message);
    for (const value of kept) expect(html).toContain(value);
  });

  it.each([
    ["change-role with a non-numeric user", { intent: "change-role", userId: "abc", role: "member" }],
    ["change-role with no role", { intent: "change-role", userId: "1", role: "" }],
    ["remove with a negative user", { intent: "remove", userId: "-4" }],
    ["revoke with a non-numeric invitation", { intent: "revoke", invitationId: "1.5" }],
    ["an unknown intent", { intent: "dance" }],
  ])("members: %s is a 400, never a 500", async (_what, fields) => {
    expect((await ada.post("/w/acme/settings/members", fields)).status).toBe(400);
  });

  describe("a slug or key left empty is made from the name, then checked as if typed", () => {
    const input = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? "";

    it("a workspace: “Café Olé” is /w/cafe-ole; the same name again is refused with the slug shown", async () => {
      const created = await ada.post("/w/new", { name: "Café Olé", slug: "" });
      expect(created.status).toBe(302);
      expect(created.headers.get("location")).toBe("/w/cafe-ole");
      // Without a slug field at all, as a script may post it: the same suggestion, now taken.
      const again = await ada.post("/w/new", { name: "  Café  Olé!  " });
      expect(again.status).toBe(400);
      const html = await again.text();
      expect(html).toContain("That slug is taken: choose another.");
      expect(input(html, "slug")).toContain('value="cafe-ole"');
    });

    it.each([
      ["a reserved word", "New", "That slug is reserved: choose another.", 'value="new"'],
      ["too short", "AB", "Use at least 3 characters.", 'value="ab"'],
      ["nothing to make it from", "日本チーム", "Enter a slug.", ""],
    ])("a workspace name that makes %s → 400 with the message at the slug", async (_what, name, message, value) => {
      const response = await ada.post("/w/new", { name, slug: "" });
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).toContain(message);
      expect(input(html, "slug")).toContain(value);
    });

    it("a project: “Customer support portal” is CSP, “Website” WEB; “Webshop” then finds WEB taken", async () => {
      for (const [name, key] of [["Customer support portal", "CSP"], ["Website", "WEB"]]) {
        const created = await ada.post("/w/cafe-ole/projects/new", { name: name!, key: "", description: "" });
        expect(created.status).toBe(302);
        expect(created.headers.get("location")).toBe(`/w/cafe-ole/p/${key}/issues`);
      }
      const taken = await ada.post("/w/cafe-ole/projects/new", { name: "Webshop", description: "" });
      expect(taken.status).toBe(400);
      const html = await taken.text();
      expect(html).toContain("A project with this key already exists in this workspace.");
      expect(input(html, "key")).toContain('value="WEB"');
    });
  });

  it("answers 404 for a workspace id or invitation that does not exist", async () => {
    expect((await ada.post("/w/acme/settings/members", { intent: "revoke", invitationId: "999999" })).status).toBe(404);
    expect((await ada.get("/invitations/not-a-real-token")).status).toBe(404);
    expect((await ada.get("/w/no-such-workspace")).status).toBe(404);
  });
});
