import type { Locator, Page, TestInfo } from "@playwright/test";
import { createWorkspace, goodPassword, signUp, uniqueEmail, uniqueSlug } from "./accounts-helpers";
import { expect, waitForHydration } from "./fixtures";

/** The response to the next POST to `pathname` (a document request without JavaScript, `.data` with). */
export function nextPost(page: Page, pathname: string) {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return response.request().method() === "POST" && (url.pathname === pathname || url.pathname === `${pathname}.data`);
  });
}

/** Opens a page of the site and, with JavaScript, waits until React has taken it over. */
export async function open(page: Page, javaScriptEnabled: boolean, path: string) {
  const response = await page.goto(path);
  await waitForHydration(page, javaScriptEnabled);
  return response;
}

/** Signs up a new account and creates a workspace of its own; returns who and where. */
export async function signUpWithWorkspace(page: Page, javaScriptEnabled: boolean, testInfo: TestInfo, name: string, workspaceName = "Acme") {
  const email = uniqueEmail(testInfo, name.split(" ")[0]!.toLowerCase());
  const slug = uniqueSlug(testInfo, "ws");
  await signUp(page, javaScriptEnabled, { name, email, password: goodPassword });
  await expect(page).toHaveURL("/w/new");
  await waitForHydration(page, javaScriptEnabled);
  await createWorkspace(page, javaScriptEnabled, workspaceName, slug);
  return { name, email, slug };
}

/** Workspace settings, from the workspace menu at the top of the sidebar. */
export async function openWorkspaceSettings(page: Page) {
  await page.getByRole("button", { name: /^Workspace: / }).click();
  await page.getByRole("link", { name: "Workspace settings" }).click();
}

