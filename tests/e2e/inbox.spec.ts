import { goodPassword, uniqueEmail } from "./accounts-helpers";
import { expect, test, waitForHydration } from "./fixtures";
import { createProject, fileIssue, open, signUpWithWorkspace, submitOnIssue } from "./issues-helpers";

test.describe("the inbox", () => {
  // Two sign-ups (scrypt), an invitation and a few pages in two browsers.
  test.describe.configure({ timeout: 90_000 });

  test("an assignment and a mention reach the teammate's inbox; read, unread, all read, and opening the issue", async ({ page, browser, cairn, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Olivia Owner", "Team Rocket");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");

    // Olivia invites Grace, who signs up through the link in a browser of her own.
    await open(page, javaScriptEnabled, `/w/${slug}/settings/members`);
    const graceEmail = uniqueEmail(testInfo, "grace");
    await page.getByLabel("Email", { exact: true }).fill(graceEmail);
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Member" });
    await page.getByRole("button", { name: "Invite member" }).click();
    const link = await page.getByLabel("Invitation link").inputValue();
    const graceContext = await browser.newContext({ javaScriptEnabled, baseURL: cairn.server.url });
    try {
      const grace = await graceContext.newPage();
      await grace.goto(`${link.replace(cairn.server.url, "")}`);
      await grace.getByRole("main").getByRole("link", { name: "Create account" }).click();
      await waitForHydration(grace, javaScriptEnabled);
      await grace.getByLabel("Name", { exact: true }).fill("Grace Hopper");
      await grace.getByLabel("Password", { exact: true }).fill(goodPassword);
      await grace.getByRole("button", { name: "Create account" }).click();
      await expect(grace).toHaveURL(`/w/${slug}`);
      const inboxLink = grace.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: /^Inbox/ });
      await expect(inboxLink).toHaveAccessibleName("Inbox");
      await open(grace, javaScriptEnabled, "/settings");
      const handle = await grace.getByLabel("Handle", { exact: true }).inputValue();

      // Olivia files an issue for Grace and mentions her in a comment: with JavaScript `@` offers her.
      const issueUrl = await fileIssue(page, javaScriptEnabled, base, { title: "Ship the inbox", assignee: "Grace Hopper" });
      const comment = page.getByLabel("Comment", { exact: true });
      if (javaScriptEnabled) {
        await comment.pressSequentially("Over to you, @Gra");
        const suggestions = page.getByRole("listbox", { name: "People to mention" });
        await expect(suggestions.getByRole("option", { name: /Grace Hopper/ })).toBeVisible();
        await comment.press("Enter");
        await expect(suggestions).toHaveCount(0);
        await expect(comment).toHaveValue(`Over to you, @${handle} `);
      } else {
        await comment.fill(`Over to you, @${handle}`);
      }
      await submitOnIssue(page, javaScriptEnabled, () => page.getByRole("button", { name: "Add comment" }).click());
      await expect(page.getByRole("link", { name: `@${handle}`, exact: true })).toHaveAttribute("title", "Grace Hopper");

      // Grace sees one unread row: the latest reason, who, and when.
      await open(grace, javaScriptEnabled, `/w/${slug}`);
      await expect(inboxLink).toHaveAccessibleName("Inbox 1 unread");
      await inboxLink.click();
      await expect(grace.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
      const rows = grace.getByRole("list", { name: "Notifications" }).getByRole("listitem");
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("Ship the inbox (unread)");
      await expect(rows.first()).toContainText("Olivia Owner mentioned you");
      await waitForHydration(grace, javaScriptEnabled);

      const markRead = grace.getByRole("button", { name: "Mark WEB-1 as read" });
      const markUnread = grace.getByRole("button", { name: "Mark WEB-1 as unread" });
      await markRead.click();
      await expect(markUnread).toBeVisible();
      await expect(rows.first()).not.toContainText("(unread)");
      await expect(inboxLink).toHaveAccessibleName("Inbox");
      await markUnread.click();
      await expect(markRead).toBeVisible();
      await expect(inboxLink).toHaveAccessibleName("Inbox 1 unread");
      await grace.getByRole("button", { name: "Mark all as read" }).click();
      await expect(markUnread).toBeVisible();
      await expect(inboxLink).toHaveAccessibleName("Inbox");

      // Unread again; opening the issue reads it.
      await markUnread.click();
      await expect(inboxLink).toHaveAccessibleName("Inbox 1 unread");
      await rows.first().getByRole("link").click();
      await expect(grace).toHaveURL(new URL(issueUrl).pathname);
      await expect(grace.getByRole("article").getByRole("heading", { level: 2, name: "Ship the inbox" })).toBeVisible();
      await expect(inboxLink).toHaveAccessibleName("Inbox");
    } finally {
      await graceContext.close();
    }
    expect(consoleErrors).toEqual([]);
  });

  test("which notifications are mailed is chosen in the account settings, and the page says when the instance sends no mail", async ({ page, javaScriptEnabled }, testInfo) => {
    await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Nora Notified");
    await open(page, javaScriptEnabled, "/settings/notifications");
    await expect(page.getByRole("note")).toContainText("This instance sends no mail");
    await expect(page.getByRole("radio", { name: /Only what is about me/ })).toBeChecked();
    await page.getByRole("radio", { name: /Everything/ }).check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toContainText("Notification settings saved.");
    await open(page, javaScriptEnabled, "/settings/notifications");
    await expect(page.getByRole("radio", { name: /Everything/ })).toBeChecked();
  });
});
