/**
 * DESIGN.md §5 on the issue page, at 1440×900 and at 390×844: no sideways page scroll, the issue's
 * heading within the first 200 px on a phone, every time in a `<time datetime>`, no control for
 * browsers without JavaScript left visible with it on; relations with whole keys; the properties'
 * menus wholly on screen; and, without JavaScript, every change the page allows completes through
 * a native POST (a document request, not a fetch).
 */
import type { Page, Response } from "@playwright/test";
import { describeFindings, scan } from "./axe";
import { createLabelInSettings, fileIssuesByPost } from "./board-helpers";
import { expect, expectWhollyVisible, pageOverflow, test } from "./fixtures";
import {
  changeProperty,
  changeStatus,
  createProject,
  deleteComment,
  issueDetail,
  open,
  openEditIssue,
  openMenu,
  propertyButton,
  setDueDate,
  signUpWithWorkspace,
  submitOnIssue,
  toggleLabel,
} from "./issues-helpers";

const viewports = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** Words of controls that exist only for browsers without JavaScript (DESIGN.md §5). */
const noScriptWords = /^(Set|Apply|Move to|Move up|Move down)\b/;

async function measure(page: Page) {
  return page.evaluate((pattern) => {
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== "hidden";
    };
    const article = document.querySelector("article")!;
    const words = new RegExp(pattern);
    return {
      headingTop: document.getElementById("issue-title")!.getBoundingClientRect().top + window.scrollY,
      times: article.querySelectorAll("time").length,
      timesWithoutDatetime: [...article.querySelectorAll("time")].filter((time) => !time.getAttribute("datetime")).length,
      noScriptControls: [...article.querySelectorAll("button, input[type=submit], a")]
        .filter((control) => visible(control) && words.test((control.textContent ?? "").trim()))
        .map((control) => (control.textContent ?? "").trim()),
    };
  }, noScriptWords.source);
}

/** A change's answer came to a native form submission: the page itself was posted. */
function expectNativePost(response: Response) {
  expect(response.request().isNavigationRequest(), `${response.request().method()} ${response.url()}`).toBe(true);
  expect(new URL(response.url()).pathname).not.toMatch(/\.data$/);
}

