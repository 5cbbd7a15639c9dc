/**
 * Saved views (issue 16), with JavaScript and without: filter the list, save it as a private view,
 * find it in the sidebar, open it from another page with the same filters, rename it; share another
 * and see it as another member (who does not see the private one); delete. Without JavaScript the
 * "Save view" link renders its form under the toolbar and Delete asks on its own page; with it they
 * are a popover and a dialog.
 */
import type { Page } from "@playwright/test";
import { describeFindings, scan } from "./axe";
import { inviteMember, joinByInvitation } from "./board-helpers";
import { expect, test, waitForHydration } from "./fixtures";
import { createProject, fileIssue, open, signUpWithWorkspace } from "./issues-helpers";
import { filterList, issueLinkSelector } from "./issues-list-helpers";

/** The titles the list shows, in order. */
const listedTitles = (page: Page) => page.locator(issueLinkSelector).allTextContents();

/** "Save view" from the list's toolbar: names the view, shares it or not, and lands on the list opened with it. */
async function saveView(page: Page, javaScriptEnabled: boolean, name: string, shared: boolean) {
  await page.getByRole("search", { name: "Filter issues" }).getByRole("link", { name: "Save view" }).click();
  const form = page.getByRole("form", { name: "Save view" });
  await expect(form.getByLabel("View name")).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  await form.getByLabel("View name").fill(name);
  if (shared) await form.getByLabel("Share with the workspace").check();
  await form.getByRole("button", { name: "Save view" }).click();
  await expect(page).toHaveURL(/[?&]view=\d+$/);
  await expect(page.getByRole("status")).toContainText(`View “${name}” saved`);
  await waitForHydration(page, javaScriptEnabled);
}

const projectViews = (page: Page, project: string) => page.getByRole("navigation", { name: "Projects" }).getByRole("list", { name: `Views of ${project}` });

