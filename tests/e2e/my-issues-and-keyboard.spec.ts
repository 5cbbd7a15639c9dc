/**
 * The workspace's home, "My issues" (docs/product.md, Screens: open issues assigned to me, across projects), and
 * the keyboard shortcuts (JavaScript only: "/" search, "c" new issue in a project, "j"/"k" through
 * issue links, "?" the list of shortcuts; never while typing in a field).
 */
import type { Locator, Page } from "@playwright/test";
import { uniqueEmail } from "./accounts-helpers";
import { fileIssuesByPost, inviteMember, joinByInvitation, optionValue } from "./board-helpers";
import { expect, test, waitForHydration } from "./fixtures";
import { createProject, open, signUpWithWorkspace } from "./issues-helpers";
import { issueLinkSelector } from "./issues-list-helpers";

/** The keys of the rows of a list of "My issues" (each row's title link ends its key's path). */
async function rowKeys(list: Locator): Promise<string[]> {
  return list
    .getByRole("listitem")
    .evaluateAll(
      (items, linkSelector) => items.map((item) => /\/p\/(\w+)\/issues\/(\d+)$/.exec(item.querySelector(linkSelector)?.getAttribute("href") ?? "")?.slice(1).join("-") ?? ""),
      issueLinkSelector,
    );
}

const assignedToMe = (page: Page) => page.getByRole("region", { name: "Assigned to me", exact: true });
const reportedByMe = (page: Page) => page.getByRole("region", { name: "Reported by me", exact: true });

/** My issues' views are tabs (links): "Assigned to me" first, then "Reported by me". */
async function showView(page: Page, view: "Assigned to me" | "Reported by me") {
  const tab = page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: view, exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("region", { name: view, exact: true })).toBeVisible();
}

