/**
 * DESIGN.md §3 "Board" and §5, measured in Chromium at 1440×900 and 390×844: the board scrolls
 * sideways in its own area and never the page, all six column headers are reachable that way,
 * columns are 280 px, a card is at most 120 px tall, no control for browsers without JavaScript
 * shows until a card's menu is opened, a card's menu opens wholly on screen wherever the card is,
 * and "Show N more" pages a column with or without JavaScript.
 */
import type { Page } from "@playwright/test";
import { boardColumn, card, columnKeys, createLabelInSettings, fileIssuesByPost, openCardMenu, optionValue } from "./board-helpers";
import { expect, expectWhollyVisible, pageOverflow, test } from "./fixtures";
import { createProject, open, signUpWithWorkspace } from "./issues-helpers";

const viewports = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const columns = ["Backlog", "Todo", "In progress", "In review", "Done", "Canceled"];
const longTitle = "A title long enough to need more than two lines on a card of the board, so that it is clamped to two of them and no more";

/** The page's and the board's scroll extents, and every card's and column's size. */
async function measureBoard(page: Page) {
  return page.evaluate(() => {
    const board = document.querySelector<HTMLElement>("[role=group][aria-label=Board]")!;
    return {
      page: { scrollX: window.scrollX },
      board: { scrollWidth: board.scrollWidth, clientWidth: board.clientWidth, overflowX: getComputedStyle(board).overflowX },
      columnWidths: [...board.querySelectorAll("section")].map((section) => Math.round(section.getBoundingClientRect().width)),
      cardHeights: [...board.querySelectorAll("li")].map((card) => Math.round(card.getBoundingClientRect().height)),
    };
  });
}

/** Visible buttons and links whose text names a control meant for browsers without JavaScript. */
async function noScriptControls(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("button, input[type=submit], a")]
      .filter((control) => {
        const box = control.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(control).visibility !== "hidden" && /^(Set|Apply|Move to|Move up|Move down)\b/.test((control.textContent ?? "").trim());
      })
      .map((control) => (control.textContent ?? "").trim()),
  );
}

