import { createWorkspace, uniqueSlug } from "./accounts-helpers";
import { createLabelInSettings } from "./board-helpers";
import { expect, recordPosts, test } from "./fixtures";
import {
  changeStatus,
  createProject,
  fact,
  fileIssue,
  issueDetail,
  open,
  openEditIssue,
  propertyButton,
  setDueDate,
  signUpWithWorkspace,
  submitOnIssue,
} from "./issues-helpers";
import { chooseInRowMenu, rowMenuButton } from "./issues-list-helpers";

test.describe("edit forms", () => {
  // Each journey signs up (scrypt at N=2^17, docs/product.md, Limits) and files issues through the screens.
  test.describe.configure({ timeout: 90_000 });

  test("'Edit issue' shows the issue chosen in the list, and saves only to it", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Edda Editor");
    await createLabelInSettings(page, javaScriptEnabled, slug, "Bug", "Red");
    await createLabelInSettings(page, javaScriptEnabled, slug, "Docs", "Blue");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    await fileIssue(page, javaScriptEnabled, base, { title: "Alpha", description: "About alpha", priority: "Low", dueDate: "2026-01-10", labels: ["Bug"] });
    await fileIssue(page, javaScriptEnabled, base, {
      title: "Beta",
      description: "About beta",
      priority: "Urgent",
      assignee: me,
      dueDate: "2026-02-20",
      labels: ["Docs"],
    });
    await changeStatus(page, javaScriptEnabled, "In progress");

    // Issue A open beside the list, its edit form looked at; then B, chosen in the list.
    await open(page, javaScriptEnabled, `${base}/issues/1`);
    const detail = issueDetail(page);
    let edit = await openEditIssue(page);
    await expect(edit.getByLabel("Title", { exact: true })).toHaveValue("Alpha");
    await page.getByRole("list", { name: "Issues" }).getByRole("link", { name: "Beta" }).click();
    await expect(page).toHaveURL(`${base}/issues/2`);
    await expect(detail.article.getByRole("heading", { level: 2, name: "Beta" })).toBeVisible();

    edit = await openEditIssue(page);
    await expect(edit.getByLabel("Title", { exact: true })).toHaveValue("Beta");
    await expect(edit.getByLabel("Description", { exact: true })).toHaveValue("About beta");

    await edit.getByLabel("Title", { exact: true }).fill("Beta, renamed");
    await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click());
    await expect(detail.article.getByRole("heading", { level: 2, name: "Beta, renamed" })).toBeVisible();
    await expect(detail.status).toHaveText("In progress");
    await expect(propertyButton(detail.article, "Priority")).toHaveText("Urgent");
    await expect(propertyButton(detail.article, "Assignee")).toContainText(me);
    await expect(propertyButton(detail.article, "Labels")).toHaveText("Docs");
    await expect(fact(detail.article, "Due date").locator("time")).toHaveAttribute("datetime", "2026-02-20");
    await expect(detail.description).toHaveText("About beta");
    // Only the title changed (one line with the status change just before: one person, within minutes).
    await expect(detail.activity).toContainText(`${me} changed the status from Backlog to In progress and renamed it to “Beta, renamed”`);
    for (const change of ["changed the description", "changed the priority", "set the labels", "set the due date to 2026-01-10", "unassigned it"]) {
      await expect(detail.activity).not.toContainText(change);
    }

    // A is as it was filed.
    await page.getByRole("list", { name: "Issues" }).getByRole("link", { name: "Alpha" }).click();
    await expect(detail.article.getByRole("heading", { level: 2, name: "Alpha" })).toBeVisible();
    await expect(detail.status).toHaveText("Backlog");
    await expect(propertyButton(detail.article, "Priority")).toHaveText("Low");
    await expect(propertyButton(detail.article, "Assignee")).toHaveText("Unassigned");
    await expect(propertyButton(detail.article, "Labels")).toHaveText("Bug");
    await expect(fact(detail.article, "Due date").locator("time")).toHaveAttribute("datetime", "2026-01-10");
    await expect(detail.activity).not.toContainText("renamed it");
    edit = await openEditIssue(page);
    await expect(edit.getByLabel("Title", { exact: true })).toHaveValue("Alpha");
    await expect(edit.getByLabel("Description", { exact: true })).toHaveValue("About alpha");
    expect(consoleErrors).toEqual([]);
  });

  test("a quick status change, then an edit in 'Edit issue', keeps the status", async ({ page, javaScriptEnabled }, testInfo) => {
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Quinn Quickfix");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    await fileIssue(page, javaScriptEnabled, base, { title: "Typo in the title" });
    const detail = issueDetail(page);

    await changeStatus(page, javaScriptEnabled, "Todo");
    let edit = await openEditIssue(page);
    await edit.getByLabel("Title", { exact: true }).fill("No typo in the title");
    await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click());
    await expect(detail.article.getByRole("heading", { level: 2, name: "No typo in the title" })).toBeVisible();
    await expect(detail.status).toHaveText("Todo");
    await expect(detail.activity).toContainText(`${me} changed the status from Backlog to Todo and renamed it to “No typo in the title”`);
    if (!javaScriptEnabled) return;

    // With JavaScript the page stays: what was typed in the open form survives a quick change.
    edit = await openEditIssue(page);
    await edit.getByLabel("Title", { exact: true }).fill("Typed, not saved yet");
    await changeStatus(page, javaScriptEnabled, "In progress");
    await expect(edit.getByLabel("Title", { exact: true })).toHaveValue("Typed, not saved yet");
    await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click());
    await expect(detail.article.getByRole("heading", { level: 2, name: "Typed, not saved yet" })).toBeVisible();
    await expect(detail.status).toHaveText("In progress");
    // One person's changes within minutes: one line, each field from its first value to its last.
    await expect(detail.activity).toContainText(`${me} changed the status from Backlog to In progress and renamed it to “Typed, not saved yet”`);
  });

  test("someone else's change to the field being edited is refused on save, not overwritten", async ({ page, context, javaScriptEnabled }, testInfo) => {
    test.skip(!javaScriptEnabled, "Without JavaScript every change reloads the page; issues.spec.ts covers its conflict.");
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Cora Careful");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    const url = await fileIssue(page, javaScriptEnabled, base, { title: "First title", priority: "Low" });
    const detail = issueDetail(page);

    const edit = await openEditIssue(page);
    const title = edit.getByLabel("Title", { exact: true });
    await title.fill("My title");

    // Another tab renames it and sets a due date.
    const other = await context.newPage();
    await open(other, javaScriptEnabled, new URL(url).pathname);
    const otherEdit = await openEditIssue(other);
    await otherEdit.getByLabel("Title", { exact: true }).fill("Their title");
    await submitOnIssue(other, javaScriptEnabled, () => otherEdit.getByRole("button", { name: "Save changes" }).click());
    await setDueDate(other, javaScriptEnabled, "2026-05-01");
    await other.close();

    // A quick change here is refused (this page is behind), and the issue is reloaded: the form keeps
    // "My title" and shows their due date.
    const quick = await changeStatus(page, javaScriptEnabled, "Todo");
    expect(quick.status()).toBe(409);
    await expect(fact(detail.article, "Status").getByRole("alert")).toContainText(`This issue was changed by ${me} since you opened it: title, due date.`);
    await expect(detail.article.getByRole("heading", { level: 2, name: "Their title" })).toBeVisible();
    await expect(title).toHaveValue("My title");
    await expect(fact(detail.article, "Due date").locator("time")).toHaveAttribute("datetime", "2026-05-01");
    await expect(detail.status).toHaveText("Backlog");

    // Both changed the title: the save is refused, saying so, and keeps what was typed.
    const refused = await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click());
    expect(refused.status()).toBe(409);
    await expect(edit.getByRole("alert")).toHaveText(`This issue was changed by ${me} since you opened it: title, due date.`);
    await expect(title).toHaveValue("My title");

    // Saving again, having been told, is taken, and keeps their due date.
    const saved = await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click());
    expect(saved.status()).not.toBe(409);
    await expect(detail.article.getByRole("heading", { level: 2, name: "My title" })).toBeVisible();
    await expect(fact(detail.article, "Due date").locator("time")).toHaveAttribute("datetime", "2026-05-01");
    await expect(detail.activity).toContainText(`${me} renamed it to “My title”`);
    await expect(detail.activity).not.toContainText("removed the due date");
  });

  test("with JavaScript a quick change is one request; without it the forms submit natively", async ({ page, context, javaScriptEnabled }, testInfo) => {
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Sid Single");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    await fileIssue(page, javaScriptEnabled, base, { title: "One request" });
    const detail = issueDetail(page);
    const rowStatus = rowMenuButton(page, "Status", "WEB-1");
    const setButtons = detail.article.getByRole("button", { name: /^Set/ });

    if (!javaScriptEnabled) {
      await chooseInRowMenu(page, javaScriptEnabled, "Status", "WEB-1", "Todo");
      await expect(rowStatus).toHaveAccessibleName("Status of WEB-1: Todo");
      await expect(detail.status).toHaveText("Todo");
      return;
    }

    // The select saves on its own; the no-JavaScript buttons are gone once the page is hydrated.
    await expect(setButtons).toHaveCount(0);
    const posts = recordPosts(page);
    await changeStatus(page, javaScriptEnabled, "Todo");
    await expect(rowStatus).toHaveAccessibleName("Status of WEB-1: Todo");
    const saved = await chooseInRowMenu(page, javaScriptEnabled, "Status", "WEB-1", "Done");
    expect(saved.status()).toBeLessThan(400);
    await expect(detail.status).toHaveText("Done");
    await expect(detail.activity).toContainText(`${me} changed the status from Backlog to Done`);
    expect(posts.map((post) => post.path)).toEqual([`${base}/issues/1`, `${base}/issues`]);

    // A refused row change says why above the list, even when the reloaded list no longer has the row.
    await open(page, javaScriptEnabled, `${base}/issues?status=done`);
    const other = await context.newPage();
    await open(other, javaScriptEnabled, `${base}/issues/1`);
    await changeStatus(other, javaScriptEnabled, "Todo");
    await other.close();
    const refused = await chooseInRowMenu(page, javaScriptEnabled, "Status", "WEB-1", "Backlog");
    expect(refused.status()).toBe(409);
    await expect(page.getByRole("alert")).toHaveText(`WEB-1: This issue was changed by ${me} since you opened it: status.`);
    await expect(rowStatus).toHaveCount(0);
  });

  test("settings forms show the project and workspace on screen, not the one before", async ({ page, javaScriptEnabled }, testInfo) => {
    test.skip(!javaScriptEnabled, "Without JavaScript every page is rendered afresh.");
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Sara Settings", "Acme");
    const web = await createProject(page, javaScriptEnabled, slug, "Website", "web");
    const api = await createProject(page, javaScriptEnabled, slug, "Public API", "api", "The API.");
    const otherSlug = uniqueSlug(testInfo, "other");
    await createWorkspace(page, javaScriptEnabled, "Other Corp", otherSlug);
    // In the app, as a link from one settings page to another's would (none does yet, so the router is told directly).
    const navigate = (path: string) => page.evaluate((to) => (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } }).__reactRouterDataRouter.navigate(to), path);

    await open(page, javaScriptEnabled, `${web}/settings`);
    await expect(page.getByLabel("Project name", { exact: true })).toHaveValue("Website");
    await navigate(`${api}/settings`);
    await expect(page).toHaveURL(`${api}/settings`);
    await expect(page.getByLabel("Project name", { exact: true })).toHaveValue("Public API");
    await expect(page.getByLabel("Description", { exact: true })).toHaveValue("The API.");

    await open(page, javaScriptEnabled, `/w/${slug}/settings`);
    await expect(page.getByLabel("Workspace name", { exact: true })).toHaveValue("Acme");
    await page.getByLabel(`Type ${slug} to confirm`, { exact: true }).fill(slug);
    await navigate(`/w/${otherSlug}/settings`);
    await expect(page.getByLabel("Workspace name", { exact: true })).toHaveValue("Other Corp");
    await expect(page.getByLabel(`Type ${otherSlug} to confirm`, { exact: true })).toHaveValue("");
  });
});
