import { expect, test } from "./fixtures";
import { createProject, fileIssue, open, signUpWithWorkspace } from "./issues-helpers";

test.describe("search", () => {
  // Each journey signs up (scrypt at N=2^17, docs/product.md, Limits) and files several issues.
  test.describe.configure({ timeout: 90_000 });

  test("search from the sidebar, see the matching words marked and snippets as text, find a word with a typo, open a result; a key jumps to its issue", async ({
    page,
    javaScriptEnabled,
    consoleErrors,
  }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Sam Searcher", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssue(page, javaScriptEnabled, base, { title: "Login page crashes on Safari", description: "## Steps\n\n1. Open **the page**\n2. Press `Enter`." });
    await fileIssue(page, javaScriptEnabled, base, { title: "Dark mode colors", description: "The LOGIN screen ignores dark mode entirely." });
    await fileIssue(page, javaScriptEnabled, base, { title: "Footer links", description: "Nothing to do with it." });
    // A comment that matches, on the third issue (over HTTP, as a script would post it).
    const commented = await page.request.post(`${base}/issues/3`, {
      form: { intent: "comment", body: "Same problem after the relogin, and with logins from Firefox." },
      maxRedirects: 0,
    });
    expect([302, 303]).toContain(commented.status());

    // The sidebar's search, from wherever one is in the workspace.
    const sidebarSearch = page.getByRole("search", { name: "Workspace search" }).getByLabel("Search issues", { exact: true });
    await sidebarSearch.fill("login");
    await sidebarSearch.press("Enter");
    await expect(page).toHaveURL(`/w/${slug}/search?q=login`);
    await expect(page.getByRole("heading", { level: 1, name: "Search" })).toBeVisible();
    await expect(page).toHaveTitle(/^Search: login · .+ · Cairn$/);
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("login");
    await expect(page.getByText("3 results", { exact: true })).toBeVisible();

    const resultsRegion = page.getByRole("region", { name: "Results" });
    const results = resultsRegion.getByRole("listitem");
    await expect(results).toHaveCount(3);
    // The title match first; matching words (and only those) wrapped in <mark>.
    await expect(results.first().getByRole("link")).toHaveText("Login page crashes on Safari");
    await expect(results.first().getByText("WEB-1", { exact: true })).toBeVisible();
    await expect(results.first().locator("mark")).toHaveText(["Login"]);
    // Its snippet is the description as it reads, not its Markdown.
    await expect(results.first().getByText("Steps Open the page Press Enter.", { exact: true })).toBeVisible();
    const dark = results.filter({ hasText: "Dark mode colors" });
    await expect(dark.getByText("WEB-2", { exact: true })).toBeVisible();
    await expect(dark.locator("mark")).toHaveText(["LOGIN"]);
    const footer = results.filter({ hasText: "Footer links" });
    await expect(footer.getByText("Same problem after the relogin, and with logins from Firefox.")).toBeVisible();
    await expect(footer.locator("mark")).toHaveText(["logins"]);

    // A word with a typo finds the word meant, marked.
    await sidebarSearch.fill("footr");
    await sidebarSearch.press("Enter");
    await expect(page.getByText("1 result", { exact: true })).toBeVisible();
    await expect(results).toHaveCount(1);
    await expect(results.first().locator("mark")).toHaveText(["Footer"]);
    await sidebarSearch.fill("login");
    await sidebarSearch.press("Enter");
    await expect(page.getByText("3 results", { exact: true })).toBeVisible();

    // Open one.
    await dark.getByRole("link", { name: "Dark mode colors" }).click();
    await expect(page).toHaveURL(`${base}/issues/2`);
    await expect(page.getByRole("article").getByRole("heading", { level: 2, name: "Dark mode colors" })).toBeVisible();

    // An issue key (any case) jumps straight to the issue.
    await sidebarSearch.fill("web-1");
    await sidebarSearch.press("Enter");
    await expect(page).toHaveURL(`${base}/issues/1`);
    await expect(page.getByRole("article").getByRole("heading", { level: 2, name: "Login page crashes on Safari" })).toBeVisible();

    // The search page's own form: another key, then words that match nothing.
    await open(page, javaScriptEnabled, `/w/${slug}/search`);
    const form = page.getByRole("search", { name: "Search this workspace" });
    await form.getByLabel("Search", { exact: true }).fill("WEB-2");
    await form.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(`${base}/issues/2`);
    await expect(page.getByRole("article").getByRole("heading", { level: 2, name: "Dark mode colors" })).toBeVisible();

    await sidebarSearch.fill("zeppelin “quoted” <b>");
    await sidebarSearch.press("Enter");
    await expect(page.getByText("0 results", { exact: true })).toBeVisible();
    await expect(page.getByText("No issues match “zeppelin “quoted” <b>”.", { exact: true })).toBeVisible();
    await expect(resultsRegion.locator("b, mark")).toHaveCount(0);
    // A key of an issue that does not exist is searched as words.
    await page.getByLabel("Search", { exact: true }).fill("WEB-99");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(`/w/${slug}/search?q=WEB-99`);
    await expect(page.getByText("No issues match “WEB-99”.", { exact: true })).toBeVisible();

    expect(consoleErrors).toEqual([]);
  });

  test("results come in pages of 50 that keep the query", async ({ page, javaScriptEnabled }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Pat Pager", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    // 51 issues over HTTP with the browser's session, as a script would file them (docs/product.md, "Driving it without a browser").
    for (let i = 1; i <= 51; i++) {
      const response = await page.request.post(`${base}/issues/new`, {
        form: { title: `Paged report ${i}`, description: "", status: "todo", priority: "none", assigneeId: "", dueDate: "" },
        maxRedirects: 0,
      });
      expect([302, 303]).toContain(response.status());
    }
    await open(page, javaScriptEnabled, `/w/${slug}/search?q=paged`);
    await expect(page.getByText("51 results · page 1 of 2", { exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: "Results" }).getByRole("listitem")).toHaveCount(50);
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(`/w/${slug}/search?q=paged&page=2`);
    await expect(page.getByRole("region", { name: "Results" }).getByRole("listitem")).toHaveCount(1);
    await expect(page.getByLabel("Search", { exact: true })).toHaveValue("paged");
    await page.getByRole("link", { name: "Previous page" }).click();
    await expect(page).toHaveURL(`/w/${slug}/search?q=paged`);
    await expect(page.getByRole("region", { name: "Results" }).getByRole("listitem")).toHaveCount(50);
  });
});
