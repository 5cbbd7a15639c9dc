/**
 * DESIGN.md §5 across every signed-in screen, at 1440×900 and at 390×844: no sideways page scroll,
 * a `<title>` that names the page, every time in a `<time datetime>`, the page's own heading within
 * the first 200 px on a phone, no control for browsers without JavaScript left visible with it on;
 * the frame that never scrolls (only its panes do); and the phone's navigation drawer, which opens
 * without JavaScript.
 */
import type { Page } from "@playwright/test";
import { fileIssuesByPost } from "./board-helpers";
import { expect, pageOverflow, test } from "./fixtures";
import { createProject, open, signUpWithWorkspace } from "./issues-helpers";

const viewports = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** Words of controls that exist only for browsers without JavaScript (DESIGN.md §5). */
const noScriptWords = /^(Set|Apply|Move to|Move up|Move down)\b/;

async function measure(page: Page) {
  return page.evaluate((pattern) => {
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== "hidden";
    };
    const heading = document.querySelector("h1");
    const words = new RegExp(pattern);
    return {
      title: document.title,
      headingTop: heading && visible(heading) ? heading.getBoundingClientRect().top + window.scrollY : null,
      timesWithoutDatetime: [...document.querySelectorAll("time")].filter((time) => !time.getAttribute("datetime")).length,
      noScriptControls: [...document.querySelectorAll("button, input[type=submit], a")]
        .filter((control) => visible(control) && words.test((control.textContent ?? "").trim()))
        .map((control) => (control.textContent ?? "").trim()),
    };
  }, noScriptWords.source);
}

