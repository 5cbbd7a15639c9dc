import type { Page } from "@playwright/test";
import { expect } from "./fixtures";
import { nextPost, waitForRouterIdle } from "./issues-helpers";

/** A row's title link (app/components/issue-link.ts): its one link that opens no menu. */
export const issueLinkSelector = ".row > a:not([aria-haspopup])";

export type RowProperty = "Status" | "Priority" | "Assignee";

/** A row's menu button ("Status of WEB-1: Todo"): its name starts with the old select's label. */
export function rowMenuButton(page: Page, property: RowProperty, key: string) {
  return page.getByRole("link", { name: new RegExp(`^${property} of ${key}: `) });
}

/**
 * Changes a row's property from the list through its menu, and waits until the answer is on
 * screen. Without JavaScript the button is a link that reloads the list with the menu open (its
 * choices are a form's submit buttons, a native POST); with it, the menu is a popover and the form
 * goes through a fetcher. Returns the POST's response.
 */
export async function chooseInRowMenu(
  page: Page,
  javaScriptEnabled: boolean,
  property: RowProperty,
  key: string,
  choice: string,
  /** Runs once the menu is open (without JavaScript, opening it loads the page afresh). */
  whileOpen?: () => Promise<void>,
) {
  const listPath = new URL(page.url()).pathname.replace(/\/issues(\/.*)?$/, "/issues");
  await rowMenuButton(page, property, key).click();
  const menu = javaScriptEnabled ? page.locator(":popover-open") : page.getByRole("group", { name: new RegExp(`^${property} of ${key}: `) });
  const button = menu.getByRole("button", { name: choice, exact: true });
  await expect(button).toBeVisible();
  await whileOpen?.();
  const posted = nextPost(page, listPath);
  const loaded = javaScriptEnabled ? undefined : page.waitForEvent("load");
  await button.click();
  const response = await posted;
  if (loaded) await loaded;
  else await waitForRouterIdle(page);
  return response;
}

/**
 * Filters the list with its toolbar (IssueFilterBar): the search text, then each [group, choice] of
 * the "Filter" menu. With JavaScript each box applies at once (and the menu closes), and the text on
 * Enter; without it, the menu's "Apply" submits the whole form at the end.
 */
export async function filterList(page: Page, javaScriptEnabled: boolean, filter: { q?: string; choices: [group: string, choice: string][] }) {
  const bar = page.getByRole("search", { name: "Filter issues" });
  if (filter.q !== undefined) {
    await bar.getByLabel("Search", { exact: true }).fill(filter.q);
    if (javaScriptEnabled) {
      await bar.getByLabel("Search", { exact: true }).press("Enter");
      await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(filter.q)}(&|$)`));
    }
  }
  for (const [group, choice] of filter.choices) {
    const menu = page.locator("#filter-menu");
    // Rendered only while open: with JavaScript as a popover, without it by the page the button loads.
    if (!(await menu.isVisible())) await bar.getByRole("button", { name: "Filter", exact: true }).click();
    const box = menu.getByRole("group", { name: group }).getByRole("checkbox", { name: choice, exact: true });
    if (javaScriptEnabled) {
      // The form applies the box at once and is drawn anew for the new URL: a click, not check()
      // (which would wait on the replaced box), then the new URL.
      const before = page.url();
      await box.click();
      await expect.poll(() => page.url()).not.toBe(before);
    } else {
      await box.check();
    }
  }
  if (!javaScriptEnabled) {
    const loaded = page.waitForEvent("load");
    await page.locator("#filter-menu").getByRole("button", { name: "Apply" }).click();
    await loaded;
  }
}