test.describe("the issue page's design", () => {
  test.describe.configure({ timeout: 150_000 });

  test("fits 1440×900 and 390×844, its heading near the top, its times in <time datetime>", async ({ page, javaScriptEnabled }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Ida Issue", "Design Co");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const longTitle = "A title long enough to wrap on a phone: the login redirect loses the page the person came from";
    await fileIssuesByPost(page, base, [{ title: longTitle, description: "Steps:\n\n1. Sign out\n2. `open /issues/1`", priority: "urgent", dueDate: "2001-01-01" }]);
    await open(page, javaScriptEnabled, `${base}/issues/1`);
    await setDueDate(page, javaScriptEnabled, "2001-02-01");
    const comment = issueDetail(page);
    await comment.commentField.fill("A comment with a very-long-word-that-does-not-break-".repeat(4));
    await submitOnIssue(page, javaScriptEnabled, () => comment.addComment.click());

    for (const [name, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      for (const path of [`${base}/issues/1`, `${base}/issues/1?edit=issue`, `${base}/issues/new`]) {
        await open(page, javaScriptEnabled, path);
        const { sideways } = await pageOverflow(page);
        expect(sideways, `${name} ${path}: sideways scroll`).toBeLessThanOrEqual(0);
        if (path.endsWith("/new")) {
          await expect(page).toHaveTitle("New issue · Website · Cairn");
          continue;
        }
        await expect(page).toHaveTitle(`WEB-1 ${longTitle} · Cairn`);
        const measured = await measure(page);
        // (Editing, the heading gives way to the form's Title field.)
        if (name === "phone" && !path.includes("edit")) expect(measured.headingTop, `${name} ${path}: the issue's heading`).toBeLessThan(200);
        // Created, Updated, the due date, and each line of the timeline.
        expect(measured.times, `${name} ${path}: times`).toBeGreaterThanOrEqual(6);
        expect(measured.timesWithoutDatetime, `${name} ${path}: times without datetime`).toBe(0);
        if (javaScriptEnabled) expect(measured.noScriptControls, `${name} ${path}: no-JS controls with JavaScript`).toEqual([]);
      }
    }

    // axe (with JavaScript; accessibility.spec.ts scans pages without it): the page, the edit form, an open menu.
    if (!javaScriptEnabled) return;
    await page.setViewportSize(viewports.desktop);
    for (const path of [`${base}/issues/1`, `${base}/issues/1?edit=issue`]) {
      await open(page, javaScriptEnabled, path);
      const found = await scan(page, path);
      expect(found, describeFindings(found)).toEqual([]);
    }
    await open(page, javaScriptEnabled, `${base}/issues/1`);
    await propertyButton(issueDetail(page).article, "Assignee").click();
    await expect(page.getByRole("form", { name: "Assignee" })).toBeVisible();
    const found = await scan(page, "the Assignee menu");
    expect(found, describeFindings(found)).toEqual([]);
  });

  test("relations keep their keys whole and their × in place; the properties' menus open wholly on screen", async ({ page, javaScriptEnabled }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Rita Relations", "Design Co");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const title = (n: number) => `Related issue ${n} with a title far longer than the properties panel has room for`;
    await fileIssuesByPost(page, base, [{ title: "Blocked on many fronts" }, ...[2, 3, 4, 5, 6, 7].map((n) => ({ title: title(n) }))]);
    const relations: [type: string, target: string][] = [
      ["blocked_by", "WEB-2"],
      ["blocked_by", "WEB-3"],
      ["blocks", "WEB-4"],
      ["duplicate_of", "WEB-5"],
      ["relates_to", "WEB-6"],
      ["relates_to", "WEB-7"],
    ];
    for (const [type, target] of relations) {
      const added = await page.request.post(`${base}/issues/1`, { form: { intent: "add-relation", type, target }, maxRedirects: 0 });
      expect(added.status(), `${type} ${target}`).toBe(302);
    }

    for (const [name, viewport] of Object.entries(viewports)) {
      await page.setViewportSize(viewport);
      await open(page, javaScriptEnabled, `${base}/issues/1`);
      const where = `at ${name}, JavaScript ${javaScriptEnabled ? "on" : "off"}`;
      const article = issueDetail(page).article;
      const list = article.getByRole("list", { name: "Relations" });
      const links = list.getByRole("link");
      await expect(links).toHaveCount(relations.length);
      // Each related issue on one line: its key never broken (at its hyphen or anywhere), its title cut to the room left.
      const lines = await links.evaluateAll((elements) =>
        elements.map((link) => {
          const key = [...link.querySelectorAll("span")].find((span) => /^[A-Z]+-\d+$/.test(span.textContent ?? ""))!;
          const range = document.createRange();
          range.selectNodeContents(key);
          return { key: key.textContent, keyLines: range.getClientRects().length, height: link.getBoundingClientRect().height, lineHeight: Number.parseFloat(getComputedStyle(link).lineHeight) || 20 };
        }),
      );
      for (const line of lines) {
        expect(line.keyLines, `${line.key}'s key ${where}`).toBe(1);
        expect(line.height, `${line.key}'s line ${where}`).toBeLessThan(line.lineHeight * 1.6);
      }
      // The remove buttons line up at the end of the panel.
      const removes = await list.getByRole("button", { name: /^Remove relation: / }).evaluateAll((buttons) => buttons.map((button) => Math.round(button.getBoundingClientRect().right)));
      const panelRight = await page.getByRole("complementary", { name: "Properties" }).evaluate((panel) => panel.getBoundingClientRect().right);
      expect(new Set(removes).size, `the × of each relation ${where}: ${removes.join(", ")}`).toBe(1);
      expect(removes[0]!, `the ×s ${where}`).toBeLessThanOrEqual(Math.ceil(panelRight));

      // The properties' menus (popovers, with or without JavaScript) open wholly on screen.
      for (const menu of ["Status", "Labels", "Due date", "Add relation"]) {
        await (menu === "Add relation" ? article.getByLabel(menu, { exact: true }) : propertyButton(article, menu)).click();
        await expectWhollyVisible(openMenu(page), `the menu of ${menu} ${where}`);
        await page.keyboard.press("Escape");
        await expect(openMenu(page)).toHaveCount(0);
      }
    }
  });

  test("without JavaScript every change of the issue page is a native POST", async ({ page, javaScriptEnabled }, testInfo) => {
    test.skip(javaScriptEnabled, "With JavaScript the same forms go through fetchers (issues.spec.ts).");
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Nora Noscript");
    await createLabelInSettings(page, javaScriptEnabled, slug, "Bug", "Red");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssuesByPost(page, base, [{ title: "Every change", status: "backlog" }]);
    await open(page, javaScriptEnabled, `${base}/issues/1`);
    const detail = issueDetail(page);

    expectNativePost(await changeStatus(page, javaScriptEnabled, "In review"));
    expectNativePost(await changeProperty(page, javaScriptEnabled, "Priority", "High"));
    expectNativePost(await changeProperty(page, javaScriptEnabled, "Assignee", me));
    expectNativePost(await toggleLabel(page, javaScriptEnabled, "Bug"));
    expectNativePost(await setDueDate(page, javaScriptEnabled, "2030-01-31"));
    expectNativePost(await setDueDate(page, javaScriptEnabled, null));
    await expect(detail.status).toHaveText("In review");
    await expect(propertyButton(detail.article, "Priority")).toHaveText("High");
    await expect(propertyButton(detail.article, "Assignee")).toContainText(me);
    await expect(propertyButton(detail.article, "Labels")).toHaveText("Bug");
    await expect(propertyButton(detail.article, "Due date")).toHaveText("None");

    // The edit form: Preview posts intent=preview and comes back rendered, with what was typed kept.
    const edit = await openEditIssue(page);
    await edit.getByLabel("Title", { exact: true }).fill("Every change, edited");
    await edit.getByLabel("Description", { exact: true }).fill("Now **bold**.");
    const previewed = await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Preview" }).click());
    expectNativePost(previewed);
    expect(previewed.status()).toBe(200);
    await expect(edit.getByRole("region", { name: "Preview" }).locator("strong")).toHaveText("bold");
    await expect(edit.getByLabel("Title", { exact: true })).toHaveValue("Every change, edited");
    expectNativePost(await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Write" }).click()));
    await expect(edit.getByLabel("Description", { exact: true })).toHaveValue("Now **bold**.");
    expectNativePost(await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click()));
    await expect(detail.article.getByRole("heading", { level: 2, name: "Every change, edited" })).toBeVisible();
    await expect(detail.description.locator("strong")).toHaveText("bold");

    // A comment, and its deletion after the confirmation page.
    await detail.commentField.fill("To be deleted.");
    expectNativePost(await submitOnIssue(page, javaScriptEnabled, () => detail.addComment.click()));
    const comment = page.getByRole("listitem", { name: `Comment by ${me}` });
    expectNativePost(await deleteComment(page, javaScriptEnabled, comment));
    await expect(comment).toHaveText("Comment deleted");
  });

  test("with JavaScript, Preview renders in place and Write goes back to the text", async ({ page, javaScriptEnabled }, testInfo) => {
    test.skip(!javaScriptEnabled, "Without JavaScript the tabs post the form (the test above).");
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Pia Preview");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssuesByPost(page, base, [{ title: "Preview me", description: "Old text" }]);
    await open(page, javaScriptEnabled, `${base}/issues/1`);
    await page.evaluate(() => ((window as { __marker?: number }).__marker = 1));
    const edit = await openEditIssue(page);
    const description = edit.getByLabel("Description", { exact: true });
    await description.fill("A list:\n\n- [ ] task\n- **bold**");
    await edit.getByRole("button", { name: "Preview" }).click();
    await expect(edit.getByRole("region", { name: "Preview" }).locator("strong")).toHaveText("bold");
    await expect(description).toBeHidden();
    await edit.getByRole("button", { name: "Write" }).click();
    await expect(description).toHaveValue("A list:\n\n- [ ] task\n- **bold**");
    // Nothing was saved, and the page never reloaded.
    await expect(issueDetail(page).activity).not.toContainText("changed the description");
    expect(await page.evaluate(() => (window as { __marker?: number }).__marker)).toBe(1);
    await edit.getByRole("link", { name: "Cancel" }).click();
    await expect(edit).toHaveCount(0);
    await expect(issueDetail(page).description).toHaveText("Old text");
  });
});