test.describe("the app shell and every signed-in screen", () => {
  test.describe.configure({ timeout: 180_000 });

  test("fit 1440×900 and 390×844, name themselves, and hide no-JS controls with JavaScript", async ({ page, javaScriptEnabled }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Dana Design", "Design Co");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB", "The public website.");
    await fileIssuesByPost(page, base, [
      { title: "A title long enough to need an ellipsis in the narrowest of the list's layouts, and then some more words", status: "in_progress", priority: "urgent", dueDate: "2001-01-01" },
      { title: "Second issue", status: "todo", description: "Some **Markdown**." },
    ]);
    const screens: [path: string, title: RegExp][] = [
      [`/w/${slug}`, /^My issues · Design Co · Cairn$/],
      [`/w/${slug}/search?q=issue`, /Search/],
      [`${base}/issues`, /^Issues · Website · Cairn$/],
      [`${base}/issues/1`, /^WEB-1 A title long enough/],
      [`${base}/issues/new`, /^New issue · Website · Cairn$/],
      [`${base}/board`, /^Board · Website · Cairn$/],
      [`${base}/settings`, /Website/],
      [`/w/${slug}/settings`, /Design Co/],
      [`/w/${slug}/settings/members`, /^Members/],
      [`/w/${slug}/settings/labels`, /^Labels/],
      [`/w/${slug}/projects/new`, /^Create project · Cairn$/],
      ["/w/new", /^Create workspace · Cairn$/],
      ["/settings", /Settings|Profile/],
      ["/settings/password", /Password/],
      ["/settings/sessions", /Sessions/],
    ];
    for (const [name, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      for (const [path, title] of screens) {
        await open(page, javaScriptEnabled, path);
        const seen = await measure(page);
        const where = `${path} at ${name}, JavaScript ${javaScriptEnabled ? "on" : "off"}`;
        expect((await pageOverflow(page)).sideways, `sideways scroll on ${where}`).toBeLessThanOrEqual(0);
        expect(seen.title, `title of ${where}`).toMatch(title);
        expect(seen.timesWithoutDatetime, `times without datetime on ${where}`).toBe(0);
        if (javaScriptEnabled) expect(seen.noScriptControls, `no-JS controls visible on ${where}`).toEqual([]);
        if (name === "phone") {
          expect(seen.headingTop, `heading of ${where}`).not.toBeNull();
          expect(seen.headingTop!, `heading of ${where}`).toBeLessThan(200);
        }
      }
    }
  });

  test("the frame never scrolls: the list, an issue with many comments beside it and the board scroll in panes of their own", async ({ page, javaScriptEnabled }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Sam Scroll", "Scroll Co");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    // Two pages of the list, one column of the board longer than the screen, an issue with eight comments.
    await fileIssuesByPost(page, base, Array.from({ length: 55 }, (_, i) => ({ title: `Issue ${i + 1}`, description: i ? "" : "Steps:\n\n1. Open it\n2. Scroll" })));
    for (let n = 1; n <= 8; n++) {
      const commented = await page.request.post(`${base}/issues/55`, { form: { intent: "comment", body: `Comment ${n}: ${"more words to read ".repeat(12)}` }, maxRedirects: 0 });
      expect(commented.status(), `comment ${n}`).toBe(302);
    }
    const where = (what: string, size: string) => `${what} at ${size}, JavaScript ${javaScriptEnabled ? "on" : "off"}`;
    const sidebar = page.locator("#app-sidebar").getByRole("link", { name: "My issues" });
    const heading = page.getByRole("heading", { level: 1 });

    // 1440×900: the page is the viewport; a wheel past a pane's end moves the pane, never the page.
    await page.setViewportSize(viewports.desktop);
    const panes: [what: string, path: string, pane: string][] = [
      ["the issue beside the list", `${base}/issues/55`, "article"],
      ["the list", `${base}/issues`, "ul[aria-label=Issues]"],
      ["the board", `${base}/board`, "section[aria-labelledby=column-title-todo] ol"],
    ];
    for (const [what, path, pane] of panes) {
      await open(page, javaScriptEnabled, path);
      expect((await pageOverflow(page)).down, `${where(what, "1440×900")}: the page is taller than the viewport`).toBeLessThanOrEqual(0);
      await page.locator(pane).hover();
      for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 1500);
      // Its pane (the nearest box that scrolls) went to its end; the page stayed.
      const paneAtEnd = () =>
        page.locator(pane).evaluate((element) => {
          let box: Element | null = element;
          while (box && !(box.scrollHeight > box.clientHeight && getComputedStyle(box).overflowY === "auto")) box = box.parentElement;
          return box !== null && box.scrollTop > 0 && box.scrollTop + box.clientHeight >= box.scrollHeight - 1;
        });
      await expect.poll(paneAtEnd, `${where(what, "1440×900")}: its pane scrolled to its end`).toBe(true);
      expect((await pageOverflow(page)).scrollY, where(what, "1440×900")).toBe(0);
      await expect(sidebar, where(what, "1440×900")).toBeInViewport();
      await expect(heading, where(what, "1440×900")).toBeInViewport();
    }

    // With JavaScript the content area goes back to the top for a new page and to where it was on Back,
    // as the page did; another issue opens at its top beside the list.
    if (javaScriptEnabled) {
      await open(page, javaScriptEnabled, `${base}/issues/55`);
      const issuePane = page.locator("article").locator("xpath=..");
      await issuePane.evaluate((pane) => pane.scrollTo(0, pane.scrollHeight));
      await expect.poll(() => issuePane.evaluate((pane) => pane.scrollTop)).toBeGreaterThan(0);
      await page.getByRole("link", { name: "Issue 54", exact: true }).click();
      await expect(page.getByRole("heading", { level: 2, name: "Issue 54" })).toBeVisible();
      expect(await issuePane.evaluate((pane) => pane.scrollTop), "the next issue's pane").toBe(0);

      await open(page, javaScriptEnabled, `${base}/issues`);
      const scrolled = () => page.locator("main").evaluate((main) => main.scrollTop);
      const next = page.getByRole("link", { name: "Next page" });
      await next.scrollIntoViewIfNeeded();
      const left = await scrolled();
      expect(left, "the list scrolled down to its pager").toBeGreaterThan(0);
      await next.click();
      await expect(page).toHaveURL(/page=2/);
      await expect.poll(scrolled, "page 2 of the list starts at its top").toBe(0);
      await page.goBack();
      await expect(page).not.toHaveURL(/page=2/);
      await expect.poll(scrolled, "Back returns to where the list was left").toBe(left);
    }

    // 390×844: the page scrolls under the top bar, and ends where its content does.
    await page.setViewportSize(viewports.phone);
    await open(page, javaScriptEnabled, `${base}/issues/55`);
    await page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
    const phone = await page.evaluate(() => ({
      topBar: document.querySelector(".topbar")!.getBoundingClientRect().top,
      pageEnd: document.scrollingElement!.scrollHeight,
      contentEnd: window.scrollY + document.querySelector("main")!.getBoundingClientRect().bottom,
    }));
    expect(phone.topBar, where("the top bar of a scrolled issue", "390×844")).toBe(0);
    expect(phone.pageEnd, where("the issue's page", "390×844")).toBeLessThanOrEqual(Math.ceil(phone.contentEnd));
  });

  test("on a phone the sidebar is a drawer behind the menu button, with or without JavaScript", async ({ page, javaScriptEnabled }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Dora Drawer", "Drawer Co");
    await page.setViewportSize(viewports.phone);
    await open(page, javaScriptEnabled, `/w/${slug}`);
    const drawer = page.locator("#app-sidebar");
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "My issues" })).toBeInViewport();
    await page.getByRole("button", { name: "Open navigation" }).click();
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole("link", { name: "My issues" })).toBeVisible();
    await drawer.getByRole("link", { name: "Create project" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Create project" })).toBeVisible();
    // Leaving the workspace is in its settings, behind a confirmation: not a click away in the sidebar.
    await expect(page.getByRole("button", { name: "Leave workspace" })).toHaveCount(0);
  });
});

test.describe("a new account's time zone", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("is the browser's when JavaScript runs, and unset (UTC) without it", async ({ page, javaScriptEnabled }, testInfo) => {
    await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Tomo Zone", "Zone Co");
    const zone = page.getByLabel("Time zone", { exact: true });
    if (javaScriptEnabled) {
      // The first signed-in page reported it in the background.
      await expect
        .poll(async () => {
          await open(page, javaScriptEnabled, "/settings");
          return zone.inputValue();
        })
        .toBe("Asia/Tokyo");
    } else {
      await open(page, javaScriptEnabled, "/settings");
      await expect(zone).toHaveValue("");
    }
  });
});
