import type { Page, Request } from "@playwright/test";

/** What the browser does when the user switches tabs or minimises: the page becomes hidden. */
export async function hidePage(page: Page) {
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  });
}

export const isBeacon = (request: Request) => new URL(request.url()).pathname === "/monitoring" && request.method() === "POST";

/**
 * Waits until the reporter, loaded after the page, measures web vitals: web-vitals ends LCP at the
 * first trusted click or key press it sees, so a click before then leaves LCP unreported.
 */
export async function waitForReporting(page: Page) {
  await page.waitForFunction((mark) => performance.getEntriesByName(mark, "mark").length > 0, "cairn:reporting-ready");
}
