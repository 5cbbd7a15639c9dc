/**
 * DESIGN.md §5, measured on the issue list, My issues and search, with JavaScript on and off: at
 * 1440×900 a 100-issue list shows at least 18 whole rows without scrolling, every row the same
 * height (≤ 44 px) and every title on one line; no page scrolls sideways at 1440×900 or 390×844;
 * with JavaScript no visible "Set" or "Apply"; without it a status, priority and assignee change
 * completes through a native POST; an open issue takes ~60 % beside the list from 1280 px, the whole
 * width below; on a phone each page's heading starts within 200 px; axe finds nothing serious.
 */
import type { Page } from "@playwright/test";
import { describeFindings, type Finding, scan } from "./axe";
import { fileIssuesByPost, type FiledIssue } from "./board-helpers";
import { expect, expectWhollyVisible, pageOverflow, test } from "./fixtures";
import { createProject, open, signUpWithWorkspace } from "./issues-helpers";
import { chooseInRowMenu, filterList, issueLinkSelector, rowMenuButton } from "./issues-list-helpers";

const wide = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

/** The list's rows as laid out: each row's box and whether its title link fits on one line. */
async function rowBoxes(page: Page) {
  return page.locator('ul[aria-label="Issues"] > li').evaluateAll(
    (rows, linkSelector) =>
      rows.map((row) => {
        const box = row.getBoundingClientRect();
        const title = row.querySelector<HTMLElement>(linkSelector)!;
        const lineHeight = Number.parseFloat(getComputedStyle(title).lineHeight);
        return { top: box.top, bottom: box.bottom, height: box.height, titleOneLine: title.getBoundingClientRect().height < lineHeight * 1.5 };
      }),
    issueLinkSelector,
  );
}

/** An issue's id, from the link of its row's status menu (`?menu=status-<id>`). */
async function issueId(page: Page, key: string) {
  const href = await page.getByRole("link", { name: new RegExp(`^Status of ${key}: `) }).getAttribute("href");
  return /menu=status-(\d+)/.exec(href ?? "")![1]!;
}

/** The widths of the list, of the open issue beside it, and of the content area. */
async function splitWidths(page: Page) {
  return page.evaluate(() => {
    const list = document.querySelector("section[aria-labelledby=issues-title]")!;
    return {
      list: list.getBoundingClientRect().width,
      issue: list.nextElementSibling!.getBoundingClientRect().width,
      main: document.querySelector("main")!.getBoundingClientRect().width,
    };
  });
}

async function expectNoSidewaysScroll(page: Page, what: string) {
  const { sideways } = await pageOverflow(page);
  expect(sideways, `${what}: the page is ${sideways} px wider than the viewport`).toBeLessThanOrEqual(0);
}

/** Visible controls that only browsers without JavaScript need. */
const noJsOnlyNames = /^(Set|Apply|Move to|Move up|Move down)\b/;

