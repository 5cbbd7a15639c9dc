import { test as base, expect, type Locator, type Page, type Request } from "@playwright/test";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

type CairnInstance = { server: RunningServer; database: TestDatabase };

/**
 * Starts a fresh Cairn (production build, its own SQLite database, `env` added to its environment)
 * and stops it afterwards. It trusts the test as its proxy, so that each test can come from an
 * address of its own.
 */
async function runCairn(use: (instance: CairnInstance) => Promise<void>, env: Record<string, string> = {}) {
  const database = await createTestDatabase("sqlite");
  const server = await startServer({ ...database.env, TRUST_PROXY: "loopback", ...env });
  try {
    await use({ server, database });
  } finally {
    await server.stop();
    await database.drop();
  }
}

let clientAddresses = 0;
const nextClientAddress = () => {
  const n = clientAddresses++;
  return `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
};

export const test = base.extend<
  { baseURL: string; consoleErrors: string[] },
  { cairn: CairnInstance }
>({
  cairn: [async ({}, use) => runCairn(use), { scope: "worker" }],
  baseURL: async ({ cairn }, use) => use(cairn.server.url),
  // Each test is another person at another address: one worker's journeys sign up more people than
  // the per-address sign-up limit lets through from one address (docs/product.md, Limits).
  extraHTTPHeaders: async ({}, use) => use({ "X-Forwarded-For": nextClientAddress() }),
  /** Errors the page logged (CSP violations among them); a journey should end with none. */
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(errors);
  },
});

/** With JavaScript on, waits until React has hydrated the page, so clicks are handled client-side. */
export async function waitForHydration(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await page.waitForFunction(() => (window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined);
}

/** Every POST the page sends from now on (documents and `.data` requests alike): its path and body. */
export function recordPosts(page: Page) {
  const posts: { path: string; body: string }[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST") posts.push({ path: new URL(request.url()).pathname.replace(/\.data$/, ""), body: request.postData() ?? "" });
  });
  return posts;
}

/**
 * How far the page itself can scroll: down, and sideways — the page, or the content area beside the
 * sidebar (which scrolls on its own from 768 px, app-shell.tsx).
 */
export async function pageOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    const main = document.querySelector("main");
    return {
      down: root.scrollHeight - innerHeight,
      sideways: Math.max(root.scrollWidth - root.clientWidth, main ? main.scrollWidth - main.clientWidth : 0),
      scrollY: window.scrollY,
    };
  });
}

/**
 * Expects an element (an open menu) wholly on screen and on top: its box within the viewport, and
 * what is just inside each of its corners is the element itself — nothing covers or clips it.
 */
export async function expectWhollyVisible(element: Locator, what: string) {
  await expect(element, what).toBeVisible();
  const seen = await element.evaluate((target) => {
    const box = target.getBoundingClientRect();
    // Far enough inside to miss a rounded corner.
    const corners = [
      [box.left + 6, box.top + 6],
      [box.right - 6, box.top + 6],
      [box.left + 6, box.bottom - 6],
      [box.right - 6, box.bottom - 6],
    ] as const;
    return {
      box: { left: Math.round(box.left), top: Math.round(box.top), right: Math.round(box.right), bottom: Math.round(box.bottom) },
      viewport: { width: innerWidth, height: innerHeight },
      cornersHit: corners.map(([x, y]) => target.contains(document.elementFromPoint(x, y))),
    };
  });
  expect(seen.box.left, `${what}: its left edge`).toBeGreaterThanOrEqual(0);
  expect(seen.box.top, `${what}: its top edge`).toBeGreaterThanOrEqual(0);
  expect(seen.box.right, `${what}: its right edge`).toBeLessThanOrEqual(seen.viewport.width);
  expect(seen.box.bottom, `${what}: its bottom edge`).toBeLessThanOrEqual(seen.viewport.height);
  expect(seen.cornersHit, `${what}: its corners are not covered or clipped (${JSON.stringify(seen.box)})`).toEqual([true, true, true, true]);
}

export { expect, runCairn };
