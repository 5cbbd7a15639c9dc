import { test as base, expect, type Page, type Request } from "@playwright/test";
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

export { expect, runCairn };
