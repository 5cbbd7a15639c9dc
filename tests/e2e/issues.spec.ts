import { goodPassword, uniqueEmail } from "./accounts-helpers";
import { createLabelInSettings } from "./board-helpers";
import { expect, test, waitForHydration } from "./fixtures";
import {
  changeProperty,
  changeStatus,
  createProject,
  deleteComment,
  fact,
  fileIssue,
  issueDetail,
  nextPost,
  open,
  openEditIssue,
  openWorkspaceSettings,
  propertyButton,
  setDueDate,
  signUpWithWorkspace,
  submitOnIssue,
  toggleLabel,
} from "./issues-helpers";
import { chooseInRowMenu, filterList, rowMenuButton } from "./issues-list-helpers";

const conflictText = (name: string, fields: string) => `This issue was changed by ${name} since you opened it: ${fields}.`;

test.describe("issues", () => {
  // Each journey signs up at least once (scrypt at N=2^17, docs/product.md, Limits) and walks many screens.
  test.describe.configure({ timeout: 90_000 });

  test("file, find, edit, close and discuss an issue", async ({ page, context, javaScriptEnabled, consoleErrors }, testInfo) => {
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Ada Lovelace", "Acme");

    // A label, from Settings → Labels.
    await openWorkspaceSettings(page);
    await expect(page.getByRole("heading", { level: 1, name: "Workspace settings" })).toBeVisible();
    await page.getByRole("navigation", { name: "Workspace settings" }).getByRole("link", { name: "Labels" }).click();
    await expect(page).toHaveURL(`/w/${slug}/settings/labels`);
    const createLabelForm = page.getByRole("form", { name: "Create label" });
    await createLabelForm.getByLabel("Label name", { exact: true }).fill("Bug");
    await createLabelForm.getByLabel("Color", { exact: true }).selectOption({ label: "Red" });
    await createLabelForm.getByRole("button", { name: "Create label" }).click();
    await expect(page.getByRole("status")).toHaveText("Label created.");
    const bugRow = page.getByRole("listitem", { name: "Bug", exact: true });
    await expect(bugRow).toBeVisible();
    await expect(bugRow.getByLabel("Color", { exact: true })).toHaveValue("red");

    // A project, from the sidebar: its key is made from its name, as it is typed with JavaScript, by the server without.
    const projects = page.getByRole("navigation", { name: "Projects" });
    await projects.getByRole("link", { name: "Create project" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Create project" })).toBeVisible();
    await waitForHydration(page, javaScriptEnabled);
    await page.getByLabel("Project name", { exact: true }).fill("Website");
    await expect(page.getByLabel("Key", { exact: true })).toHaveValue(javaScriptEnabled ? "WEB" : "");
    await page.getByLabel("Description", { exact: true }).fill("The public website.");
    await page.getByRole("button", { name: "Create project" }).click();
    const base = `/w/${slug}/p/WEB`;
    await expect(page).toHaveURL(`${base}/issues`);
    await expect(page.getByRole("heading", { level: 1, name: "Website" })).toBeVisible();
    await expect(page.getByRole("main").getByText("WEB", { exact: true }).first()).toBeVisible();
    await expect(projects.getByRole("link", { name: "Website WEB" })).toBeVisible();
    await expect(page.getByText("No issues yet", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "File the first one" })).toBeVisible();
    // No issue open: the list has the whole width, with no placeholder for one.
    await expect(page.getByText("Select an issue")).toHaveCount(0);

    // File an issue with every field.
    const title = "Login button does nothing";
    const description = 'Clicking it is **bold** of us to expect.\n\n<script>alert("pwned")</script>';
    await page.getByRole("link", { name: "New issue" }).first().click();
    await expect(page).toHaveURL(`${base}/issues/new`);
    await waitForHydration(page, javaScriptEnabled);
    const descriptionField = page.getByLabel("Description", { exact: true });
    await page.getByLabel("Title", { exact: true }).fill(title);
    await descriptionField.fill(description);
    if (javaScriptEnabled) {
      // `@` offers the workspace's people, as the comment box and the edit form do.
      await descriptionField.press("End");
      await descriptionField.pressSequentially("\n\nFor @ad");
      await expect(page.getByRole("listbox", { name: "People to mention" }).getByRole("option").first()).toContainText(me);
      await descriptionField.press("Enter");
      await expect(descriptionField).toHaveValue(/\n\nFor @[a-z0-9-]+ $/);
    }
    await page.getByLabel("Priority", { exact: true }).selectOption({ label: "High" });
    await page.getByLabel("Assignee", { exact: true }).selectOption({ label: me });
    await page.getByLabel("Due date", { exact: true }).fill("2026-03-15");
    await page.getByRole("checkbox", { name: "Bug", exact: true }).check();
    // Preview: rendered in place with JavaScript; without, the form comes back with every field kept.
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("region", { name: "Preview" });
    await expect(preview.locator("strong")).toHaveText("bold");
    if (javaScriptEnabled) await expect(preview.getByRole("link", { name: /^@/ })).toHaveText(/^@[a-z0-9-]+$/);
    await expect(descriptionField).toBeHidden();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
    await expect(page.getByLabel("Assignee", { exact: true })).toHaveValue(/\d+/);
    await expect(page.getByRole("checkbox", { name: "Bug", exact: true })).toBeChecked();
    await page.getByRole("button", { name: "Create issue" }).click();

    await expect(page).toHaveURL(`${base}/issues/1`);
    const detail = issueDetail(page);
    await expect(detail.article.getByText("WEB-1", { exact: true })).toBeVisible();
    await expect(detail.article.getByRole("heading", { level: 2, name: title })).toBeVisible();
    // Markdown rendered on the server; the script tag is text, not an element.
    await expect(detail.description.locator("strong")).toHaveText("bold");
    await expect(detail.description).toContainText('<script>alert("pwned")</script>');
    await expect(detail.description.locator("script")).toHaveCount(0);
    await expect(page).toHaveTitle(`WEB-1 ${title} · Cairn`);
    await expect(detail.status).toHaveText("Backlog");
    await expect(propertyButton(detail.article, "Priority")).toHaveText("High");
    await expect(propertyButton(detail.article, "Assignee")).toContainText(me);
    await expect(propertyButton(detail.article, "Labels")).toHaveText("Bug");
    await expect(fact(detail.article, "Due date").locator("time")).toHaveAttribute("datetime", "2026-03-15");
    await expect(fact(detail.article, "Reporter")).toContainText(me);
    await expect(fact(detail.article, "Created").locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
    await expect(fact(detail.article, "Closed")).toHaveCount(0);
    await expect(detail.activity).toContainText(`${me} created the issue`);

    // A second issue that the search alone matches, but the other filters do not.
    await fileIssue(page, javaScriptEnabled, base, { title: "Login copy review" });
    await expect(page).toHaveURL(`${base}/issues/2`);

    // Find the first one with the filters.
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Issues" }).click();
    await expect(page).toHaveURL(`${base}/issues`);
    await expect(page.getByRole("heading", { level: 2, name: "Issues (2)" })).toBeVisible();
    await filterList(page, javaScriptEnabled, {
      q: "login",
      choices: [
        ["Status", "Backlog"],
        ["Assignee", "Me"],
        ["Label", "Bug"],
      ],
    });
    await expect(page).toHaveURL(/[?&]assignee=me(&|$)/);
    const params = new URL(page.url()).searchParams;
    expect(new URL(page.url()).pathname).toBe(`${base}/issues`);
    expect(params.get("q")).toBe("login");
    expect(params.get("status")).toBe("backlog");
    expect(params.get("assignee")).toBe("me");
    expect(params.get("label")).toMatch(/^\d+$/);
    const expectFilteredList = async (target: typeof page) => {
      await expect(target.getByRole("heading", { level: 2, name: "Issues (1)" })).toBeVisible();
      await expect(target.getByRole("list", { name: "Issues" }).getByRole("link", { name: title })).toBeVisible();
      await expect(target.getByRole("list", { name: "Issues" }).getByRole("link", { name: "Login copy review" })).toHaveCount(0);
      const form = target.getByRole("search", { name: "Filter issues" });
      await expect(form.getByLabel("Search", { exact: true })).toHaveValue("login");
      // The active filters, as removable chips.
      for (const chip of ["Status: Backlog", "Assignee: Me", "Label: Bug"]) await expect(form.getByRole("link", { name: `Remove filter ${chip}` })).toBeVisible();
    };
    await expectFilteredList(page);

    // The filtered list is a shareable link.
    const shared = await context.newPage();
    await open(shared, javaScriptEnabled, page.url());
    await expectFilteredList(shared);
    await shared.close();

    // Open it from the list: the detail pane, with the list (and its filters) beside it.
    await page.getByRole("list", { name: "Issues" }).getByRole("link", { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`${base}/issues/1\\?`));
    await expect(detail.article.getByRole("heading", { level: 2, name: title })).toBeVisible();
    await expect(page.getByRole("list", { name: "Issues" }).getByRole("listitem").filter({ hasText: "WEB-1" })).toHaveAttribute("aria-current", "true");
    await expect(page.getByRole("search", { name: "Filter issues" }).getByLabel("Search", { exact: true })).toHaveValue("login");

    // Edit its title, then its priority from the properties panel: one line of activity for both.
    const newTitle = "Login button does nothing on Safari";
    const edit = await openEditIssue(page);
    await expect(edit.getByLabel("Title", { exact: true })).toHaveValue(title);
    await edit.getByLabel("Title", { exact: true }).fill(newTitle);
    await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click());
    await expect(detail.article.getByRole("heading", { level: 2, name: newTitle })).toBeVisible();
    await expect(detail.edit).toHaveCount(0);
    await changeProperty(page, javaScriptEnabled, "Priority", "Urgent");
    await expect(propertyButton(detail.article, "Priority")).toHaveText("Urgent");
    await expect(detail.activity).toContainText(`${me} renamed it to “${newTitle}” and changed the priority from High to Urgent`);
    // Only what changed is recorded (the description went through the form unchanged).
    await expect(detail.activity).not.toContainText("changed the description");
    await expect(detail.activity).not.toContainText("set the labels");

    // Close it with the status control.
    await changeStatus(page, javaScriptEnabled, "Done");
    await expect(detail.activity).toContainText(`changed the priority from High to Urgent and the status from Backlog to Done`);
    await expect(detail.status).toHaveText("Done");
    await expect(fact(detail.article, "Closed").locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);

    // Comment, edit the comment, delete it.
    await detail.commentField.fill("Looks like a **CSS** problem.");
    await submitOnIssue(page, javaScriptEnabled, () => detail.addComment.click());
    const comment = page.getByRole("listitem", { name: `Comment by ${me}` });
    await expect(comment.locator("strong").filter({ hasText: /^CSS$/ })).toBeVisible();
    await expect(comment).toContainText("Looks like a CSS problem.");
    await expect(comment).not.toContainText("edited");
    // The posted comment is not left in the box (without JavaScript the page comes back fresh).
    // The posted comment leaves an empty box, with or without JavaScript.
    await expect(detail.commentField).toHaveValue("");

    await comment.locator("summary", { hasText: "Edit comment" }).click();
    const commentBody = comment.getByRole("textbox", { name: "Comment", exact: true });
    await expect(commentBody).toHaveValue("Looks like a **CSS** problem.");
    await commentBody.fill("It is a CSS problem after all.");
    await submitOnIssue(page, javaScriptEnabled, () => comment.getByRole("button", { name: "Save comment" }).click());
    await expect(comment).toContainText("It is a CSS problem after all.");
    await expect(comment).toContainText("· edited");

    await deleteComment(page, javaScriptEnabled, comment);
    await expect(comment).toHaveText("Comment deleted");
    await expect(comment.getByRole("button")).toHaveCount(0);
    await expect(detail.activity).toContainText(`${me} deleted a comment`);

    // Everything survives a reload.
    await page.reload();
    await waitForHydration(page, javaScriptEnabled);
    await expect(detail.article.getByRole("heading", { level: 2, name: newTitle })).toBeVisible();
    await expect(detail.status).toHaveText("Done");
    await expect(page.getByRole("listitem", { name: `Comment by ${me}` })).toHaveText("Comment deleted");

    expect(dialogs).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test("a rejected new issue keeps what was typed; unknown issues are a 404 inside the layout", async ({ page, javaScriptEnabled }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Bea Badinput");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");

    await page.getByRole("link", { name: "New issue" }).first().click();
    await expect(page).toHaveURL(`${base}/issues/new`);
    await expect(page).toHaveTitle("New issue · Website · Cairn");
    await waitForHydration(page, javaScriptEnabled);
    const title = page.getByLabel("Title", { exact: true });
    const description = page.getByLabel("Description", { exact: true });
    const priority = page.getByLabel("Priority", { exact: true });
    const dueDate = page.getByLabel("Due date", { exact: true });
    const submit = page.getByRole("button", { name: "Create issue" });
    const summary = page.getByRole("main").getByRole("alert");
    const typedDescription = "Steps:\n1. open the page\n2. click *Login*";
    const expectOthersKept = async () => {
      await expect(description).toHaveValue(typedDescription);
      await expect(priority).toHaveValue("low");
    };

    // An empty title.
    await description.fill(typedDescription);
    await priority.selectOption({ label: "Low" });
    await dueDate.fill("2026-05-01");
    let response = nextPost(page, `${base}/issues/new`);
    await submit.click();
    expect((await response).status()).toBe(400);
    await expect(summary).toHaveText("Please correct the field marked below.");
    await expect(title).toHaveAttribute("aria-invalid", "true");
    await expect(title).toHaveAccessibleDescription("Enter a title.");
    await expectOthersKept();
    await expect(dueDate).toHaveValue("2026-05-01");
    await expect(dueDate).not.toHaveAttribute("aria-invalid", "true");

    // A title over 200 characters and a date that does not exist (which a date input refuses to hold).
    const longTitle = "A".repeat(201);
    await title.fill(longTitle);
    await dueDate.evaluate((input: HTMLInputElement) => {
      input.type = "text";
      input.value = "2026-02-30";
    });
    response = nextPost(page, `${base}/issues/new`);
    await submit.click();
    const rejected = await response;
    expect(rejected.status()).toBe(400);
    await expect(summary).toHaveText("Please correct the 2 fields marked below.");
    await expect(title).toHaveAccessibleDescription("Use at most 200 characters.");
    await expect(title).toHaveValue(longTitle);
    await expect(dueDate).toHaveAttribute("aria-invalid", "true");
    await expect(dueDate).toHaveAccessibleDescription("That date does not exist.");
    await expectOthersKept();

    // A real date outside the allowed range.
    await title.fill("Login fails on the first try");
    await dueDate.fill("1999-12-31");
    response = nextPost(page, `${base}/issues/new`);
    await submit.click();
    expect((await response).status()).toBe(400);
    await expect(summary).toHaveText("Please correct the field marked below.");
    await expect(dueDate).toHaveAccessibleDescription("Choose a date between 2000-01-01 and 2100-12-31.");
    await expect(title).not.toHaveAttribute("aria-invalid", "true");
    await expect(title).toHaveValue("Login fails on the first try");
    await expect(dueDate).toHaveValue("1999-12-31");
    await expectOthersKept();

    // Fixed: filed as WEB-1.
    await dueDate.fill("2026-02-28");
    await submit.click();
    await expect(page).toHaveURL(`${base}/issues/1`);
    const detail = issueDetail(page);
    await expect(detail.article.getByRole("heading", { level: 2, name: "Login fails on the first try" })).toBeVisible();
    await expect(fact(detail.article, "Due date").locator("time")).toHaveAttribute("datetime", "2026-02-28");
    await expect(propertyButton(detail.article, "Priority")).toHaveText("Low");
    await expect(detail.description.locator("em")).toHaveText("Login");

    // Unknown and malformed issue numbers: 404 in the issue pane, the layouts around it kept.
    for (const number of ["999", "abc", "0", "1.5", "99999999999"]) {
      const missing = await open(page, javaScriptEnabled, `${base}/issues/${number}`);
      expect(missing?.status(), `/issues/${number}`).toBe(404);
      await expect(page.getByRole("alert")).toContainText(`Issue WEB-${number} not found.`);
      await expect(page.getByRole("heading", { level: 1, name: "Website" })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Projects" }).getByRole("link", { name: "Website WEB" })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Issues" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: "Issues (1)" })).toBeVisible();
      await expect(page.getByRole("main")).not.toContainText("Application error");
    }

    // With JavaScript, following a link to a missing issue shows the same 404 without a full reload.
    if (javaScriptEnabled) {
      await open(page, javaScriptEnabled, `${base}/issues`);
      await page.evaluate(() => ((window as { __marker?: number }).__marker = 1));
      // As a link inside the app would: through React Router's client-side router.
      await page.evaluate((href) => (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } }).__reactRouterDataRouter.navigate(href), `${base}/issues/999`);
      await expect(page.getByRole("alert")).toContainText("Issue WEB-999 not found.");
      await expect(page.getByRole("heading", { level: 1, name: "Website" })).toBeVisible();
      expect(await page.evaluate(() => (window as { __marker?: number }).__marker)).toBe(1);
    }
  });

  test("a save from a stale copy is refused with a conflict that keeps the input", async ({ page, context, javaScriptEnabled }, testInfo) => {
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Carla Conflict");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    const url = await fileIssue(page, javaScriptEnabled, base, { title: "Original title", priority: "Low" });
    const pathname = new URL(url).pathname;

    // The same issue, open in a second tab before the first one saves.
    const second = await context.newPage();
    await open(second, javaScriptEnabled, pathname);
    await expect(issueDetail(second).article.getByRole("heading", { level: 2, name: "Original title" })).toBeVisible();

    // Its edit form open (without JavaScript, opening it loads the page) before the first tab saves.
    const edit = await openEditIssue(second);

    const first = await openEditIssue(page);
    await first.getByLabel("Title", { exact: true }).fill("Title from the first tab");
    await submitOnIssue(page, javaScriptEnabled, () => first.getByRole("button", { name: "Save changes" }).click());
    await expect(issueDetail(page).article.getByRole("heading", { level: 2, name: "Title from the first tab" })).toBeVisible();

    const titleField = edit.getByLabel("Title", { exact: true });
    const descriptionField = edit.getByLabel("Description", { exact: true });
    await titleField.fill("Title from the second tab");
    await descriptionField.fill("Described in the second tab");
    const refused = await submitOnIssue(second, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click());
    expect(refused.status()).toBe(409);
    await expect(edit.getByRole("alert")).toHaveText(conflictText(me, "title"));
    await expect(titleField).toHaveValue("Title from the second tab");
    await expect(descriptionField).toHaveValue("Described in the second tab");
    // Nothing of the refused save was stored.
    await expect(issueDetail(second).activity).not.toContainText("changed the description");
    // The refused page shows the issue as it is now, so that the user sees what changed.
    // After the conflict the page shows the other save (the route revalidates on 409).
    await expect(issueDetail(second).article.getByRole("heading", { level: 2, name: "Title from the first tab" })).toBeVisible();

    // Having seen the message, saving again is taken.
    const retried = await submitOnIssue(second, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click());
    // Saving again now goes through: the form carries the new version.
    expect(retried.status()).not.toBe(409);
    const secondDetail = issueDetail(second);
    await expect(secondDetail.article.getByRole("heading", { level: 2, name: "Title from the second tab" })).toBeVisible();
    await expect(secondDetail.description).toHaveText("Described in the second tab");
    // Both saves were one person's within minutes: one line, the title as it ended.
    await expect(secondDetail.activity).toContainText(`${me} renamed it to “Title from the second tab” and changed the description`);
    await expect(second.getByRole("alert")).toHaveCount(0);
    await second.close();
  });

  test("an archived project is read-only until it is unarchived", async ({ page, baseURL, javaScriptEnabled }, testInfo) => {
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Arne Archiver");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    const url = await fileIssue(page, javaScriptEnabled, base, { title: "Old page" });
    const pathname = new URL(url).pathname;
    const projects = page.getByRole("navigation", { name: "Projects" });

    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveURL(`${base}/settings`);
    // Archiving asks first: a dialog with JavaScript, a page without.
    await page.getByRole("link", { name: "Archive project" }).click();
    await page.getByRole("dialog").or(page.getByRole("alertdialog")).getByRole("button", { name: "Archive project" }).click();
    await expect(page.getByRole("status")).toHaveText("Project archived: it is now read-only.");
    await expect(page.getByText("Archived — read-only")).toBeVisible();
    await expect(page.getByRole("button", { name: "Unarchive project" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Save project" })).toHaveCount(0);

    // The sidebar lists it under "Archived" only.
    await expect(projects.getByRole("link", { name: "Website WEB" })).toHaveCount(0);
    await expect(projects.getByText("No projects yet.")).toBeVisible();
    await projects.locator("summary", { hasText: "Archived" }).click();
    await projects.getByRole("link", { name: "Website", exact: true }).click();
    await expect(page).toHaveURL(`${base}/issues`);

    // The list and the detail offer no changes.
    await expect(page.getByRole("list", { name: "Issues" }).getByRole("link", { name: "Old page" })).toBeVisible();
    await expect(page.getByRole("link", { name: "New issue" })).toHaveCount(0);
    // Values without menus.
    await expect(page.getByRole("img", { name: "Status of WEB-1: Backlog" })).toBeVisible();
    await expect(page.getByRole("link", { name: /^(Status|Priority|Assignee) of WEB-1/ })).toHaveCount(0);
    await page.getByRole("list", { name: "Issues" }).getByRole("link", { name: "Old page" }).click();
    await expect(page).toHaveURL(pathname);
    const detail = issueDetail(page);
    await expect(detail.article.getByRole("heading", { level: 2, name: "Old page" })).toBeVisible();
    await expect(fact(detail.article, "Status")).toHaveText("Backlog");
    await expect(detail.editLink).toHaveCount(0);
    // No property can be changed; watching is still theirs to choose.
    await expect(detail.article.getByRole("complementary", { name: "Properties" }).getByRole("button", { name: /^(?!(Watch|Unwatch)$)/ })).toHaveCount(0);
    await expect(detail.article.getByRole("complementary", { name: "Properties" }).getByRole("button", { name: /^(Watch|Unwatch)$/ })).toBeVisible();
    await expect(detail.commentField).toHaveCount(0);
    await expect(detail.addComment).toHaveCount(0);

    // The server refuses what the screen does not offer.
    const origin = new URL(baseURL).origin;
    const post = await page.request.post(pathname, { form: { intent: "comment", body: "Sneaked in" }, headers: { Origin: origin }, maxRedirects: 0 });
    expect(post.status()).toBe(403);
    const body = await post.text();
    expect(body).toContain("This project is archived: it is read-only.");
    expect(body).not.toContain("A request from another site was refused.");
    const statusPost = await page.request.post(pathname, { form: { intent: "status", version: "1", status: "done" }, headers: { Origin: origin }, maxRedirects: 0 });
    expect(statusPost.status()).toBe(403);
    const newIssue = await page.goto(`${base}/issues/new`);
    expect(newIssue?.status()).toBe(403);
    await expect(page.getByRole("alert")).toContainText("This project is archived: it is read-only.");
    await open(page, javaScriptEnabled, pathname);
    await expect(page.getByRole("region", { name: "Activity" })).not.toContainText("Sneaked in");
    await expect(fact(detail.article, "Status")).toHaveText("Backlog");

    // Unarchived: editable again, and back in the sidebar's list.
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Unarchive project" }).click();
    await expect(page.getByRole("status")).toHaveText("Project unarchived.");
    await expect(page.getByText("Archived — read-only")).toHaveCount(0);
    await expect(projects.getByRole("link", { name: "Website WEB" })).toBeVisible();
    await expect(projects.locator("summary", { hasText: "Archived" })).toHaveCount(0);
    await open(page, javaScriptEnabled, pathname);
    await expect(detail.editLink).toBeVisible();
    await expect(detail.status).toBeVisible();
    await detail.commentField.fill("Back in business.");
    await submitOnIssue(page, javaScriptEnabled, () => detail.addComment.click());
    await expect(page.getByRole("listitem", { name: `Comment by ${me}` })).toContainText("Back in business.");
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Issues" }).click();
    await expect(page.getByRole("link", { name: "New issue" }).first()).toBeVisible();
  });

  test("the list's row menus apply at once and roll back when refused", async ({ page, context, javaScriptEnabled }, testInfo) => {
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Otto Optimist");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    await fileIssue(page, javaScriptEnabled, base, { title: "Slow network" });
    await open(page, javaScriptEnabled, `${base}/issues`);
    const rowStatus = rowMenuButton(page, "Status", "WEB-1");
    await expect(rowStatus).toHaveAccessibleName("Status of WEB-1: Backlog");

    if (javaScriptEnabled) {
      // Hold the save on the way to the server: the row already shows the new status.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const isListAction = (url: URL) => url.pathname === `${base}/issues.data`;
      await page.route(isListAction, async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      });
      const saved = nextPost(page, `${base}/issues`);
      await page.evaluate(() => ((window as { __marker?: number }).__marker = 1));
      await rowStatus.click();
      await page.locator(":popover-open").getByRole("button", { name: "In progress", exact: true }).click();
      await expect(rowStatus).toHaveAccessibleName("Status of WEB-1: In progress");
      release();
      await saved;
      await expect(page.getByRole("alert")).toHaveCount(0);
      // One request, no page load.
      expect(await page.evaluate(() => (window as { __marker?: number }).__marker)).toBe(1);
      await page.unroute(isListAction);
    } else {
      // The menu's choices are a form's submit buttons: a native POST, then the list again.
      await chooseInRowMenu(page, javaScriptEnabled, "Status", "WEB-1", "In progress");
      await expect(page).toHaveURL(`${base}/issues`);
    }
    await expect(rowStatus).toHaveAccessibleName("Status of WEB-1: In progress");

    await page.reload();
    await waitForHydration(page, javaScriptEnabled);
    await expect(rowStatus).toHaveAccessibleName("Status of WEB-1: In progress");

    // While this page has its menu open, someone (here: another tab) changes the issue: the menu's
    // form still has the old version.
    const refused = await chooseInRowMenu(page, javaScriptEnabled, "Status", "WEB-1", "Done", async () => {
      const other = await context.newPage();
      await open(other, javaScriptEnabled, `${base}/issues`);
      await chooseInRowMenu(other, javaScriptEnabled, "Status", "WEB-1", "Todo");
      await expect(rowMenuButton(other, "Status", "WEB-1")).toHaveAccessibleName("Status of WEB-1: Todo");
      await other.close();
    });
    expect(refused.status()).toBe(409);
    // Above the list, naming the issue (a reloaded, filtered list may no longer have its row).
    await expect(page.getByRole("alert")).toHaveText(`WEB-1: ${conflictText(me, "status")}`);
    // Rolled back to the status that won, which the reloaded list shows: not the refused value, nor the stale one.
    await expect(rowStatus).toHaveAccessibleName("Status of WEB-1: Todo");

    await page.goto(`${base}/issues`);
    await waitForHydration(page, javaScriptEnabled);
    await expect(rowStatus).toHaveAccessibleName("Status of WEB-1: Todo");
  });

  test("every property changes from its menu, at once with JavaScript, and a refused change says why", async ({ page, context, javaScriptEnabled }, testInfo) => {
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Quinn Quick");
    await createLabelInSettings(page, javaScriptEnabled, slug, "Bug", "Red");
    await createLabelInSettings(page, javaScriptEnabled, slug, "Docs", "Blue");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    await fileIssue(page, javaScriptEnabled, base, { title: "Quick fields" });
    await open(page, javaScriptEnabled, `${base}/issues/1`);
    const detail = issueDetail(page);
    const article = detail.article;
    const priority = propertyButton(article, "Priority");

    if (javaScriptEnabled) {
      // Held on its way to the server, the choice already shows.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const isIssueAction = (url: URL) => url.pathname === `${base}/issues/1.data`;
      await page.route(isIssueAction, async (route) => {
        if (route.request().method() === "POST") await held;
        await route.continue();
      });
      const saved = changeProperty(page, javaScriptEnabled, "Priority", "Urgent");
      await expect(priority).toHaveText("Urgent");
      release();
      await saved;
      await page.unroute(isIssueAction);
    } else {
      await changeProperty(page, javaScriptEnabled, "Priority", "Urgent");
    }
    await changeProperty(page, javaScriptEnabled, "Assignee", me);
    await toggleLabel(page, javaScriptEnabled, "Docs");
    await toggleLabel(page, javaScriptEnabled, "Bug");
    await setDueDate(page, javaScriptEnabled, "2026-04-01");
    await page.reload();
    await waitForHydration(page, javaScriptEnabled);
    await expect(priority).toHaveText("Urgent");
    await expect(propertyButton(article, "Assignee")).toContainText(me);
    await expect(propertyButton(article, "Labels")).toHaveText("BugDocs");
    await expect(fact(article, "Due date").locator("time")).toHaveAttribute("datetime", "2026-04-01");
    await expect(detail.activity).toContainText(
      `${me} changed the priority from No priority to Urgent, assigned it to ${me} and set the labels to Bug, Docs and the due date to 2026-04-01`,
    );

    // A label toggled off, the due date cleared.
    await toggleLabel(page, javaScriptEnabled, "Bug");
    await setDueDate(page, javaScriptEnabled, null);
    await expect(propertyButton(article, "Labels")).toHaveText("Docs");
    await expect(propertyButton(article, "Due date")).toHaveText("None");

    // Someone saves in between: the change is refused, says why at the property, and the page shows what the server has.
    const other = await context.newPage();
    await open(other, javaScriptEnabled, `${base}/issues/1`);
    await changeStatus(other, javaScriptEnabled, "Todo");
    await other.close();
    const refused = await changeProperty(page, javaScriptEnabled, "Priority", "Low");
    expect(refused.status()).toBe(409);
    await expect(fact(article, "Priority").getByRole("alert")).toHaveText(conflictText(me, "status"));
    await expect(priority).toHaveText("Urgent");
    await expect(detail.status).toHaveText("Todo");
    // Told, the next change is taken.
    expect((await changeProperty(page, javaScriptEnabled, "Priority", "Low")).status()).toBeLessThan(400);
    await expect(priority).toHaveText("Low");
  });

  test("a viewer reads issues but cannot change them", async ({ page, browser, cairn, baseURL, javaScriptEnabled }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Olga Owner", "Viewable");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    await fileIssue(page, javaScriptEnabled, base, { title: "Visible to viewers", description: "Read **only**." });

    // Invite a viewer.
    const viewerEmail = uniqueEmail(testInfo, "vera");
    await openWorkspaceSettings(page);
    await page.getByRole("navigation", { name: "Workspace settings" }).getByRole("link", { name: "Members" }).click();
    await expect(page).toHaveURL(`/w/${slug}/settings/members`);
    await page.getByLabel("Email", { exact: true }).fill(viewerEmail);
    await page.getByLabel("Role", { exact: true }).selectOption({ label: "Viewer" });
    await page.getByRole("button", { name: "Invite member" }).click();
    await expect(page.getByRole("status")).toContainText(`Invitation created for ${viewerEmail}`);
    const link = await page.getByLabel("Invitation link").inputValue();
    expect(link).toMatch(new RegExp(`^${cairn.server.url}/invitations/[^/]+$`));

    const viewerContext = await browser.newContext({ javaScriptEnabled, baseURL: cairn.server.url });
    try {
      const viewer = await viewerContext.newPage();
      await open(viewer, javaScriptEnabled, link);
      await expect(viewer.getByRole("main")).toContainText(`${viewerEmail} is invited to Viewable as viewer.`);
      await viewer.getByRole("main").getByRole("link", { name: "Create account" }).click();
      await expect(viewer.getByLabel("Email", { exact: true })).toHaveValue(viewerEmail);
      await waitForHydration(viewer, javaScriptEnabled);
      await viewer.getByLabel("Name", { exact: true }).fill("Vera Viewer");
      await viewer.getByLabel("Password", { exact: true }).fill(goodPassword);
      await viewer.getByRole("button", { name: "Create account" }).click();
      await expect(viewer).toHaveURL(`/w/${slug}`);

      // The project and its issues are readable.
      const projects = viewer.getByRole("navigation", { name: "Projects" });
      await expect(projects.getByRole("link", { name: "Create project" })).toHaveCount(0);
      await projects.getByRole("link", { name: "Website WEB" }).click();
      await expect(viewer).toHaveURL(`${base}/issues`);
      await expect(viewer.getByRole("list", { name: "Issues" }).getByRole("link", { name: "Visible to viewers" })).toBeVisible();
      await expect(viewer.getByRole("link", { name: "New issue" })).toHaveCount(0);
      await expect(viewer.getByRole("img", { name: "Status of WEB-1: Backlog" })).toBeVisible();
      await expect(viewer.getByRole("link", { name: /^(Status|Priority|Assignee) of WEB-1/ })).toHaveCount(0);
      await expect(viewer.getByRole("button", { name: /^Set/ })).toHaveCount(0);
      await expect(viewer.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Settings" })).toHaveCount(0);
      // The filters are for everyone.
      await expect(viewer.getByRole("search", { name: "Filter issues" })).toBeVisible();

      await viewer.getByRole("list", { name: "Issues" }).getByRole("link", { name: "Visible to viewers" }).click();
      await expect(viewer).toHaveURL(`${base}/issues/1`);
      const detail = issueDetail(viewer);
      await expect(detail.article.getByRole("heading", { level: 2, name: "Visible to viewers" })).toBeVisible();
      await expect(detail.description.locator("strong")).toHaveText("only");
      await expect(fact(detail.article, "Status")).toHaveText("Backlog");
      await expect(detail.activity).toContainText("Olga Owner created the issue");
      await expect(detail.editLink).toHaveCount(0);
      // No property can be changed; watching is still theirs to choose.
      await expect(detail.article.getByRole("complementary", { name: "Properties" }).getByRole("button", { name: /^(?!(Watch|Unwatch)$)/ })).toHaveCount(0);
      await expect(detail.article.getByRole("complementary", { name: "Properties" }).getByRole("button", { name: "Watch", exact: true })).toBeVisible();
      await expect(detail.article.getByRole("link", { name: "Delete comment" })).toHaveCount(0);
      await expect(detail.commentField).toHaveCount(0);
      await expect(detail.addComment).toHaveCount(0);

      // And the server refuses what the screen does not offer.
      const post = await viewer.request.post(`${base}/issues/1`, {
        form: { intent: "comment", body: "I should not be able to say this" },
        headers: { Origin: new URL(baseURL).origin },
        maxRedirects: 0,
      });
      expect(post.status()).toBe(403);
      const newIssue = await viewer.goto(`${base}/issues/new`);
      expect(newIssue?.status()).toBe(403);
      await expect(viewer.getByRole("alert")).toContainText("You don't have permission to do that.");
    } finally {
      await viewerContext.close();
    }
  });
});
