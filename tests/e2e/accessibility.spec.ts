/**
 * The quality bar: "Accessible: landmarks, labels on every control, visible focus, keyboard
 * reachable, color contrast AA; axe finds no serious violations." An axe scan (WCAG 2.0/2.1 A and
 * AA rules) of the main screens, in the light and the dark color scheme, with and without
 * JavaScript: no violation of impact "serious" or "critical".
 *
 * axe is a script: in a page with JavaScript disabled it cannot run (its evaluation never
 * finishes). Without JavaScript, each screen is therefore opened twice: in the test's page (no
 * JavaScript: what is checked there is that the screen is the one meant), and in a mirror page of
 * the same session whose scripts are all blocked — the server's HTML, never hydrated, exactly what
 * a browser without JavaScript shows — where axe runs.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { describeFindings, type Finding, scan } from "./axe";
import { createLabelInSettings, fileIssuesByPost } from "./board-helpers";
import { expect, test, waitForHydration } from "./fixtures";
import { createProject, fileIssue, open, signUpWithWorkspace } from "./issues-helpers";
import { issueLinkSelector } from "./issues-list-helpers";

/** A context with the session of `page`, the color scheme asked for, and every script request refused. */
async function scriptlessMirror(browser: Browser, baseURL: string, page: Page, colorScheme: "light" | "dark"): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: true, colorScheme, storageState: await page.context().storageState() });
  await context.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
  return context;
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`accessibility, ${colorScheme} color scheme`, () => {
    // Signs up (scrypt, docs/product.md, Limits), files issues and scans the main screens; without
    // JavaScript each twice over (the page, then its scriptless mirror): minutes on a busy 2-core machine.
    test.describe.configure({ timeout: 300_000 });

    test(`axe finds no serious or critical violation on the main screens (${colorScheme})`, async ({ page, browser, baseURL, javaScriptEnabled }, testInfo) => {
      test.skip(testInfo.project.use.colorScheme !== colorScheme, "the project of this color scheme runs it");
      await page.emulateMedia({ colorScheme });
      const findings: Finding[] = [];
      let mirror: BrowserContext | undefined;
      /** Opens a screen, checks it is the one meant, and scans it (without JavaScript: in the mirror). */
      async function check(name: string, path: string, ready: (page: Page) => Promise<void>) {
        await open(page, javaScriptEnabled, path);
        await ready(page);
        let scanned = page;
        if (!javaScriptEnabled) {
          await mirror?.close();
          mirror = await scriptlessMirror(browser, baseURL, page, colorScheme);
          scanned = await mirror.newPage();
          await scanned.goto(path);
          await ready(scanned);
          // Not hydrated: no React Router in the mirror.
          expect(await scanned.evaluate(() => "__reactRouterRouteModules" in window)).toBe(false);
        }
        expect(await scanned.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(colorScheme === "dark");
        const found = await scan(scanned, name);
        findings.push(...found);
        // Dark scheme included: secondary text is zinc-400 there, for AA contrast.
        expect(found, `axe on ${name} (${path}), ${colorScheme}, JavaScript ${javaScriptEnabled ? "on" : "off"}:\n${describeFindings(found)}`).toEqual([]);
      }

      // Signed out: the account forms.
      await check("Sign in", "/login", async (p) => expect(p.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible());
      await check("Create account", "/signup", async (p) => expect(p.getByRole("heading", { level: 1, name: "Create account" })).toBeVisible());
      await check("Forgot password", "/forgot-password", async (p) => expect(p.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible());

      const { slug, name } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Alex Axe", "Acme");
      await createLabelInSettings(page, javaScriptEnabled, slug, "Bug", "Red");
      await createLabelInSettings(page, javaScriptEnabled, slug, "Design", "Purple");
      const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB", "The public website.");
      const detailUrl = await fileIssue(page, javaScriptEnabled, base, {
        title: "Login button does nothing",
        description: "Steps:\n\n1. Open **the login page**\n2. Press the button\n\n`nothing happens`",
        priority: "Urgent",
        assignee: name,
        dueDate: "2030-03-15",
        labels: ["Bug", "Design"],
      });
      const commented = await page.request.post(detailUrl, { form: { intent: "comment", body: "Same on Firefox. See [the log](https://example.com/log)." }, maxRedirects: 0 });
      expect([302, 303]).toContain(commented.status());
      await fileIssuesByPost(page, base, [
        { title: "Footer links are broken", status: "in_progress", priority: "high" },
        { title: "Dark mode colors", status: "in_review", priority: "low" },
        { title: "Old login page", status: "done" },
        { title: "Login copy", status: "canceled", priority: "medium" },
      ]);

      await check("Issue list", `${base}/issues`, async (p) => expect(p.locator(issueLinkSelector)).toHaveCount(5));
      // Every row selected for a bulk edit (?select=all): the boxes and the strip's menus.
      await check("Issue list, rows selected", `${base}/issues?select=all`, async (p) => {
        await expect(p.getByRole("checkbox", { name: /^Select WEB-\d+$/, checked: true })).toHaveCount(5);
        await expect(p.getByRole("form", { name: "Bulk edit" }).getByRole("button", { name: "Apply to selected" })).toBeVisible();
      });
      await check("Issue list, filtered", `${base}/issues?status=open&sort=priority`, async (p) => expect(p.locator(issueLinkSelector)).toHaveCount(3));
      await check("Issue detail", new URL(detailUrl).pathname, async (p) => {
        await expect(p.getByRole("article").getByRole("heading", { level: 2, name: "Login button does nothing" })).toBeVisible();
        await expect(p.getByRole("region", { name: "Activity" })).toContainText("Same on Firefox.");
        await expect(p.getByRole("article").getByText("Design", { exact: true }).first()).toBeVisible();
      });
      await check("Board", `${base}/board`, async (p) => {
        await expect(p.getByRole("region", { name: /^In progress \d+$/ })).toBeVisible();
        await expect(p.getByRole("listitem").filter({ has: p.getByRole("link", { name: "Login button does nothing", exact: true }) })).toBeVisible();
      });
      await check("Search results", `/w/${slug}/search?q=login`, async (p) => {
        await expect(p.getByRole("region", { name: "Results" }).getByRole("listitem").first()).toBeVisible();
      });
      await check("My issues", `/w/${slug}`, async (p) => {
        await expect(p.getByRole("heading", { level: 1, name: "My issues" })).toBeVisible();
        await expect(p.getByRole("region", { name: "Assigned to me", exact: true }).getByRole("link", { name: "Login button does nothing" })).toBeVisible();
      });
      await check("New issue", `${base}/issues/new`, async (p) => expect(p.getByRole("heading", { level: 2, name: "New issue" })).toBeVisible());
      await check("Inbox", `/w/${slug}/inbox`, async (p) => expect(p.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible());
      await check("Notification settings", "/settings/notifications", async (p) => expect(p.getByRole("radio", { name: /Everything/ })).toBeVisible());
      await check("API tokens", "/settings/tokens", async (p) => expect(p.getByRole("heading", { level: 2, name: "New token" })).toBeVisible());
      await check("Webhooks", `/w/${slug}/settings/webhooks`, async (p) => expect(p.getByRole("heading", { level: 2, name: "Add webhook" })).toBeVisible());
      await check("API reference", "/api", async (p) => expect(p.getByRole("heading", { level: 1, name: "Cairn API" })).toBeVisible());

      if (javaScriptEnabled) {
        // The keyboard shortcuts' dialog, open.
        await open(page, javaScriptEnabled, `${base}/issues`);
        await waitForHydration(page, javaScriptEnabled);
        await page.keyboard.press("?");
        await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
        const found = await scan(page, "Keyboard shortcuts dialog");
        findings.push(...found);
        expect(found, `axe on the shortcuts dialog, ${colorScheme}:\n${describeFindings(found)}`).toEqual([]);

        // The @mention suggestions, open under the comment box.
        await open(page, javaScriptEnabled, new URL(detailUrl).pathname);
        await page.getByLabel("Comment", { exact: true }).pressSequentially("Thanks @Al");
        await expect(page.getByRole("listbox", { name: "People to mention" }).getByRole("option")).toHaveCount(1);
        const mentions = await scan(page, "Mention suggestions");
        findings.push(...mentions);
        expect(mentions, `axe on the mention suggestions, ${colorScheme}:\n${describeFindings(mentions)}`).toEqual([]);
      }

      await mirror?.close();
      if (findings.length) testInfo.annotations.push({ type: "axe", description: describeFindings(findings) });
    });
  });
}
