/**
 * Bulk edit on the issue list (issue 16), with JavaScript on and off: select rows, choose a status
 * and a label to add, "Apply to selected" — every selected issue changes, each with its own
 * activity, and the list says how many; "Select all on this page" (a box with JavaScript, a link
 * without); a refused edit changes nothing and keeps the selection and the change chosen.
 */
import type { Page } from "@playwright/test";
import { fileIssuesByPost, optionValue } from "./board-helpers";
import { expect, test } from "./fixtures";
import { createProject, issueDetail, nextPost, open, signUpWithWorkspace, waitForRouterIdle } from "./issues-helpers";
import { rowMenuButton } from "./issues-list-helpers";

const bulkBar = (page: Page) => page.getByRole("form", { name: "Bulk edit" });
const rowBox = (page: Page, key: string) => page.getByRole("checkbox", { name: `Select ${key}`, exact: true });
const row = (page: Page, key: string) => page.getByRole("list", { name: "Issues" }).getByRole("listitem").filter({ has: rowBox(page, key) });

/** "Apply to selected", and the answer on screen: a new page without JavaScript, the router idle with it. */
async function apply(page: Page, javaScriptEnabled: boolean, listPath: string) {
  const posted = nextPost(page, listPath);
  const loaded = javaScriptEnabled ? undefined : page.waitForEvent("load");
  await bulkBar(page).getByRole("button", { name: "Apply to selected" }).click();
  const response = await posted;
  if (loaded) await loaded;
  else await waitForRouterIdle(page);
  return response;
}

