import type { Page, TestInfo } from "@playwright/test";
import { expect, waitForHydration } from "./fixtures";

/** A password that passes every rule of docs/product.md, Rules for what is submitted. */
export const goodPassword = "correct horse battery staple";

let counter = 0;

/** A part of a name no other test (of this worker, this project, this run) uses. */
function uniquePart(testInfo: TestInfo, label: string): string {
  counter += 1;
  return `${label}-${testInfo.project.name}-w${testInfo.workerIndex}-${counter}-${Date.now().toString(36)}`;
}

/** An email no other test on the shared worker server has used. */
export function uniqueEmail(testInfo: TestInfo, label: string): string {
  return `${uniquePart(testInfo, label)}@example.com`;
}

/** A workspace slug (3–40 characters of a–z, 0–9 and single hyphens) no other test has used. */
export function uniqueSlug(testInfo: TestInfo, label: string): string {
  return uniquePart(testInfo, label).toLowerCase().slice(0, 40).replace(/-+$/, "");
}

export type Account = { name: string; email: string; password: string };

/** Fills and submits "Create account"; lands on "Create workspace" unless an invitation or redirect says otherwise. */
export async function signUp(page: Page, javaScriptEnabled: boolean, account: Account, path = "/signup") {
  await page.goto(path);
  await waitForHydration(page, javaScriptEnabled);
  await page.getByLabel("Name", { exact: true }).fill(account.name);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
}

/** Opens the sign-in form (optionally with a redirectTo) and submits it. */
export async function signIn(page: Page, javaScriptEnabled: boolean, email: string, password: string, path = "/login") {
  await page.goto(path);
  await waitForHydration(page, javaScriptEnabled);
  await fillSignIn(page, email, password);
}

/** Fills and submits the sign-in form already on screen. */
export async function fillSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * The signed-in account's menu (the sidebar's bottom, DESIGN.md §2), opened: "Settings", "Admin",
 * "Sign out". It is a popover its button opens with or without JavaScript.
 */
export async function openAccountMenu(page: Page) {
  await page.getByRole("button", { name: /^Account: / }).click();
  const menu = page.locator("#account-menu");
  await expect(menu).toBeVisible();
  return menu;
}

/** Signs out from the account menu (or the public pages' header) and waits for the flash message. */
export async function signOut(page: Page) {
  const inHeader = page.getByRole("banner").getByRole("button", { name: "Sign out" });
  if (await inHeader.isVisible()) await inHeader.click();
  else await (await openAccountMenu(page)).getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("status")).toHaveText("You are signed out.");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
}

/** Creates a workspace from /w/new and waits until its "My issues" page shows. */
export async function createWorkspace(page: Page, javaScriptEnabled: boolean, name: string, slug: string) {
  await page.goto("/w/new");
  await waitForHydration(page, javaScriptEnabled);
  await page.getByLabel("Workspace name", { exact: true }).fill(name);
  await page.getByLabel("Slug", { exact: true }).fill(slug);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page).toHaveURL(`/w/${slug}`);
  await expect(page.getByRole("heading", { level: 1, name: "My issues" })).toBeVisible();
}

/** The pathname and the redirectTo parameter of the page's URL. */
export function loginTarget(page: Page) {
  const url = new URL(page.url());
  return { pathname: url.pathname, redirectTo: url.searchParams.get("redirectTo") };
}
