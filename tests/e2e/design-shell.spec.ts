/**
 * DESIGN.md §5 across every signed-in screen, at 1440×900 and at 390×844: no sideways page scroll,
 * a `<title>` that names the page, every time in a `<time datetime>`, the page's own heading within
 * the first 200 px on a phone, no control for browsers without JavaScript left visible with it on;
 * and the phone's navigation drawer, which opens without JavaScript.
 */
import type { Page } from "@playwright/test";
import { fileIssuesByPost } from "./board-helpers";
import { expect, test } from "./fixtures";
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
      sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
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
        expect(seen.sideways, `sideways scroll on ${where}`).toBeLessThanOrEqual(0);
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
