/**
 * The issue page renders its description and comments with the workspace's issue references
 * linked (docs/product.md and DESIGN.md §3: "`WEB-42` references as links") and task lists as
 * checkboxes. The rendering itself is unit-tested (tests/unit/markdown.test.ts); this is the page.
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
    await post("/w/new", { name: "Acme", slug: "acme" });
    await post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" });
    await post("/w/acme/projects/new", { name: "API", key: "API", description: "" });
    await post("/w/acme/p/API/issues/new", { title: "Tokens expire early" });
    await post("/w/acme/p/WEB/issues/new", {
      title: "Login loops",
      description: "Blocked by API-1, not by OPS-1 (another workspace's).\n\n- [x] reproduce\n- [ ] fix",
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

    expect(page).toContain('Blocked by <a href="/w/acme/p/API/issues/1" rel="noopener noreferrer nofollow">API-1</a>, not by OPS-1');
    expect(page).toContain('<input type="checkbox" class="task-list-item-checkbox" disabled checked> reproduce</label>');
    expect(page).toContain('<input type="checkbox" class="task-list-item-checkbox" disabled> fix</label>');

    expect(page).toContain('Same as <a href="/w/acme/p/WEB/issues/1" rel="noopener noreferrer nofollow">WEB-1</a>? Not <code>API-1</code>.');
    expect(page).not.toContain("/p/OPS/");
  });
});