test.describe("saved views", () => {
  // Two sign-ups (scrypt), an invitation and a dozen pages.
  test.describe.configure({ timeout: 120_000 });

  test("save, find, open, rename, share and delete views of the list", async ({ page, browser, baseURL, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug, name: ada } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Ada Lovelace");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssue(page, javaScriptEnabled, base, { title: "Mine in the backlog", assignee: ada });
    await fileIssue(page, javaScriptEnabled, base, { title: "Nobody's yet" });

    // Filter by status and assignee, and save that as a private view.
    await open(page, javaScriptEnabled, `${base}/issues`);
    await filterList(page, javaScriptEnabled, { choices: [["Status", "Backlog"], ["Assignee", "Me"]] });
    await expect.poll(() => listedTitles(page)).toEqual(["Mine in the backlog"]);
    await saveView(page, javaScriptEnabled, "My backlog", false);
    const views = projectViews(page, "Website");
    const mine = views.getByRole("link", { name: /My backlog/ });
    await expect(mine).toHaveAttribute("aria-current", "page");
    await expect(mine).toContainText("(only you)");
    await expect(page.getByRole("link", { name: "Remove filter Status: Backlog" })).toBeVisible();

    if (javaScriptEnabled) {
      const found = await scan(page, "list with saved views");
      expect(found, describeFindings(found)).toEqual([]);
    }

    // From another page, the sidebar opens the list with the same filters.
    await open(page, javaScriptEnabled, `/w/${slug}`);
    await expect(mine).not.toHaveAttribute("aria-current", "page");
    await mine.click();
    await expect(page).toHaveURL(/\/issues\?status=backlog&assignee=me&view=\d+$/);
    await expect.poll(() => listedTitles(page)).toEqual(["Mine in the backlog"]);
    await expect(page.getByRole("link", { name: "Remove filter Assignee: Me" })).toBeVisible();
    await expect(mine).toHaveAttribute("aria-current", "page");

    // Rename it from its page (the toolbar names the open view).
    await waitForHydration(page, javaScriptEnabled);
    await page.getByRole("link", { name: "View: My backlog (rename or delete)" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "My backlog" })).toBeVisible();
    await waitForHydration(page, javaScriptEnabled);
    await page.getByLabel("View name").fill("My own backlog");
    await page.getByRole("button", { name: "Rename view" }).click();
    await expect(page.getByRole("status")).toHaveText("View renamed.");
    await expect(views.getByRole("link", { name: /My own backlog/ })).toBeVisible();

    // Share another view with the workspace.
    await open(page, javaScriptEnabled, `${base}/issues`);
    await filterList(page, javaScriptEnabled, { choices: [["Assignee", "Unassigned"]] });
    await expect.poll(() => listedTitles(page)).toEqual(["Nobody's yet"]);
    await saveView(page, javaScriptEnabled, "Up for grabs", true);
    const shared = views.getByRole("link", { name: "Up for grabs" });
    await expect(shared).toHaveAttribute("aria-current", "page");
    await expect(shared).not.toContainText("(only you)");

    // Another member sees the shared view, not the private one, and it opens the same list.
    const link = await inviteMember(page, javaScriptEnabled, slug, `max-${testInfo.project.name}@example.com`);
    const max = await joinByInvitation(browser, javaScriptEnabled, baseURL, link, "Max Member");
    const maxViews = projectViews(max.page, "Website");
    await expect(maxViews.getByRole("link", { name: "Up for grabs" })).toBeVisible();
    await expect(maxViews.getByRole("link", { name: /My own backlog/ })).toHaveCount(0);
    await maxViews.getByRole("link", { name: "Up for grabs" }).click();
    await expect.poll(() => listedTitles(max.page)).toEqual(["Nobody's yet"]);
    // A member may open a shared view's page but not change another's view.
    await max.page.getByRole("link", { name: "View: Up for grabs (rename or delete)" }).click();
    await expect(max.page.getByText("Only Ada Lovelace and the workspace's admins can rename or delete it.")).toBeVisible();
    await expect(max.page.getByRole("button", { name: "Rename view" })).toHaveCount(0);
    await max.context.close();

    // Delete the private view, asked first.
    await open(page, javaScriptEnabled, `/w/${slug}`);
    await views.getByRole("link", { name: /My own backlog/ }).click();
    await waitForHydration(page, javaScriptEnabled);
    await page.getByRole("link", { name: "View: My own backlog (rename or delete)" }).click();
    await waitForHydration(page, javaScriptEnabled);
    await page.getByRole("link", { name: "Delete view" }).click();
    const question = javaScriptEnabled ? page.getByRole("dialog", { name: "Delete the view “My own backlog”?" }) : page.getByRole("alertdialog", { name: "Delete the view “My own backlog”?" });
    await question.getByRole("button", { name: "Delete view" }).click();
    await expect(page).toHaveURL(`${base}/issues`);
    await expect(page.getByRole("status")).toHaveText("View deleted.");
    await expect(views.getByRole("link", { name: /My own backlog/ })).toHaveCount(0);
    await expect(views.getByRole("link", { name: "Up for grabs" })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test("a refused name comes back at the field, the list and its filters kept", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Grace Hopper");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await open(page, javaScriptEnabled, `${base}/issues?status=todo`);
    await page.getByRole("search", { name: "Filter issues" }).getByRole("link", { name: "Save view" }).click();
    const form = page.getByRole("form", { name: "Save view" });
    await waitForHydration(page, javaScriptEnabled);
    await form.getByLabel("View name").fill("x".repeat(61));
    await form.getByRole("button", { name: "Save view" }).click();
    await expect(form.getByText("Use at most 60 characters.")).toBeVisible();
    await expect(form.getByLabel("View name")).toHaveValue("x".repeat(61));
    await expect(page.getByRole("link", { name: "Remove filter Status: Todo" })).toBeVisible();
    // Fixed, it saves.
    await form.getByLabel("View name").fill("Todo");
    await form.getByRole("button", { name: "Save view" }).click();
    await expect(page).toHaveURL(/\/issues\?status=todo&view=\d+$/);
    expect(consoleErrors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });
});