test.describe("the board's design", () => {
  test.describe.configure({ timeout: 120_000 });

  test("scrolls sideways in its own area, never the page; 280 px columns, cards at most 120 px, every header reachable", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug, name } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Bea Board", "Design Co");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await createLabelInSettings(page, javaScriptEnabled, slug, "Bug", "Red");
    await createLabelInSettings(page, javaScriptEnabled, slug, "Accessibility", "Blue");
    await createLabelInSettings(page, javaScriptEnabled, slug, "Performance", "Green");
    const me = await optionValue(page, `${base}/issues/new`, "Assignee", name);
    // Every label of the workspace: the "New issue" form's label checkboxes.
    const newIssueForm = await (await page.request.get(`${base}/issues/new`)).text();
    const labelIds = [...newIssueForm.matchAll(/name="labelIds" value="(\d+)"/g)].map((match) => match[1]!);
    expect(labelIds).toHaveLength(3);
    const statuses = ["backlog", "todo", "in_progress", "in_review", "done", "canceled"];
    // Every column a card with the most a card shows: a title past two lines, priority, three labels, an assignee.
    await fileIssuesByPost(
      page,
      base,
      statuses.flatMap((status) => [
        { title: longTitle, status, priority: "urgent", assigneeId: me, labelIds },
        { title: "Short", status },
      ]),
    );

    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      await open(page, javaScriptEnabled, `${base}/board`);
      const where = `at ${size}, JavaScript ${javaScriptEnabled ? "on" : "off"}`;
      const seen = await measureBoard(page);
      expect((await pageOverflow(page)).sideways, `the page scrolls sideways ${where}`).toBeLessThanOrEqual(0);
      expect(seen.board.overflowX, `the board's own sideways scroll ${where}`).toBe("auto");
      expect(seen.board.scrollWidth, `the six columns overflow the board's area ${where}`).toBeGreaterThan(seen.board.clientWidth);
      expect(seen.columnWidths, `column widths ${where}`).toEqual(columns.map(() => 280));
      expect(seen.cardHeights, `cards ${where}`).toHaveLength(12);
      for (const height of seen.cardHeights) expect(height, `a card's height ${where}`).toBeLessThanOrEqual(120);

      // Each header comes into view by scrolling the board; the page itself never moves sideways.
      for (const status of columns) {
        const heading = boardColumn(page, status).getByRole("heading", { level: 2 });
        await heading.scrollIntoViewIfNeeded();
        await expect(heading, `${status} ${where}`).toBeInViewport({ ratio: 1 });
        const after = await pageOverflow(page);
        expect([after.sideways, await page.evaluate(() => window.scrollX)], `the page after showing ${status} ${where}`).toEqual([0, 0]);
      }
      const scrolled = await page.evaluate(() => document.querySelector("[role=group][aria-label=Board]")!.scrollLeft);
      expect(scrolled, `the board scrolled to its last column ${where}`).toBeGreaterThan(0);

      // The board fills the height under the header on a wide screen: the page does not scroll down either.
      if (size === "desktop") expect((await pageOverflow(page)).down, `the page's height ${where}`).toBeLessThanOrEqual(0);
    }
    expect(consoleErrors).toEqual([]);
  });

  test("shows no Move to, Move up or Move down until a card's menu is opened", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Nia Nojs", "Design Co");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssuesByPost(page, base, [{ title: "First" }, { title: "Second" }, { title: "Third" }]);
    for (const viewport of Object.values(viewports)) {
      await page.setViewportSize(viewport);
      await open(page, javaScriptEnabled, `${base}/board`);
      expect(await noScriptControls(page)).toEqual([]);
    }
    // Opened, the menu is where they are (with JavaScript as a popover, without it as a page).
    await openCardMenu(page, javaScriptEnabled, "WEB-2");
    expect(await noScriptControls(page)).toEqual(["Move to top", "Move up", "Move down"]);
    expect(consoleErrors).toEqual([]);
  });

  test("a card's menu opens wholly on screen: in the last column, at the foot of a long one, with or without JavaScript", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Mona Menu", "Design Co");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    // Todo longer than the screen; one card in Canceled, the last column, off the screen's right edge at first.
    await fileIssuesByPost(page, base, [...Array.from({ length: 14 }, (_, i) => ({ title: `Card ${i + 1}` })), { title: "Dropped", status: "canceled" }]);
    for (const [size, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      for (const key of ["WEB-15", "WEB-14"]) {
        await open(page, javaScriptEnabled, `${base}/board`);
        await openCardMenu(page, javaScriptEnabled, key);
        const menu = javaScriptEnabled ? page.locator("[popover]:popover-open") : page.getByRole("group", { name: `Move ${key}`, exact: true });
        await expectWhollyVisible(menu, `the menu of ${key} at ${size}, JavaScript ${javaScriptEnabled ? "on" : "off"}`);
        expect((await pageOverflow(page)).sideways, `the page with the menu of ${key} open at ${size}`).toBeLessThanOrEqual(0);
      }
    }
    expect(consoleErrors).toEqual([]);
  });

  test('"Show N more" shows the rest of a column, a GET link with or without JavaScript', async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Max More", "Design Co");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssuesByPost(
      page,
      base,
      Array.from({ length: 57 }, (_, i) => ({ title: `Card ${i + 1}` })),
    );
    const board = `${base}/board`;
    await page.setViewportSize(viewports.desktop);
    await open(page, javaScriptEnabled, board);
    const todo = boardColumn(page, "Todo");
    await expect(todo.getByRole("heading", { level: 2 })).toHaveText("Todo 57");
    const firstPage = Array.from({ length: 50 }, (_, i) => `WEB-${i + 1}`);
    expect(await columnKeys(page, "Todo")).toEqual(firstPage);
    await expect(page.getByText(/Showing \d+ of/)).toHaveCount(0);

    const more = todo.getByRole("link", { name: "Show 7 more in Todo" });
    await expect(more).toHaveAttribute("href", `${board}?show.todo=57#card-WEB-50`);
    await more.click();
    await expect(page).toHaveURL(`${board}?show.todo=57#card-WEB-50`);
    await expect.poll(() => columnKeys(page, "Todo")).toEqual(Array.from({ length: 57 }, (_, i) => `WEB-${i + 1}`));
    await expect(todo.getByRole("link", { name: /^Show \d+ more/ })).toHaveCount(0);
    // Scrolled down the column to where the new cards begin.
    await expect(card(page, "WEB-51")).toBeInViewport();
    expect(await todo.evaluate((column) => column.querySelector("ol")!.parentElement!.scrollTop)).toBeGreaterThan(0);
    expect(consoleErrors).toEqual([]);
  });
});