test.describe("my issues", () => {
  // Two accounts (scrypt at N=2^17, docs/product.md, Limits), two projects.
  test.describe.configure({ timeout: 120_000 });

  test("shows my open issues across projects by status, not closed ones nor others', and what I reported", async ({
    page,
    browser,
    javaScriptEnabled,
    consoleErrors,
    baseURL,
  }, testInfo) => {
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Mia Mine", "Acme");

    // Nothing yet.
    await expect(assignedToMe(page)).toContainText("No open issues are assigned to you.");
    // The empty page says what it is for, and offers its first action.
    await expect(assignedToMe(page).getByRole("link", { name: "Create a project" })).toBeVisible();
    await expect(page).toHaveTitle("My issues · Acme · Cairn");
    await expect(page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Assigned to me" })).toHaveAttribute("aria-current", "page");
    await showView(page, "Reported by me");
    await expect(reportedByMe(page)).toContainText("You have not reported any issues here yet.");
    await expect(assignedToMe(page)).toHaveCount(0);

    const web = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const api = await createProject(page, javaScriptEnabled, slug, "Backend", "API");
    const link = await inviteMember(page, javaScriptEnabled, slug, uniqueEmail(testInfo, "gus"));
    const gus = await joinByInvitation(browser, javaScriptEnabled, baseURL, link, "Gus Other");
    try {
      const myId = await optionValue(page, `${web}/issues/new`, "Assignee", me);
      const gusId = await optionValue(page, `${web}/issues/new`, "Assignee", "Gus Other");
      await fileIssuesByPost(page, web, [
        { title: "Fix login", status: "todo", assigneeId: myId, priority: "high" },
        { title: "Write docs", status: "in_progress", assigneeId: myId },
        { title: "Old bug, done", status: "done", assigneeId: myId },
        { title: "For Gus", status: "todo", assigneeId: gusId },
        { title: "Dropped idea", status: "canceled", assigneeId: myId },
      ]);
      await fileIssuesByPost(page, api, [
        { title: "Rate limits", status: "backlog", assigneeId: myId },
        { title: "Review the schema", status: "in_review", assigneeId: myId, dueDate: "2030-01-31" },
        { title: "Nobody's yet", status: "todo" },
      ]);
      // Gus files one for me: assigned to me, but not reported by me.
      await fileIssuesByPost(gus.page, web, [{ title: "From Gus, for Mia", status: "todo", assigneeId: myId }]);

      await open(page, javaScriptEnabled, `/w/${slug}`);
      await expect(page.getByRole("heading", { level: 1, name: "My issues" })).toBeVisible();
      // The sidebar's "My issues" is the current page.
      await expect(page.getByRole("navigation", { name: "Workspace", exact: true }).getByRole("link", { name: "My issues" })).toHaveAttribute("aria-current", "page");

      const assigned = assignedToMe(page);
      // One group per open status that has issues, in the workflow's order.
      await expect(assigned.getByRole("heading", { level: 3 })).toHaveText(["Backlog (1)", "Todo (2)", "In progress (1)", "In review (1)"]);
      const group = (status: string) => assigned.getByRole("region", { name: status, exact: true });
      expect(await rowKeys(group("Backlog"))).toEqual(["API-1"]);
      // Higher priority first.
      expect(await rowKeys(group("Todo"))).toEqual(["WEB-1", "WEB-6"]);
      expect(await rowKeys(group("In progress"))).toEqual(["WEB-2"]);
      expect(await rowKeys(group("In review"))).toEqual(["API-2"]);
      await expect(group("Done")).toHaveCount(0);
      await expect(group("Canceled")).toHaveCount(0);
      for (const closedOrNotMine of ["Old bug, done", "Dropped idea", "For Gus", "Nobody's yet"]) {
        await expect(assigned.getByRole("link", { name: closedOrNotMine })).toHaveCount(0);
      }
      await expect(group("In review").getByRole("listitem").locator("time[datetime='2030-01-31']")).toHaveAttribute("title", "Due 2030-01-31");
      await expect(group("Todo").getByRole("listitem").first().getByRole("img", { name: "Priority of WEB-1: High" })).toBeVisible();

      // What I reported, open or closed, with its status — not what Gus filed: the other tab.
      await showView(page, "Reported by me");
      const reported = reportedByMe(page);
      expect((await rowKeys(reported)).sort()).toEqual(["API-1", "API-2", "API-3", "WEB-1", "WEB-2", "WEB-3", "WEB-4", "WEB-5"]);
      await expect(reported.getByRole("link", { name: "From Gus, for Mia" })).toHaveCount(0);
      await expect(reported.getByRole("listitem").filter({ hasText: "Old bug, done" }).getByRole("img", { name: /^Status of WEB-\d+: Done$/ })).toBeVisible();
      await expect(reported.getByRole("listitem").filter({ hasText: "Dropped idea" }).getByRole("img", { name: /^Status of WEB-\d+: Canceled$/ })).toBeVisible();

      // A row opens its issue, in its own project.
      await showView(page, "Assigned to me");
      await group("In review").getByRole("link", { name: "Review the schema" }).click();
      await expect(page).toHaveURL(`${api}/issues/2`);
      await expect(page.getByRole("article").getByRole("heading", { level: 2, name: "Review the schema" })).toBeVisible();

      // Gus's home shows the one assigned to him, and the one he reported.
      await open(gus.page, javaScriptEnabled, `/w/${slug}`);
      expect(await rowKeys(assignedToMe(gus.page))).toEqual(["WEB-4"]);
      await showView(gus.page, "Reported by me");
      expect(await rowKeys(reportedByMe(gus.page))).toEqual(["WEB-6"]);
    } finally {
      await gus.context.close();
    }
    expect(consoleErrors).toEqual([]);
  });
});

test.describe("keyboard shortcuts", () => {
  test.describe.configure({ timeout: 90_000 });

  test("'?' lists them, '/' searches, 'c' files, 'j'/'k' walk the list and Enter opens; typing in a field is only typing", async ({
    page,
    javaScriptEnabled,
    consoleErrors,
  }, testInfo) => {
    test.skip(!javaScriptEnabled, "the shortcuts exist only with JavaScript");
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Kit Keys", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssuesByPost(page, base, [{ title: "First filed" }, { title: "Second filed" }, { title: "Third filed" }]);

    await open(page, javaScriptEnabled, `${base}/issues`);
    const links = page.locator(issueLinkSelector);
    await expect(links).toHaveCount(3);
    // The list's order (most recently updated first): whatever it is, j and k follow it.
    const titles = await links.allTextContents();
    expect(titles.map((t) => t.trim()).sort()).toEqual(["First filed", "Second filed", "Third filed"]);

    // "?": the list of shortcuts, in a dialog; Escape closes it.
    await page.keyboard.press("?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Search");
    await expect(dialog).toContainText("New issue");
    await expect(dialog).toContainText("Next / previous issue");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // And its "Close" button.
    await page.keyboard.press("?");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    // "j" / "k": through the issue links, in the list's order, stopping at the ends.
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("j");
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press("j");
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await expect(links.nth(2)).toBeFocused();
    await page.keyboard.press("k");
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press("k");
    await page.keyboard.press("k");
    await expect(links.nth(0)).toBeFocused();
    await page.keyboard.press("j");
    await expect(links.nth(1)).toBeFocused();
    // Enter opens the focused one.
    await page.keyboard.press("Enter");
    await expect(page.getByRole("article").getByRole("heading", { level: 2, name: titles[1]!.trim() })).toBeVisible();
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^${base}/issues/\\d$`));

    // "/": the sidebar's search field, and the "/" is not typed into it.
    const search = page.getByRole("search", { name: "Workspace search" }).getByLabel("Search issues", { exact: true });
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("/");
    await expect(search).toBeFocused();
    await expect(search).toHaveValue("");

    // In the field, "c", "j", "k", "?" and "/" are only typed.
    const here = page.url();
    await page.keyboard.type("cjk?/c");
    await expect(search).toHaveValue("cjk?/c");
    await expect(search).toBeFocused();
    await expect(dialog).toBeHidden();
    expect(page.url()).toBe(here);
    await search.fill("");

    // So in the issue's comment box.
    const comment = page.getByRole("region", { name: "Activity" }).getByRole("textbox", { name: "Comment", exact: true });
    await comment.click();
    await page.keyboard.type("cj");
    await expect(comment).toHaveValue("cj");
    expect(page.url()).toBe(here);
    await comment.fill("");

    // With a modifier, a letter is not a shortcut.
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Control+c");
    expect(page.url()).toBe(here);

    // "c" in a project: "New issue".
    await page.keyboard.press("c");
    await expect(page).toHaveURL(`${base}/issues/new`);
    await expect(page.getByRole("heading", { level: 2, name: "New issue" })).toBeVisible();
    // In its title field, "c" is a letter of the title.
    await page.getByLabel("Title", { exact: true }).click();
    await page.keyboard.type("cc");
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue("cc");
    await expect(page).toHaveURL(`${base}/issues/new`);

    // Outside a project, "c" does nothing; "j" walks "My issues" when it has links (what I reported).
    await open(page, javaScriptEnabled, `/w/${slug}?view=reported`);
    await page.keyboard.press("c");
    await expect(page).toHaveURL(`/w/${slug}?view=reported`);
    const homeLinks = page.locator(issueLinkSelector);
    await expect(homeLinks).toHaveCount(3);
    await page.keyboard.press("j");
    await expect(homeLinks.first()).toBeFocused();

    // On the board as well, "?" works.
    await open(page, javaScriptEnabled, `${base}/board`);
    await waitForHydration(page, javaScriptEnabled);
    await page.keyboard.press("?");
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    expect(consoleErrors).toEqual([]);
  });
});