/** The sidebar's "Create project"; lands on the new project's (empty) issue list. */
export async function createProject(page: Page, javaScriptEnabled: boolean, slug: string, name: string, key: string, description = "") {
  await open(page, javaScriptEnabled, `/w/${slug}`);
  await page.getByRole("navigation", { name: "Projects" }).getByRole("link", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create project" })).toBeVisible();
  await page.getByLabel("Project name", { exact: true }).fill(name);
  await page.getByLabel("Key", { exact: true }).fill(key);
  if (description) await page.getByLabel("Description", { exact: true }).fill(description);
  await page.getByRole("button", { name: "Create project" }).click();
  const upper = key.toUpperCase();
  await expect(page).toHaveURL(`/w/${slug}/p/${upper}/issues`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return `/w/${slug}/p/${upper}`;
}

/** A file as a test chooses it in a file input (Playwright's setInputFiles). */
export type ChosenFile = { name: string; mimeType: string; buffer: Buffer };

export type NewIssue = {
  title: string;
  description?: string;
  priority?: string;
  assignee?: string;
  dueDate?: string;
  labels?: string[];
  /** Chosen in the form's "Attach files". */
  files?: ChosenFile[];
};

/** "New issue" from the project's list, filled and submitted; lands on the issue's detail. */
export async function fileIssue(page: Page, javaScriptEnabled: boolean, projectBase: string, issue: NewIssue) {
  await open(page, javaScriptEnabled, `${projectBase}/issues`);
  // The project header's "New issue" (the first on the page).
  await page.getByRole("link", { name: "New issue" }).first().click();
  await expect(page).toHaveURL(`${projectBase}/issues/new`);
  await expect(page.getByRole("heading", { level: 2, name: "New issue" })).toBeVisible();
  await page.getByLabel("Title", { exact: true }).fill(issue.title);
  if (issue.description) await page.getByLabel("Description", { exact: true }).fill(issue.description);
  if (issue.priority) await page.getByLabel("Priority", { exact: true }).selectOption({ label: issue.priority });
  if (issue.assignee) await page.getByLabel("Assignee", { exact: true }).selectOption({ label: issue.assignee });
  if (issue.dueDate) await page.getByLabel("Due date", { exact: true }).fill(issue.dueDate);
  for (const label of issue.labels ?? []) await page.getByRole("checkbox", { name: label, exact: true }).check();
  if (issue.files) await page.getByLabel("Attach files").setInputFiles(issue.files);
  await page.getByRole("button", { name: "Create issue" }).click();
  await expect(page).toHaveURL(new RegExp(`${projectBase}/issues/\\d+$`));
  await expect(page.getByRole("article").getByRole("heading", { level: 2, name: issue.title })).toBeVisible();
  return page.url();
}

/** The parts of the issue page. */
export function issueDetail(page: Page) {
  const article = page.getByRole("article");
  return {
    article,
    /** The status menu's button in the properties panel: it shows the status. */
    status: article.getByRole("button", { name: "Status", exact: true }),
    /** "Edit" (named "Edit issue"): turns the title and description into the edit form. */
    editLink: article.getByRole("link", { name: "Edit issue" }),
    edit: article.getByRole("form", { name: "Edit issue" }),
    activity: page.getByRole("region", { name: "Activity" }),
    description: page.getByRole("region", { name: "Description" }),
    commentField: page.getByRole("region", { name: "Activity" }).getByRole("textbox", { name: "Comment", exact: true }),
    addComment: page.getByRole("button", { name: "Add comment" }),
  };
}

/** The value shown next to a term of the properties panel ("Priority", "Closed" …). */
export function fact(article: Locator, term: string) {
  return article.locator(`xpath=.//dt[normalize-space()="${term}"]/following-sibling::dd[1]`);
}

/** The menu button of a property ("Status", "Priority", "Assignee", "Labels", "Due date"), which shows its value. */
export function propertyButton(article: Locator, term: string) {
  return fact(article, term).getByRole("button", { name: term, exact: true });
}

/**
 * Changes a property through its menu: the button opens the popover (declaratively, so with or
 * without JavaScript), the choice is a submit button of the menu's form.
 */
export async function changeProperty(page: Page, javaScriptEnabled: boolean, term: "Status" | "Priority" | "Assignee", choice: string) {
  const article = issueDetail(page).article;
  return submitOnIssue(page, javaScriptEnabled, async () => {
    await propertyButton(article, term).click();
    await page.getByRole("form", { name: term }).getByRole("button", { name: choice, exact: true }).click();
  });
}

/** The menu (popover) that is open. */
export const openMenu = (page: Page) => page.locator("[popover]:popover-open");

/** Changes the issue's status through its menu. */
export const changeStatus = (page: Page, javaScriptEnabled: boolean, label: string) => changeProperty(page, javaScriptEnabled, "Status", label);

/** Toggles one label in the Labels menu (each one posts the issue's whole new set). */
export async function toggleLabel(page: Page, javaScriptEnabled: boolean, label: string) {
  const article = issueDetail(page).article;
  return submitOnIssue(page, javaScriptEnabled, async () => {
    await propertyButton(article, "Labels").click();
    await openMenu(page).getByRole("button", { name: label, exact: true }).click();
  });
}

/** Sets the due date through its menu ("Save"), or clears it ("Clear due date") when `date` is null. */
export async function setDueDate(page: Page, javaScriptEnabled: boolean, date: string | null) {
  const article = issueDetail(page).article;
  return submitOnIssue(page, javaScriptEnabled, async () => {
    await propertyButton(article, "Due date").click();
    if (date === null) {
      await openMenu(page).getByRole("button", { name: "Clear due date" }).click();
    } else {
      await openMenu(page).getByLabel("Date", { exact: true }).fill(date);
      await openMenu(page).getByRole("button", { name: "Save", exact: true }).click();
    }
  });
}

/** Opens the title and description form ("Edit": a link to `?edit=issue` without JavaScript). */
export async function openEditIssue(page: Page) {
  const detail = issueDetail(page);
  if (!(await detail.edit.isVisible())) await detail.editLink.click();
  await expect(detail.edit.getByRole("button", { name: "Save changes" })).toBeVisible();
  return detail.edit;
}

/** Asks to delete a comment and confirms (a dialog with JavaScript, a confirmation in the page without). */
export async function deleteComment(page: Page, javaScriptEnabled: boolean, comment: Locator) {
  await comment.getByRole("link", { name: "Delete comment" }).click();
  const question = page.getByRole(javaScriptEnabled ? "dialog" : "alertdialog", { name: "Delete this comment?" });
  await expect(question).toBeVisible();
  return submitOnIssue(page, javaScriptEnabled, () => question.getByRole("button", { name: "Delete comment" }).click());
}

/** With JavaScript: waits until React Router has no navigation, revalidation or fetcher in flight. */
export async function waitForRouterIdle(page: Page) {
  await page.waitForFunction(() => {
    type State = { navigation: { state: string }; revalidation: string; fetchers: Map<string, { state: string }> };
    const state = (window as { __reactRouterDataRouter?: { state: State } }).__reactRouterDataRouter?.state;
    return state !== undefined && state.navigation.state === "idle" && state.revalidation === "idle" && [...state.fetchers.values()].every((f) => f.state === "idle");
  });
}

/**
 * Submits one of the issue detail's forms (`submit` clicks or selects) and waits until the answer
 * is on screen: the next page load without JavaScript; with it, the POST and whatever React Router
 * does after it. Returns the POST's response. A save keeps the page on the issue's own URL (with
 * JavaScript the action is reached at `/issues/N.data`, and its redirect must not lead there).
 */
export async function submitOnIssue(page: Page, javaScriptEnabled: boolean, submit: () => Promise<unknown>) {
  const before = new URL(page.url());
  const posted = nextPost(page, before.pathname);
  const loaded = javaScriptEnabled ? undefined : page.waitForEvent("load");
  await submit();
  const response = await posted;
  if (loaded) await loaded;
  else await waitForRouterIdle(page);
  const after = new URL(page.url());
  expect(pageOf(after), `the URL after a ${response.status()} answer to a save on ${before.pathname}`).toBe(pageOf(before));
  return response;
}

/** A URL without what only opens something on the page (the edit form, a confirmation), which an answer leaves. */
function pageOf(url: URL) {
  const params = new URLSearchParams(url.search);
  params.delete("edit");
  params.delete("confirm");
  return `${url.pathname}${params.size ? `?${params}` : ""}`;
}