test.describe("bulk edit on the issue list", () => {
  test.describe.configure({ timeout: 120_000 });

  test("select two rows, set a status and add a label to both, each with its activity; select all on the page", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Bea Bulk", "Acme");
    for (const name of ["Bug", "Docs"]) expect((await page.request.post(`/w/${slug}/settings/labels`, { form: { intent: "create", name, color: "red" } })).ok()).toBe(true);
    const base = await createProject(page, javaScriptEnabled, slug, "Web app", "WEB");
    const list = `${base}/issues`;
    await fileIssuesByPost(page, base, [{ title: "Login is slow" }, { title: "Logo is blurry" }, { title: "Footer overlaps" }]);
    await open(page, javaScriptEnabled, `${list}?sort=number`);

    if (javaScriptEnabled) {
      // The changes show once a row is selected.
      await expect(bulkBar(page).getByRole("button", { name: "Apply to selected" })).toBeHidden();
      await expect(bulkBar(page).getByRole("link", { name: "Select all on this page" })).toBeHidden();
    }
    await rowBox(page, "WEB-1").check();
    await rowBox(page, "WEB-2").check();
    if (javaScriptEnabled) {
      await expect(bulkBar(page)).toContainText("2 selected");
      await expect(bulkBar(page).getByRole("checkbox", { name: "Select all issues on this page" })).toHaveJSProperty("indeterminate", true);
    }
    await bulkBar(page).getByLabel("Status", { exact: true }).selectOption({ label: "Done" });
    await bulkBar(page).getByLabel("Add label", { exact: true }).selectOption({ label: "Bug" });
    const response = await apply(page, javaScriptEnabled, list);
    expect(response.status()).toBeLessThan(400);

    await expect(page.getByRole("status")).toContainText("Updated 2 issues.");
    // Back to the same list (its sort kept), each selected issue changed, the other not, no box left ticked.
    expect(new URL(page.url()).search).toBe("?sort=number");
    await expect(rowMenuButton(page, "Status", "WEB-1")).toHaveAccessibleName("Status of WEB-1: Done");
    await expect(rowMenuButton(page, "Status", "WEB-2")).toHaveAccessibleName("Status of WEB-2: Done");
    await expect(rowMenuButton(page, "Status", "WEB-3")).toHaveAccessibleName("Status of WEB-3: Todo");
    await expect(row(page, "WEB-1")).toContainText("Bug");
    await expect(row(page, "WEB-2")).toContainText("Bug");
    await expect(row(page, "WEB-3")).not.toContainText("Bug");
    for (const key of ["WEB-1", "WEB-2", "WEB-3"]) await expect(rowBox(page, key)).not.toBeChecked();
    if (javaScriptEnabled) await expect(bulkBar(page).getByLabel("Status", { exact: true })).toHaveValue("");

    // Each issue has its own activity.
    for (const number of [1, 2]) {
      await open(page, javaScriptEnabled, `${list}/${number}`);
      await expect(issueDetail(page).activity).toContainText("Bea Bulk changed the status from Todo to Done and set the labels to Bug");
    }
    await open(page, javaScriptEnabled, `${list}/3`);
    await expect(issueDetail(page).activity).not.toContainText("changed the status");

    // Every row of the page: the box in the strip with JavaScript, a link to the page with all ticked without.
    await open(page, javaScriptEnabled, `${list}?sort=number`);
    if (javaScriptEnabled) {
      await bulkBar(page).getByRole("checkbox", { name: "Select all issues on this page" }).check();
      await expect(bulkBar(page)).toContainText("3 selected");
    } else {
      await bulkBar(page).getByRole("link", { name: "Select all on this page" }).click();
      await expect(page).toHaveURL(`${list}?sort=number&select=all`);
    }
    for (const key of ["WEB-1", "WEB-2", "WEB-3"]) await expect(rowBox(page, key)).toBeChecked();
    await bulkBar(page).getByLabel("Priority", { exact: true }).selectOption({ label: "High" });
    await apply(page, javaScriptEnabled, list);
    await expect(page.getByRole("status")).toContainText("Updated 3 issues.");
    expect(new URL(page.url()).search).toBe("?sort=number");
    for (const key of ["WEB-1", "WEB-2", "WEB-3"]) await expect(rowMenuButton(page, "Priority", key)).toHaveAccessibleName(`Priority of ${key}: High`);
    if (javaScriptEnabled) {
      // Unticking one leaves the strip's box half-ticked; "Clear" unticks all.
      await bulkBar(page).getByRole("checkbox", { name: "Select all issues on this page" }).check();
      await rowBox(page, "WEB-2").uncheck();
      await expect(bulkBar(page).getByRole("checkbox", { name: "Select all issues on this page" })).toHaveJSProperty("indeterminate", true);
      await bulkBar(page).getByRole("button", { name: "Clear" }).click();
      for (const key of ["WEB-1", "WEB-2", "WEB-3"]) await expect(rowBox(page, key)).not.toBeChecked();
      // The keyboard: j moves to the next row, x ticks the focused one.
      await page.keyboard.press("j");
      await page.keyboard.press("j");
      await page.keyboard.press("x");
      await expect(page.locator("li:has(:focus)").getByRole("checkbox")).toBeChecked();
      await expect(bulkBar(page)).toContainText("1 selected");
    }
    expect(consoleErrors).toEqual([]);
  });

  test("a refused bulk edit changes nothing and keeps the selection and the change", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Rita Refused", "Acme");
    const names = Array.from({ length: 11 }, (_, i) => `Label ${i + 1}`);
    for (const name of names) expect((await page.request.post(`/w/${slug}/settings/labels`, { form: { intent: "create", name, color: "blue" } })).ok()).toBe(true);
    const base = await createProject(page, javaScriptEnabled, slug, "Web app", "WEB");
    const list = `${base}/issues`;
    await fileIssuesByPost(page, base, [{ title: "Plain one" }]);
    const labelIds = await Promise.all(names.slice(0, 10).map((name) => optionValue(page, `${list}?sort=number`, "Add label", name)));
    // WEB-2 has the most labels an issue can have: an eleventh refuses the whole edit.
    await fileIssuesByPost(page, base, [{ title: "Full of labels", labelIds }]);
    await open(page, javaScriptEnabled, `${list}?sort=number`);

    await rowBox(page, "WEB-1").check();
    await rowBox(page, "WEB-2").check();
    await bulkBar(page).getByLabel("Status", { exact: true }).selectOption({ label: "In review" });
    await bulkBar(page).getByLabel("Add label", { exact: true }).selectOption({ label: "Label 11" });
    const response = await apply(page, javaScriptEnabled, list);
    expect(response.status()).toBe(400);

    await expect(page.getByRole("alert")).toHaveText("WEB-2 already has 10 labels, the most an issue can have.");
    // Nothing changed.
    await expect(rowMenuButton(page, "Status", "WEB-1")).toHaveAccessibleName("Status of WEB-1: Todo");
    await expect(rowMenuButton(page, "Status", "WEB-2")).toHaveAccessibleName("Status of WEB-2: Todo");
    // The selection and the change are as they were: a second try needs only another choice.
    await expect(rowBox(page, "WEB-1")).toBeChecked();
    await expect(rowBox(page, "WEB-2")).toBeChecked();
    await expect(bulkBar(page).getByLabel("Status", { exact: true })).toHaveValue("in_review");
    await expect(bulkBar(page).getByLabel("Add label", { exact: true }).locator("option:checked")).toHaveText("Label 11");
    if (javaScriptEnabled) await expect(bulkBar(page)).toContainText("2 selected");

    await bulkBar(page).getByLabel("Add label", { exact: true }).selectOption({ label: "Add label" });
    await apply(page, javaScriptEnabled, list);
    await expect(page.getByRole("status")).toContainText("Updated 2 issues.");
    await expect(rowMenuButton(page, "Status", "WEB-2")).toHaveAccessibleName("Status of WEB-2: In review");
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect(consoleErrors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });
});
