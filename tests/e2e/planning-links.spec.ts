import { describeFindings, scan } from "./axe";
import { expect, test } from "./fixtures";
import { changeStatus, createProject, fact, fileIssue, issueDetail, open, openMenu, signUpWithWorkspace, submitOnIssue } from "./issues-helpers";

/**
 * Sub-issues and relations (decision record 021), with and without JavaScript: a sub-issue filed
 * from its parent, the parent's progress, a parent set and removed, "blocked by" shown on the list
 * and the board, a duplicate closed as canceled, and a refusal at its field.
 */
test.describe("sub-issues and relations", () => {
  // A sign-up (scrypt) and a few dozen pages.
  test.describe.configure({ timeout: 120_000 });

  test("plans work with sub-issues, parents and relations", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Paula Planner");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const launch = await fileIssue(page, javaScriptEnabled, base, { title: "Launch the site" });
    const header = await fileIssue(page, javaScriptEnabled, base, { title: "Design the header" });
    const publish = await fileIssue(page, javaScriptEnabled, base, { title: "Publish" });
    const { article, activity } = issueDetail(page);
    const properties = page.getByRole("complementary", { name: "Properties" });
    const subIssues = page.getByRole("region", { name: "Sub-issues" });

    // "Add sub-issue" on WEB-1 opens "New issue" with its key as the parent.
    await open(page, javaScriptEnabled, launch);
    await subIssues.getByRole("link", { name: "Add sub-issue" }).click();
    await expect(page.getByLabel("Parent issue")).toHaveValue("WEB-1");
    await page.getByLabel("Title", { exact: true }).fill("Pick the fonts");
    await page.getByRole("button", { name: "Create issue" }).click();
    await expect(page).toHaveURL(`${base}/issues/4`);
    await expect(article.getByText("Sub-issue of")).toBeVisible();
    await expect(activity).toContainText("set parent WEB-1");

    // Closed, it counts as done on its parent.
    await changeStatus(page, javaScriptEnabled, "Done");
    await article.getByRole("link", { name: /WEB-1 Launch the site/ }).click();
    await expect(page).toHaveURL(launch);
    await expect(subIssues).toContainText("1 of 1 done");
    await expect(subIssues.getByRole("list", { name: "Sub-issues" }).getByRole("link", { name: "Pick the fonts" })).toBeVisible();
    await expect(activity).toContainText("added sub-issue WEB-4");
    // axe needs JavaScript in the page (accessibility.spec.ts scans pages without it in a mirror): light and dark.
    if (javaScriptEnabled) {
      expect(describeFindings(await scan(page, "issue with sub-issues"))).toBe("");
      await page.emulateMedia({ colorScheme: "dark" });
      expect(describeFindings(await scan(page, "issue with sub-issues, dark"))).toBe("");
      await page.emulateMedia({ colorScheme: "light" });
    }

    // WEB-2: a parent set by key, then removed.
    await open(page, javaScriptEnabled, header);
    await submitOnIssue(page, javaScriptEnabled, async () => {
      await fact(article, "Parent").getByRole("button", { name: "Parent: none" }).click();
      await openMenu(page).getByLabel("Parent issue").fill("web-1");
      await openMenu(page).getByRole("button", { name: "Set parent" }).click();
    });
    await expect(fact(article, "Parent")).toContainText("WEB-1");
    await expect(activity).toContainText("set parent WEB-1");
    await submitOnIssue(page, javaScriptEnabled, async () => {
      await fact(article, "Parent").getByRole("button", { name: "Parent: WEB-1" }).click();
      await openMenu(page).getByRole("button", { name: "Remove parent" }).click();
    });
    await expect(fact(article, "Parent")).toContainText("None");
    await expect(activity).toContainText("removed parent WEB-1");

    // WEB-3 is blocked by WEB-2; a relation to itself is refused at the field.
    await open(page, javaScriptEnabled, publish);
    const addRelation = async (type: string, key: string) =>
      submitOnIssue(page, javaScriptEnabled, async () => {
        await properties.getByRole("button", { name: "Add relation" }).click();
        await openMenu(page).getByLabel("Relation").selectOption({ label: type });
        await openMenu(page).getByLabel("Issue", { exact: true }).fill(key);
        await openMenu(page).getByRole("button", { name: "Add relation" }).click();
      });
    expect((await addRelation("Related to", "WEB-3")).status()).toBe(400);
    await expect(fact(article, "Relations").getByRole("alert")).toHaveText("An issue cannot be related to itself.");
    await addRelation("Blocked by", "WEB-2");
    const relations = fact(article, "Relations").getByRole("list", { name: "Relations" });
    await expect(relations).toContainText("Blocked by");
    await expect(relations.getByRole("link", { name: "WEB-2" })).toBeVisible();
    await expect(activity).toContainText("marked it as blocked by WEB-2");

    // The list and the board say it is blocked.
    await open(page, javaScriptEnabled, `${base}/issues`);
    const row = page.getByRole("list", { name: "Issues" }).getByRole("listitem").filter({ hasText: "Publish" });
    await expect(row.getByRole("img", { name: "Blocked" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Issues" }).getByRole("img", { name: "Blocked" })).toHaveCount(1);
    await expect(page.getByRole("list", { name: "Issues" }).getByRole("listitem").filter({ hasText: "Launch the site" }).getByRole("img", { name: "Sub-issues: 1 of 1 done" })).toBeVisible();
    await open(page, javaScriptEnabled, `${base}/board`);
    await expect(page.locator("#card-WEB-3").getByRole("img", { name: "Blocked" })).toBeVisible();

    // WEB-2 is a duplicate of WEB-1: canceled.
    await open(page, javaScriptEnabled, header);
    await addRelation("Duplicate of", "WEB-1");
    await expect(issueDetail(page).status).toContainText("Canceled");
    // One line with the changes just before it (one person, a few minutes): "… and as a duplicate of WEB-1 and changed the status …".
    await expect(activity).toContainText(/as a duplicate of WEB-1 and changed the status from Backlog to Canceled/);
    await expect(fact(article, "Relations")).toContainText("Duplicate of");
    // Its blocker closed, WEB-3 is blocked no more; the relation is removed by its button.
    await open(page, javaScriptEnabled, publish);
    await submitOnIssue(page, javaScriptEnabled, () => properties.getByRole("button", { name: "Remove relation: Blocked by WEB-2" }).click());
    await expect(fact(article, "Relations").getByRole("list", { name: "Relations" })).toHaveCount(0);
    await open(page, javaScriptEnabled, `${base}/issues`);
    await expect(page.getByRole("list", { name: "Issues" }).getByRole("img", { name: "Blocked" })).toHaveCount(0);

    expect(consoleErrors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });
});
