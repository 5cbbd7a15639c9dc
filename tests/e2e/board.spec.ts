/**
 * The board (docs/product.md, Screens "/board: columns by status; moving a card works without JavaScript"; Quality
 * bar: "drag and drop on the board (also by keyboard)", "optimistic … board moves").
 */
import {
  boardColumn,
  card,
  columnKeys,
  dndLiveRegion,
  dragWithMouse,
  expectColumn,
  fileIssuesByPost,
  openCardMenu,
  optionValue,
  withoutFragment,
} from "./board-helpers";
import { expect, test, waitForHydration } from "./fixtures";
import { createProject, nextPost, open, signUpWithWorkspace, waitForRouterIdle } from "./issues-helpers";

const fourInTodo = [{ title: "Header" }, { title: "Footer" }, { title: "Sidebar" }, { title: "Search box" }];

test.describe("board", () => {
  // Each journey signs up (scrypt at N=2^17, docs/product.md, Limits).
  test.describe.configure({ timeout: 90_000 });

  test("moves cards with their ⋯ menus: Move down, Move up, Move to top and Move to a column", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Bo Board", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssuesByPost(page, base, fourInTodo);
    const board = `${base}/board`;

    // Reached from the project's tabs.
    await open(page, javaScriptEnabled, `${base}/issues`);
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Board" }).click();
    await expect(page).toHaveURL(board);
    await expect(page).toHaveTitle("Board · Website · Cairn");
    for (const status of ["Backlog", "Todo", "In progress", "In review", "Done", "Canceled"]) {
      await expect(boardColumn(page, status).getByRole("heading", { level: 2 })).toBeVisible();
    }
    await expectColumn(page, "Todo", ["WEB-1", "WEB-2", "WEB-3", "WEB-4"]);
    await expectColumn(page, "In progress", []);
    await expect(boardColumn(page, "In progress")).toContainText("No issues.");
    // A card links to its issue; no card carries a form until its menu is opened.
    await expect(card(page, "WEB-1").getByRole("link", { name: "Header" })).toHaveAttribute("href", `${base}/issues/1`);
    if (javaScriptEnabled) {
      // Followed without a new document (a plain link, followed by the board's click handler), once the board runs (its drag handles show).
      await expect(page.getByRole("button", { name: "Drag WEB-1", exact: true })).toBeVisible();
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      await card(page, "WEB-1").getByRole("link", { name: "Header" }).click();
      await expect(page).toHaveURL(`${base}/issues/1`);
      await expect(page.getByRole("heading", { name: "Header", exact: true })).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await open(page, javaScriptEnabled, board);
    }
    await expect(page.getByRole("group", { name: "Board" }).locator("form")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Move / })).toHaveCount(0);

    // The first card's menu has no "Move up" or "Move to top", the last one's no "Move down"; neither offers its own column.
    await openCardMenu(page, javaScriptEnabled, "WEB-1");
    await expect(page.getByRole("button", { name: "Move down", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Move up", exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Move to top", exact: true })).toHaveCount(0);
    await expect(page.getByRole("form", { name: "Move WEB-1 to" }).getByRole("button")).toHaveText(["Backlog", "In progress", "In review", "Done", "Canceled"]);
    await open(page, javaScriptEnabled, board);
    await openCardMenu(page, javaScriptEnabled, "WEB-4");
    await expect(page.getByRole("button", { name: "Move down", exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Move up", exact: true })).toBeVisible();
    await open(page, javaScriptEnabled, board);

    /**
     * Opens the card's menu, presses `choice` in it, waits for the answer (a new page without
     * JavaScript), and checks the order again after a reload.
     */
    async function move(key: string, choice: { button: string; in?: string }, expected: Record<string, string[]>, options: { soft?: boolean } = {}) {
      await openCardMenu(page, javaScriptEnabled, key);
      const scope = choice.in ? page.getByRole("form", { name: choice.in, exact: true }) : page;
      const posted = nextPost(page, board);
      await scope.getByRole("button", { name: choice.button, exact: true }).click();
      const response = await posted;
      expect(response.status(), `the answer to "${choice.button}" for ${key}`).toBeLessThan(400);
      if (javaScriptEnabled) await waitForRouterIdle(page);
      else await page.waitForLoadState("load");
      // Back on the board, the menu closed (without JavaScript, scrolled to the moved card).
      expect(withoutFragment(page.url()), `still on the board after "${choice.button}"`).toBe(board);
      await expect(page.getByRole("form", { name: `Move ${key} to` })).toHaveCount(0);
      for (const [status, keys] of Object.entries(expected)) await expectColumn(page, status, keys, options);
      await open(page, javaScriptEnabled, board);
      for (const [status, keys] of Object.entries(expected)) await expectColumn(page, status, keys, options);
    }

    await move("WEB-1", { button: "Move down" }, { Todo: ["WEB-2", "WEB-1", "WEB-3", "WEB-4"] });
    await move("WEB-1", { button: "Move down" }, { Todo: ["WEB-2", "WEB-3", "WEB-1", "WEB-4"] });
    await move("WEB-4", { button: "Move up" }, { Todo: ["WEB-2", "WEB-3", "WEB-4", "WEB-1"] });
    await move("WEB-3", { button: "Move up" }, { Todo: ["WEB-3", "WEB-2", "WEB-4", "WEB-1"] });
    await move("WEB-1", { button: "Move to top" }, { Todo: ["WEB-1", "WEB-3", "WEB-2", "WEB-4"] });

    // "Move to" a column: the card goes to its end.
    await move("WEB-2", { button: "In progress", in: "Move WEB-2 to" }, { Todo: ["WEB-1", "WEB-3", "WEB-4"], "In progress": ["WEB-2"] });
    await move("WEB-4", { button: "In progress", in: "Move WEB-4 to" }, { Todo: ["WEB-1", "WEB-3"], "In progress": ["WEB-2", "WEB-4"] });
    await move("WEB-1", { button: "In progress", in: "Move WEB-1 to" }, { Todo: ["WEB-3"], "In progress": ["WEB-2", "WEB-4", "WEB-1"] }, { soft: true });

    // Done: the issue is closed, and its detail says so.
    await move("WEB-3", { button: "Done", in: "Move WEB-3 to" }, { Todo: [], Done: ["WEB-3"] });
    await open(page, javaScriptEnabled, `${base}/issues/3`);
    await expect(page.getByRole("region", { name: "Activity" })).toContainText("Done");
    expect(consoleErrors).toEqual([]);
  });

  test("drags a card with the mouse to another column, and it stays there", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    test.skip(!javaScriptEnabled, "dragging needs JavaScript");
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Dee Dragger", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssuesByPost(page, base, [...fourInTodo, { title: "Already going", status: "in_progress" }]);
    const board = `${base}/board`;
    await open(page, javaScriptEnabled, board);
    await expectColumn(page, "Todo", ["WEB-1", "WEB-2", "WEB-3", "WEB-4"]);
    await expectColumn(page, "In progress", ["WEB-5"]);

    // WEB-2 onto the In progress column's only card: it takes that card's place, above it.
    const posted = nextPost(page, board);
    await dragWithMouse(page, page.getByRole("button", { name: "Drag WEB-2", exact: true }), card(page, "WEB-5"), { offsetY: -10 });
    const response = await posted;
    expect(response.status()).toBeLessThan(400);
    await waitForRouterIdle(page);
    await expect(page).toHaveURL(board);
    const afterDrop = { Todo: ["WEB-1", "WEB-3", "WEB-4"], "In progress": ["WEB-2", "WEB-5"] };
    for (const [status, keys] of Object.entries(afterDrop)) await expectColumn(page, status, keys);
    await page.reload();
    for (const [status, keys] of Object.entries(afterDrop)) await expectColumn(page, status, keys);

    // Into an empty column (onto the column itself, where it says it has none). Backlog, the first:
    // the six columns do not fit in the test's 1280 px window, and near the right edge of the
    // board's scrolling area dnd-kit scrolls it while dragging (its auto-scroll), so a drop there
    // lands a column further on.
    const again = nextPost(page, board);
    await dragWithMouse(page, page.getByRole("button", { name: "Drag WEB-4", exact: true }), boardColumn(page, "Backlog").getByText("No issues."));
    expect((await again).status()).toBeLessThan(400);
    await waitForRouterIdle(page);
    await expectColumn(page, "Backlog", ["WEB-4"]);
    await page.reload();
    await expectColumn(page, "Todo", ["WEB-1", "WEB-3"]);
    await expectColumn(page, "Backlog", ["WEB-4"]);

    // The move is an ordinary status change on the issue.
    await open(page, javaScriptEnabled, `${base}/issues/4`);
    await expect(page.getByRole("region", { name: "Activity" })).toContainText("Backlog");
    expect(consoleErrors).toEqual([]);
  });

  test("moves a card with the keyboard and announces where it went", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    test.skip(!javaScriptEnabled, "drag and drop by keyboard needs JavaScript");
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Kay Keys", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssuesByPost(page, base, [...fourInTodo, { title: "Already going", status: "in_progress" }]);
    const board = `${base}/board`;
    await open(page, javaScriptEnabled, board);
    await expectColumn(page, "Todo", ["WEB-1", "WEB-2", "WEB-3", "WEB-4"]);

    // The drag handle tells a screen reader how to use it.
    const handle = page.getByRole("button", { name: "Drag WEB-2", exact: true });
    await expect(handle).toHaveAccessibleDescription(/press space or enter.*arrow keys/i);
    const live = dndLiveRegion(page);
    await expect(live).toHaveAttribute("aria-live", /assertive|polite/);

    // Down one place within Todo. The server's answer is held back for a moment: the card is in
    // its new place at once (an optimistic move), before the server has said anything.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === `${board}.data`,
      async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      },
    );
    await handle.focus();
    await page.keyboard.press("Space");
    // "Picked up WEB-2." — at once replaced by where it is: over its own place. Only then are the
    // columns measured, and an arrow key can find where it leads.
    await expect(live).toHaveText("WEB-2 is over Todo, position 2.");
    await page.keyboard.press("ArrowDown");
    await expect(live).toHaveText("WEB-2 is over Todo, position 3.");
    const posted = nextPost(page, board);
    await page.keyboard.press("Space");
    await expect(live).toHaveText("WEB-2 was moved to Todo, position 3.");
    // The column keeps its count while the move is on its way.
    await expectColumn(page, "Todo", ["WEB-1", "WEB-3", "WEB-2", "WEB-4"], { soft: true });
    release();
    expect((await posted).status()).toBeLessThan(400);
    await page.unroute((url) => url.pathname === `${board}.data`);
    await waitForRouterIdle(page);
    await expectColumn(page, "Todo", ["WEB-1", "WEB-3", "WEB-2", "WEB-4"]);
    await page.reload();
    await waitForHydration(page, javaScriptEnabled);
    await expectColumn(page, "Todo", ["WEB-1", "WEB-3", "WEB-2", "WEB-4"]);

    // Right, into In progress.
    await page.getByRole("button", { name: "Drag WEB-3", exact: true }).focus();
    await page.keyboard.press("Space");
    await expect(live).toHaveText("WEB-3 is over Todo, position 2.");
    await page.keyboard.press("ArrowRight");
    await expect(live).toHaveText(/^WEB-3 is over In progress, position \d\.$/);
    const toColumn = nextPost(page, board);
    await page.keyboard.press("Enter");
    await expect(live).toHaveText(/^WEB-3 was moved to In progress, position \d\.$/);
    expect((await toColumn).status()).toBeLessThan(400);
    await waitForRouterIdle(page);
    const announced = Number(/position (\d)/.exec((await live.textContent()) ?? "")![1]);
    const inProgress = await columnKeys(page, "In progress");
    expect(inProgress.indexOf("WEB-3") + 1, `announced position ${announced} in ${inProgress.join(", ")}`).toBe(announced);
    await page.reload();
    await waitForHydration(page, javaScriptEnabled);
    await expectColumn(page, "Todo", ["WEB-1", "WEB-2", "WEB-4"]);
    await expectColumn(page, "In progress", inProgress);

    // Escape cancels: nothing moves, and it says so.
    await page.getByRole("button", { name: "Drag WEB-1", exact: true }).focus();
    await page.keyboard.press("Space");
    await expect(live).toHaveText("WEB-1 is over Todo, position 1.");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Escape");
    await expect(live).toHaveText("Moving WEB-1 was cancelled.");
    await expectColumn(page, "Todo", ["WEB-1", "WEB-2", "WEB-4"]);
    expect(consoleErrors).toEqual([]);
  });

  test("takes the list's filters from its URL", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug, name } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Fay Filter", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const me = await optionValue(page, `${base}/issues/new`, "Assignee", name);
    await fileIssuesByPost(page, base, [
      { title: "Mine in todo", assigneeId: me, priority: "high" },
      { title: "Nobody's in todo" },
      { title: "Mine in progress", status: "in_progress", assigneeId: me },
      { title: "Nobody's in review", status: "in_review", priority: "high" },
    ]);
    const board = `${base}/board`;

    await open(page, javaScriptEnabled, `${board}?assignee=me`);
    await expectColumn(page, "Todo", ["WEB-1"]);
    await expectColumn(page, "In progress", ["WEB-3"]);
    await expectColumn(page, "In review", []);
    await expect(card(page, "WEB-1").getByRole("img", { name })).toBeVisible();

    await open(page, javaScriptEnabled, `${board}?assignee=unassigned`);
    await expectColumn(page, "Todo", ["WEB-2"]);
    await expectColumn(page, "In progress", []);
    await expectColumn(page, "In review", ["WEB-4"]);

    await open(page, javaScriptEnabled, `${board}?priority=high`);
    await expectColumn(page, "Todo", ["WEB-1"]);
    await expectColumn(page, "In review", ["WEB-4"]);

    await open(page, javaScriptEnabled, `${board}?q=progress`);
    await expectColumn(page, "Todo", []);
    await expectColumn(page, "In progress", ["WEB-3"]);

    // A move on a filtered board keeps the filter.
    await open(page, javaScriptEnabled, `${board}?assignee=me`);
    await openCardMenu(page, javaScriptEnabled, "WEB-1");
    const posted = nextPost(page, board);
    await page.getByRole("form", { name: "Move WEB-1 to" }).getByRole("button", { name: "In review", exact: true }).click();
    expect((await posted).status()).toBeLessThan(400);
    if (javaScriptEnabled) await waitForRouterIdle(page);
    else await page.waitForLoadState("load");
    expect(withoutFragment(page.url())).toBe(`${board}?assignee=me`);
    await expectColumn(page, "Todo", []);
    await expectColumn(page, "In review", ["WEB-1"]);
    await open(page, javaScriptEnabled, board);
    // (Their order is checked in the first test.)
    expect((await columnKeys(page, "In review")).sort()).toEqual(["WEB-1", "WEB-4"]);
    expect(consoleErrors).toEqual([]);
  });

  test("filters with the list's filter bar, and shows only the columns a status filter names", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug, name } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Bob Bar", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const me = await optionValue(page, `${base}/issues/new`, "Assignee", name);
    await fileIssuesByPost(page, base, [
      { title: "Mine in todo", assigneeId: me },
      { title: "Nobody's in todo" },
      { title: "Mine in progress", status: "in_progress", assigneeId: me },
    ]);
    const board = `${base}/board`;
    await open(page, javaScriptEnabled, board);
    const bar = page.getByRole("search", { name: "Filter issues" });
    await expect(bar).toContainText("3 issues");

    /** Ticks `option` in the Filter menu; it applies at once with JavaScript, through "Apply" without. */
    async function tick(option: string) {
      // With JavaScript the menu stays open while its boxes apply: open it only if it is closed.
      if (!(await page.locator("#filter-menu").isVisible())) {
        await bar.getByRole("button", { name: "Filter", exact: true }).click();
      }
      await bar.getByRole("checkbox", { name: option, exact: true }).check();
      if (!javaScriptEnabled) await bar.getByRole("button", { name: "Apply" }).click();
    }

    /** The address without empty fields (a form without JavaScript sends its empty search box too). */
    const address = () => {
      const url = new URL(page.url());
      for (const [field, value] of [...url.searchParams]) if (!value) url.searchParams.delete(field);
      return url.pathname + url.search;
    };

    await tick("Me");
    await expect.poll(address).toBe(`${board}?assignee=me`);
    await expectColumn(page, "Todo", ["WEB-1"]);
    await expectColumn(page, "In progress", ["WEB-3"]);
    await expect(page.getByRole("search", { name: "Filter issues" })).toContainText("2 issues");

    await tick("In progress");
    await expect.poll(address).toBe(`${board}?status=in_progress&assignee=me`);
    await expect(page.getByRole("region", { name: /^[A-Z][a-z ]+ \d+$/ }).getByRole("heading", { level: 2 })).toHaveText(["In progress 1"]);

    // A chip's "×" takes its filter away.
    await page.getByRole("link", { name: "Remove filter Status: In progress" }).click();
    await expect.poll(address).toBe(`${board}?assignee=me`);
    await expectColumn(page, "Todo", ["WEB-1"]);
    await expect(boardColumn(page, "Backlog")).toContainText("No matching issues.");
    expect(consoleErrors).toEqual([]);
  });

  test("a big board shows its first cards, more on request up to its cap, and leads to the rest in the list", async ({ page, cairn, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug, email } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Cap Carder", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const board = `${base}/board`;
    // 210 issues in each of four columns, straight into the database (filing 840 would take minutes).
    const handle = cairn.database.open();
    try {
      const { db } = handle;
      const project = await db
        .selectFrom("projects")
        .innerJoin("workspaces", "workspaces.id", "projects.workspace_id")
        .select("projects.id")
        .where("workspaces.slug", "=", slug)
        .executeTakeFirstOrThrow();
      const me = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const rows = (["backlog", "todo", "in_progress", "done"] as const)
        .flatMap((status) => Array.from({ length: 210 }, () => status))
        .map((status, index) => ({
          project_id: project.id,
          number: index + 1,
          title: `Card ${index + 1}`,
          status,
          reporter_id: me.id,
          sort_order: index + 1,
          closed_at: status === "done" ? now : null,
          created_at: now,
          updated_at: now,
        }));
      for (let start = 0; start < rows.length; start += 200) await db.insertInto("issues").values(rows.slice(start, start + 200)).execute();
      await db.updateTable("projects").set({ next_issue_number: rows.length + 1 }).where("id", "=", project.id).execute();
    } finally {
      await handle.db.destroy();
    }

    // A column shows its first 50 cards; "Show 50 more" adds the next 50.
    await open(page, javaScriptEnabled, board);
    const todo = boardColumn(page, "Todo");
    await expect(todo.getByRole("heading", { level: 2 })).toHaveText("Todo 210");
    await expect(todo.getByRole("listitem")).toHaveCount(50);
    await todo.getByRole("link", { name: "Show 50 more in Todo" }).click();
    await expect(page).toHaveURL(`${board}?show.todo=100#card-WEB-260`);
    await expect(todo.getByRole("listitem")).toHaveCount(100);
    await expect(card(page, "WEB-310")).toBeVisible();

    // Every column asked for 500: the board shows its cap of 600, shared out, and each column with
    // more leads to the list instead of offering more.
    await open(page, javaScriptEnabled, `${board}?show.backlog=500&show.todo=500&show.in_progress=500&show.done=500`);
    for (const status of ["Backlog", "Todo", "In progress", "Done"]) {
      await expect(boardColumn(page, status).getByRole("listitem")).toHaveCount(150);
      // (Chromium names the link "… in the list : Todo": its status is in a separately positioned span.)
      await expect(boardColumn(page, status).getByRole("link", { name: new RegExp(`^See all 210 in the list ?: ${status}$`) })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: /^Show \d+ more/ })).toHaveCount(0);

    // The list filtered to the column's status, a page at a time.
    await todo.getByRole("link", { name: /^See all 210 in the list/ }).click();
    await expect(page).toHaveURL(`${base}/issues?status=todo`);
    await expect(page.getByRole("search", { name: "Filter issues" })).toContainText("210 issues");
    const pages = page.getByRole("navigation", { name: "Pages" });
    await expect(pages).toContainText("Page 1 of 5");
    await pages.getByRole("link", { name: "Next page" }).click();
    await expect(pages).toContainText("Page 2 of 5");
    expect(consoleErrors).toEqual([]);
  });

  test("shows a move from a card's menu at once, before the server answers", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    test.skip(!javaScriptEnabled, "an optimistic move needs JavaScript");
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Oto Optimist", "Acme");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssuesByPost(page, base, fourInTodo);
    const board = `${base}/board`;
    await open(page, javaScriptEnabled, board);

    // The server's answers are held back until released.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === `${board}.data`,
      async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      },
    );
    await openCardMenu(page, javaScriptEnabled, "WEB-1");
    const posted = nextPost(page, board);
    await page.getByRole("form", { name: "Move WEB-1 to" }).getByRole("button", { name: "Done", exact: true }).click();
    // The menu closes and the card is in Done at once, the counts with it.
    await expect(page.getByRole("form", { name: "Move WEB-1 to" })).toHaveCount(0);
    await expectColumn(page, "Todo", ["WEB-2", "WEB-3", "WEB-4"]);
    await expectColumn(page, "Done", ["WEB-1"]);
    release();
    expect((await posted).status()).toBeLessThan(400);
    await page.unroute((url) => url.pathname === `${board}.data`);
    await waitForRouterIdle(page);
    await expectColumn(page, "Done", ["WEB-1"]);
    await page.reload();
    await expectColumn(page, "Todo", ["WEB-2", "WEB-3", "WEB-4"]);
    await expectColumn(page, "Done", ["WEB-1"]);
    expect(consoleErrors).toEqual([]);
  });
});
