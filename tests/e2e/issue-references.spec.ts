import { expect, test } from "./fixtures";
import { createProject, fileIssue, issueDetail, open, signUpWithWorkspace, submitOnIssue } from "./issues-helpers";

test.describe("issue references", () => {
  // A sign-up (scrypt) and a few pages.
  test.describe.configure({ timeout: 60_000 });

  test("WEB-1 in a comment links to it, and WEB-1 says where it was mentioned", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Rita Referrer");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const first = await fileIssue(page, javaScriptEnabled, base, { title: "Checkout button is grey" });
    const second = await fileIssue(page, javaScriptEnabled, base, { title: "Buttons lose contrast", description: "Not WEB-99, which does not exist." });
    const detail = issueDetail(page);

    // A key of no issue stays text.
    await expect(detail.description.getByText("Not WEB-99, which does not exist.")).toBeVisible();
    await expect(detail.description.getByRole("link")).toHaveCount(0);

    await detail.commentField.fill("Same cause as WEB-1, I think.");
    await submitOnIssue(page, javaScriptEnabled, () => detail.addComment.click());
    const comment = detail.activity.getByRole("listitem", { name: "Comment by Rita Referrer" });
    const reference = comment.getByRole("link", { name: "WEB-1", exact: true });
    await expect(reference).toHaveAttribute("title", "Checkout button is grey");

    await reference.click();
    await expect(page).toHaveURL(first);
    await expect(page.getByRole("article").getByRole("heading", { level: 2, name: "Checkout button is grey" })).toBeVisible();
    const mention = detail.activity.getByRole("listitem").filter({ hasText: "mentioned it in WEB-2" });
    await expect(mention).toContainText("Rita Referrer mentioned it in WEB-2");

    await mention.getByRole("link", { name: "WEB-2" }).click();
    await expect(page).toHaveURL(second);
    await open(page, javaScriptEnabled, first);
    await expect(detail.activity.getByRole("listitem").filter({ hasText: "mentioned it in" })).toHaveCount(1);
    expect(consoleErrors).toEqual([]);
  });
});
