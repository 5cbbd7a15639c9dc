/**
 * The issue page renders its description and comments with the workspace's issue references
 * linked (docs/product.md and DESIGN.md §3: "`WEB-42` references as links") — only to issues that
 * exist in this workspace — and task lists as checkboxes; a referenced issue's timeline says where
 * it was mentioned (issue 16). The rendering itself is unit-tested (tests/unit/markdown.test.ts);
 * this is the page.
 *
 *   acme: Ada (owner), projects WEB and API.   beta: Ada (owner), project OPS.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const password = "correct horse battery";

/** The page without its scripts, whose hydration data repeats the rendered HTML as a string. */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");

describe.each(testDialects)("Markdown on the issue page on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let ada: BrowserlessClient;

  async function post(path: string, fields: Record<string, string>) {
    const response = await ada.post(path, fields);
    if (response.status !== 302) throw new Error(`${path}: expected 302, got ${response.status} ${(await response.text()).slice(0, 300)}`);
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    ada = new BrowserlessClient(server.url);
    await post("/signup", { name: "Ada", email: "ada@example.com", password });
    await post("/w/new", { name: "Beta", slug: "beta" });
    await post("/w/beta/projects/new", { name: "Operations", key: "OPS", description: "" });
    await post("/w/beta/p/OPS/issues/new", { title: "Rotate keys" });
    await post("/w/new", { name: "Acme", slug: "acme" });
    await post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" });
    await post("/w/acme/projects/new", { name: "API", key: "API", description: "" });
    await post("/w/acme/p/API/issues/new", { title: "Tokens expire early" });
    await post("/w/acme/p/WEB/issues/new", {
      title: "Login loops",
      description: "Blocked by API-1, not by OPS-1 (another workspace's) nor API-9 (no such issue).\n\n- [x] reproduce\n- [ ] fix",
    });
    await post("/w/acme/p/WEB/issues/1", { intent: "comment", body: "Same as WEB-1? Not `API-1`." });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("links references to the workspace's issues in the description and comments, and renders task lists", async () => {
    const response = await ada.get("/w/acme/p/WEB/issues/1");
    expect(response.status).toBe(200);
    const page = visible(await response.text());

    expect(page).toContain(
      `Blocked by <a href="/w/acme/p/API/issues/1" title="Tokens expire early" class="issue-ref" rel="noopener noreferrer nofollow">API-1</a>, not by OPS-1 (another workspace's) nor API-9 (no such issue)`,
    );
    expect(page).toContain('<input type="checkbox" class="task-list-item-checkbox" disabled checked> reproduce</label>');
    expect(page).toContain('<input type="checkbox" class="task-list-item-checkbox" disabled> fix</label>');

    expect(page).toContain('Same as <a href="/w/acme/p/WEB/issues/1" title="Login loops" class="issue-ref" rel="noopener noreferrer nofollow">WEB-1</a>? Not <code>API-1</code>.');
    expect(page).not.toContain("/p/OPS/");
  });

  /** The activity lines of an issue's page, as text. */
  async function activity(path: string) {
    const page = visible(await (await ada.get(path)).text());
    return [...page.matchAll(/<li class="activity">([\s\S]*?)<\/li>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, "").replace(/\s+/g, " ").trim());
  }

  it("records on a referenced issue, once per issue that mentions it, where it was mentioned", async () => {
    // WEB-1's description (at its creation) mentioned API-1; the comment's own WEB-1 is no mention of itself.
    const mentions = (lines: string[]) => lines.filter((line) => line.includes("mentioned it in"));
    expect(mentions(await activity("/w/acme/p/API/issues/1"))).toEqual([expect.stringMatching(/^Ada mentioned it in WEB-1 · /)]);
    expect(mentions(await activity("/w/acme/p/WEB/issues/1"))).toEqual([]);
    const page = visible(await (await ada.get("/w/acme/p/API/issues/1")).text());
    expect(page).toMatch(/mentioned it in <a class="quiet-link font-medium" href="\/w\/acme\/p\/WEB\/issues\/1"[^>]*>WEB-1<\/a>/);

    // A second issue mentions API-1 in a comment, and again in an edit; WEB-1 mentions it again: one line each.
    await post("/w/acme/p/WEB/issues/new", { title: "Session cookie", description: "" });
    await post("/w/acme/p/WEB/issues/2", { intent: "comment", body: "Caused by API-1." });
    await post("/w/acme/p/WEB/issues/1", { intent: "comment", body: "API-1 again, and WEB-2." });
    const version = /name="version" value="(\d+)"/.exec(await (await ada.get("/w/acme/p/WEB/issues/2?edit=issue")).text())![1]!;
    await post("/w/acme/p/WEB/issues/2", { intent: "update", version, title: "Session cookie", description: "Also API-1, and OPS-1, API-9." });
    expect(mentions(await activity("/w/acme/p/API/issues/1"))).toEqual([
      expect.stringMatching(/^Ada mentioned it in WEB-1 · /),
      expect.stringMatching(/^Ada mentioned it in WEB-2 · /),
    ]);
    expect(mentions(await activity("/w/acme/p/WEB/issues/2"))).toEqual([expect.stringMatching(/^Ada mentioned it in WEB-1 · /)]);
    // Nothing was recorded in the other workspace.
    expect(mentions(await activity("/w/beta/p/OPS/issues/1"))).toEqual([]);
  });
});