test.describe("the issue list's design", () => {
  test.describe.configure({ timeout: 180_000 });

  test("100 issues: ≥ 18 whole one-line rows of one height at 1440×900, no sideways scroll, menus instead of Set", async ({
    page,
    cairn,
    javaScriptEnabled,
    consoleErrors,
  }, testInfo) => {
    const { slug, name: me, email } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Lena List", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Web app", "WEB");
    for (const [name, color] of [
      ["Bug", "red"],
      ["Frontend", "blue"],
      ["Needs design", "purple"],
    ] as const) {
      const created = await page.request.post(`/w/${slug}/settings/labels`, { form: { intent: "create", name, color } });
      expect(created.ok()).toBe(true);
    }
    const handle = cairn.database.open();
    let labelIds: number[];
    let myId: number;
    try {
      // The worker's server is shared: only this workspace's labels.
      labelIds = (
        await handle.db
          .selectFrom("labels")
          .innerJoin("workspaces", "workspaces.id", "labels.workspace_id")
          .select("labels.id")
          .where("workspaces.slug", "=", slug)
          .orderBy("labels.id")
          .execute()
      ).map((l) => l.id);
      myId = (await handle.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
    } finally {
      await handle.db.destroy();
    }
    const statuses = ["backlog", "todo", "in_progress", "in_review", "done", "canceled"];
    const issues: FiledIssue[] = Array.from({ length: 100 }, (_, i) => ({
      // Every fifth title is far longer than a row: it must stay on one line, cut with an ellipsis.
      title: i % 5 === 0 ? `Issue ${i + 1}: ${"a very long title that goes on and on ".repeat(4)}`.trim() : `Issue ${i + 1}`,
      status: statuses[i % statuses.length],
      priority: ["none", "low", "medium", "high", "urgent"][i % 5],
      assigneeId: i % 3 === 0 ? myId : "",
      labelIds: labelIds.slice(0, i % 4),
      dueDate: i % 7 === 0 ? "2020-01-01" : i % 7 === 1 ? "2031-06-30" : "",
    }));
    await fileIssuesByPost(page, base, issues);

    await page.setViewportSize(wide);
    await open(page, javaScriptEnabled, `${base}/issues?sort=number`);
    await expect(page).toHaveTitle("Issues · Web app · Cairn");
    const rows = await rowBoxes(page);
    expect(rows).toHaveLength(50);
    const whole = rows.filter((row) => row.top >= 0 && row.bottom <= wide.height);
    expect(whole.length, "whole rows visible at 1440×900").toBeGreaterThanOrEqual(18);
    const heights = new Set(rows.map((row) => row.height));
    expect([...heights], "every row the same height").toHaveLength(1);
    expect(rows[0]!.height).toBeLessThanOrEqual(44);
    expect(rows[0]!.height).toBeGreaterThanOrEqual(36);
    expect(rows.every((row) => row.titleOneLine), "every title on one line").toBe(true);
    // The full title is the link's tooltip.
    const longTitle = issues[0]!.title;
    await expect(page.getByRole("link", { name: longTitle, exact: true })).toHaveAttribute("title", longTitle);
    // Labels: two chips, then "+1".
    const row4 = page.locator('ul[aria-label="Issues"] > li').nth(3);
    await expect(row4).toContainText("Bug");
    await expect(row4).toContainText("Frontend");
    await expect(row4).toContainText("+1");
    await expect(row4).not.toContainText("Needs design");
    // Times are <time datetime>: the due date and the updated time.
    await expect(page.locator('ul[aria-label="Issues"] > li').first().locator("time[datetime]")).toHaveCount(2);
    await expectNoSidewaysScroll(page, "list at 1440×900");

    // axe (it needs JavaScript to run): the list, a row's menu open as a popover, and as the server
    // renders it for browsers without JavaScript (`?menu=`).
    const findings: Finding[] = [];
    if (javaScriptEnabled) {
      findings.push(...(await scan(page, "Issue list")));
      await rowMenuButton(page, "Status", "WEB-1").click();
      await expect(page.locator(":popover-open").getByRole("button", { name: "Done", exact: true })).toBeVisible();
      findings.push(...(await scan(page, "Issue list, a row's menu open")));
      await page.keyboard.press("Escape");
      await open(page, javaScriptEnabled, `${base}/issues?sort=number&menu=assignee-${await issueId(page, "WEB-1")}`);
      await expect(page.getByRole("group", { name: /^Assignee of WEB-1: / }).getByRole("button", { name: "Unassigned" })).toBeVisible();
      findings.push(...(await scan(page, "Issue list, a row's menu rendered open by the server")));
      await open(page, javaScriptEnabled, `${base}/issues?sort=number`);
      for (const control of [page.getByRole("button", { name: noJsOnlyNames }), page.getByRole("link", { name: noJsOnlyNames })]) {
        const visible = await control.evaluateAll((elements) => elements.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.textContent));
        expect(visible, "controls only for browsers without JavaScript").toEqual([]);
      }
    }

    // An issue open beside the list (≥ 1280 px): both on screen, still no sideways scroll.
    await page.getByRole("link", { name: "Issue 2", exact: true }).click();
    await expect(page).toHaveURL(`${base}/issues/2?sort=number`);
    await expect(page.getByRole("list", { name: "Issues" })).toBeVisible();
    await expect(page.getByRole("article")).toBeVisible();
    await expectNoSidewaysScroll(page, "list and issue at 1440×900");
    // ~40 % for the list, ~60 % for the issue.
    const split = await splitWidths(page);
    expect(split.list / (split.list + split.issue)).toBeGreaterThan(0.35);
    expect(split.list / (split.list + split.issue)).toBeLessThan(0.45);
    // Below 1280 px the issue has the whole width, and no list beside it.
    await page.setViewportSize({ width: 1024, height: 800 });
    await expect(page.getByRole("list", { name: "Issues" })).toBeHidden();
    const narrow = await splitWidths(page);
    expect(narrow.list).toBe(0);
    expect(narrow.issue).toBe(narrow.main);
    await page.setViewportSize(wide);

    // Without JavaScript every change completes through a native POST (with it, through a fetcher).
    await open(page, javaScriptEnabled, `${base}/issues?sort=number`);
    await chooseInRowMenu(page, javaScriptEnabled, "Status", "WEB-2", "Done");
    await expect(rowMenuButton(page, "Status", "WEB-2")).toHaveAccessibleName("Status of WEB-2: Done");
    await chooseInRowMenu(page, javaScriptEnabled, "Priority", "WEB-2", "Urgent");
    await expect(rowMenuButton(page, "Priority", "WEB-2")).toHaveAccessibleName("Priority of WEB-2: Urgent");
    await chooseInRowMenu(page, javaScriptEnabled, "Assignee", "WEB-2", me);
    await expect(rowMenuButton(page, "Assignee", "WEB-2")).toHaveAccessibleName(`Assignee of WEB-2: ${me}`);
    // The page is the list as it was: same sort, no menu left open.
    expect(new URL(page.url()).search).toBe("?sort=number");

    // A row's menus open wholly on screen, the last row's too: with JavaScript a popover, without it
    // the panel the server renders.
    for (const [size, viewport] of [["390×844", phone], ["1440×900", wide]] as const) {
      await page.setViewportSize(viewport);
      for (const property of ["Status", "Assignee"] as const) {
        await open(page, javaScriptEnabled, `${base}/issues?sort=number`);
        await rowMenuButton(page, property, "WEB-50").click();
        const menu = javaScriptEnabled ? page.locator(":popover-open") : page.getByRole("group", { name: new RegExp(`^${property} of WEB-50: `) });
        await expectWhollyVisible(menu, `the ${property} menu of the last row at ${size}`);
      }
    }

    // A phone: no sideways scroll on the list (a menu at a row's end open as the server renders it
    // too), an issue, My issues and search.
    const menuOpen = `${base}/issues?menu=assignee-${await issueId(page, "WEB-1")}`;
    await page.setViewportSize(phone);
    for (const path of [`${base}/issues`, menuOpen, `${base}/issues/1`, `/w/${slug}`, `/w/${slug}/search?q=issue`]) {
      await open(page, javaScriptEnabled, path);
      await expectNoSidewaysScroll(page, `${path} at 390×844`);
      // The page's own heading starts within the first 200 px.
      expect((await page.getByRole("heading", { level: 1 }).boundingBox())!.y, `${path}: its heading`).toBeLessThan(200);
    }
    await page.setViewportSize(wide);
    for (const path of [menuOpen, `/w/${slug}`, `/w/${slug}/search?q=issue`]) {
      await open(page, javaScriptEnabled, path);
      await expectNoSidewaysScroll(page, `${path} at 1440×900`);
    }
    await expect(page).toHaveTitle("Search: issue · Acme · Cairn");
    if (javaScriptEnabled) {
      findings.push(...(await scan(page, "Search")));
      await open(page, javaScriptEnabled, `/w/${slug}`);
      findings.push(...(await scan(page, "My issues")));
      expect(findings, describeFindings(findings)).toEqual([]);
    }
    expect(consoleErrors).toEqual([]);
  });

  test("the toolbar's menus exist only while open: Enter searches, a menu keeps the typed search, each keeps the other's choice", async ({
    page,
    javaScriptEnabled,
  }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Tomas Toolbar", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Web app", "WEB");
    await fileIssuesByPost(page, base, [
      { title: "Login page is slow", status: "todo" },
      { title: "Login button is grey", status: "in_progress" },
      { title: "Export is empty", status: "todo" },
    ]);
    await open(page, javaScriptEnabled, `${base}/issues`);
    const bar = page.getByRole("search", { name: "Filter issues" });
    const search = bar.getByLabel("Search", { exact: true });
    // Closed, a menu is only its button: none of its boxes are in the page.
    await expect(bar.getByRole("checkbox")).toHaveCount(0);
    await expect(bar.getByRole("radio")).toHaveCount(0);

    // Enter in the search box searches; it does not open a menu.
    await search.fill("login");
    await search.press("Enter");
    await expect(page).toHaveURL(/[?&]q=login(&|$)/);
    expect(new URL(page.url()).searchParams.has("menu")).toBe(false);
    await expect(page.getByRole("list", { name: "Issues" }).getByRole("listitem")).toHaveCount(2);
    await expect(page.locator("#filter-menu, #sort-menu")).toHaveCount(0);

    // Text typed but not submitted survives opening the sort menu, and goes with the choice.
    await search.fill("button");
    await bar.getByRole("button", { name: /^Sort:/ }).click();
    const sortMenu = page.locator("#sort-menu");
    await expect(sortMenu).toBeVisible();
    await expect(search).toHaveValue("button");
    if (javaScriptEnabled) {
      await sortMenu.getByRole("radio", { name: "Number" }).click();
    } else {
      await sortMenu.getByRole("radio", { name: "Number" }).check();
      await sortMenu.getByRole("button", { name: "Apply" }).click();
    }
    await expect.poll(() => Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ q: "button", sort: "number" });
    await expect(page.getByRole("list", { name: "Issues" }).getByRole("listitem")).toHaveCount(1);

    // A filter chosen in the other menu keeps the sort, carried while its menu is closed.
    if (javaScriptEnabled) await page.keyboard.press("Escape");
    await search.fill("");
    await filterList(page, javaScriptEnabled, { choices: [["Status", "Todo"]] });
    await expect.poll(() => new URL(page.url()).searchParams.get("sort")).toBe("number");
    expect(new URL(page.url()).searchParams.getAll("status")).toEqual(["todo"]);
    expect(new URL(page.url()).searchParams.has("menu")).toBe(false);
  });
});
