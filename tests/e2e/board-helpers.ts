import type { Browser, Locator, Page } from "@playwright/test";
import { goodPassword } from "./accounts-helpers";
import { expect, waitForHydration } from "./fixtures";

export type FiledIssue = {
  title: string;
  description?: string;
  status?: string;
  priority?: string;
  assigneeId?: number | string;
  labelIds?: (number | string)[];
  dueDate?: string;
};

/**
 * Files issues over HTTP with the "New issue" form's fields (docs/product.md, "Driving it without a browser"), as a script would:
 * quicker than the screen, which issues.spec.ts covers. The page's cookies sign the requests.
 */
export async function fileIssuesByPost(page: Page, projectBase: string, issues: FiledIssue[]) {
  for (const issue of issues) {
    const form = new URLSearchParams({
      title: issue.title,
      description: issue.description ?? "",
      status: issue.status ?? "todo",
      priority: issue.priority ?? "none",
      assigneeId: String(issue.assigneeId ?? ""),
      dueDate: issue.dueDate ?? "",
    });
    for (const id of issue.labelIds ?? []) form.append("labelIds", String(id));
    const response = await page.request.post(`${projectBase}/issues/new`, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: form.toString(),
      maxRedirects: 0,
    });
    expect([302, 303], `filing "${issue.title}": ${response.status()}`).toContain(response.status());
  }
}

/** The value of the option named `label` of a select on the page at `path` (e.g. a member's id in "Assignee"). */
export async function optionValue(page: Page, path: string, selectLabel: string, label: string): Promise<string> {
  const html = await (await page.request.get(path)).text();
  const select = new RegExp(`<select[^>]*>[\\s\\S]*?</select>`, "g");
  for (const match of html.matchAll(select)) {
    const option = new RegExp(`<option[^>]*value="([^"]*)"[^>]*>${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</option>`).exec(match[0]);
    if (option) return option[1]!;
  }
  throw new Error(`no option "${label}" of "${selectLabel}" on ${path}`);
}

/** A board column: the <section> named by its status heading (whose name ends with the count). */
export function boardColumn(page: Page, status: string): Locator {
  return page.getByRole("region", { name: new RegExp(`^${status} \\d+$`) });
}

/** The keys of a column's cards, top to bottom (each card is an <li id="card-WEB-3">, where a move without JavaScript comes back to). */
export async function columnKeys(page: Page, status: string): Promise<string[]> {
  return boardColumn(page, status)
    .getByRole("listitem")
    .evaluateAll((items) => items.map((item) => item.id.replace(/^card-/, "")));
}

/** Waits until a column shows exactly these keys, in this order. */
export async function expectColumn(page: Page, status: string, keys: string[], options: { soft?: boolean } = {}) {
  const check = options.soft ? expect.configure({ soft: true }) : expect;
  await check.poll(() => columnKeys(page, status), { message: `the cards of ${status}` }).toEqual(keys);
  await check(boardColumn(page, status).getByRole("heading", { level: 2 })).toHaveText(`${status} ${keys.length}`);
}

/** The card of an issue, anywhere on the board. */
export function card(page: Page, key: string): Locator {
  return page.getByRole("listitem").filter({ has: page.getByText(key, { exact: true }) });
}

/**
 * Opens a card's "⋯" menu: with JavaScript a popover; without it, the board again with that menu
 * open (`?menu=`). Its choices are then the page's only "Move …" buttons.
 */
export async function openCardMenu(page: Page, javaScriptEnabled: boolean, key: string) {
  await page.getByRole("link", { name: `Move ${key}`, exact: true }).click();
  if (!javaScriptEnabled) await expect(page).toHaveURL(/[?&]menu=card-\d+/);
  await expect(page.getByRole("form", { name: `Move ${key} to`, exact: true })).toBeVisible();
}

/** An address without the fragment that a move without JavaScript comes back to (`#card-WEB-3`). */
export const withoutFragment = (url: string) => {
  const { pathname, search } = new URL(url);
  return pathname + search;
};

/**
 * Drags with the mouse, as dnd-kit's PointerSensor wants it: press on `from`, move past its 5 px
 * activation distance, then in steps to the middle of `to`, and release.
 */
export async function dragWithMouse(page: Page, from: Locator, to: Locator, options: { offsetY?: number } = {}) {
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error("nothing to drag from or to");
  const x0 = start.x + start.width / 2;
  const y0 = start.y + start.height / 2;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x0 + 10, y0 + 10, { steps: 5 });
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2 + (options.offsetY ?? 0), { steps: 20 });
  // One more small move, so that the collision detection settles on the target.
  await page.mouse.move(end.x + end.width / 2 + 1, end.y + end.height / 2 + (options.offsetY ?? 0) + 1, { steps: 2 });
  await page.mouse.up();
}

/** The text of dnd-kit's live region (role="status", aria-live) of the board's DndContext. */
export function dndLiveRegion(page: Page): Locator {
  return page.locator("[id^='DndLiveRegion-']");
}

/** Settings → Members → "Invite member" as a member; returns the invitation link. */
export async function inviteMember(page: Page, javaScriptEnabled: boolean, slug: string, email: string): Promise<string> {
  await page.goto(`/w/${slug}/settings/members`);
  await waitForHydration(page, javaScriptEnabled);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption({ label: "Member" });
  await page.getByRole("button", { name: "Invite member" }).click();
  await expect(page.getByRole("status")).toContainText(`Invitation created for ${email}`);
  return page.getByLabel("Invitation link").inputValue();
}

/** The invitee, in a browser of their own: opens the link and creates an account through it. */
export async function joinByInvitation(browser: Browser, javaScriptEnabled: boolean, baseURL: string, link: string, name: string) {
  const context = await browser.newContext({ javaScriptEnabled, baseURL });
  const page = await context.newPage();
  await page.goto(link);
  await waitForHydration(page, javaScriptEnabled);
  await page.getByRole("main").getByRole("link", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create account" })).toBeVisible();
  await waitForHydration(page, javaScriptEnabled);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Password", { exact: true }).fill(goodPassword);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "My issues" })).toBeVisible();
  return { context, page };
}

/** Workspace settings → Labels → "Create label". */
export async function createLabelInSettings(page: Page, javaScriptEnabled: boolean, slug: string, name: string, color: string) {
  await page.goto(`/w/${slug}/settings/labels`);
  await waitForHydration(page, javaScriptEnabled);
  const form = page.getByRole("form", { name: "Create label" });
  await form.getByLabel("Label name", { exact: true }).fill(name);
  await form.getByLabel("Color", { exact: true }).selectOption({ label: color });
  await form.getByRole("button", { name: "Create label" }).click();
  await expect(page.getByRole("status")).toHaveText("Label created.");
  await expect(page.getByRole("listitem", { name, exact: true })).toBeVisible();
}
