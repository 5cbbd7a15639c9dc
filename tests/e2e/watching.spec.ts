import { expect, test } from "./fixtures";
import { createProject, fileIssue, open, signUpWithWorkspace, submitOnIssue } from "./issues-helpers";

test.describe("watching", () => {
  // A sign-up (scrypt) and a few pages.
  test.describe.configure({ timeout: 60_000 });

  test("the reporter watches a new issue, unwatches it and watches it again", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Wendy Watcher");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const url = await fileIssue(page, javaScriptEnabled, base, { title: "Checkout button is grey" });
    const properties = page.getByRole("complementary", { name: "Properties" });

    // Filing it made her watch it.
    await expect(properties.getByRole("button", { name: "Unwatch" })).toBeVisible();
    await expect(properties.getByText("You hear of its comments, status changes and assignment.")).toBeVisible();

    await submitOnIssue(page, javaScriptEnabled, () => properties.getByRole("button", { name: "Unwatch" }).click());
    await expect(properties.getByRole("button", { name: "Watch", exact: true })).toBeVisible();
    await open(page, javaScriptEnabled, url);
    await expect(properties.getByRole("button", { name: "Watch", exact: true })).toBeVisible();

    await submitOnIssue(page, javaScriptEnabled, () => properties.getByRole("button", { name: "Watch", exact: true }).click());
    await expect(properties.getByRole("button", { name: "Unwatch" })).toBeVisible();
    await open(page, javaScriptEnabled, url);
    await expect(properties.getByRole("button", { name: "Unwatch" })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});
