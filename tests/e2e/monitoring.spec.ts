import type { Page, Request } from "@playwright/test";
import type { DatabaseHandle } from "~/db/database.server";
import { expect, runCairn, test, waitForHydration } from "./fixtures";
import { hidePage, isBeacon, waitForReporting } from "./monitoring-helpers";

/**
 * Browser monitoring (docs/product.md, Monitoring): with JavaScript, errors and web vitals go to POST /monitoring with
 * navigator.sendBeacon once the page is hidden; without it, nothing is sent.
 */

function monitoringEvents({ db }: DatabaseHandle, kind: "client_error" | "web_vital") {
  return db.selectFrom("monitoring_events").selectAll().where("kind", "=", kind).orderBy("id").execute();
}

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "reporting needs JavaScript");

  test("web vitals reach the server when the page is hidden, tagged with the route, no query string", async ({ browser }) => {
    await runCairn(async ({ server, database }) => {
      const page = await browser.newPage({ baseURL: server.url });
      const beacons: Request[] = [];
      page.on("request", (request) => isBeacon(request) && beacons.push(request));
      await page.goto("/?utm_source=secret");
      await waitForHydration(page, true);
      await waitForReporting(page);

      // An interaction, then a client-side navigation: neither sends anything yet.
      await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
      await expect(page).toHaveURL("/login");
      await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
      expect(beacons).toEqual([]);

      const answered = page.waitForResponse((response) => isBeacon(response.request()));
      await hidePage(page);
      const response = await answered;
      expect(response.status()).toBe(204);
      // A Blob of JSON, same-origin (the host refuses cross-site POSTs).
      expect(response.request().headers()["content-type"]).toBe("application/json");

      const handle = database.open();
      try {
        await expect.poll(async () => (await monitoringEvents(handle, "web_vital")).map((row) => row.name)).toEqual(
          expect.arrayContaining(["TTFB", "FCP", "LCP", "CLS"]),
        );
        const vitals = await monitoringEvents(handle, "web_vital");
        for (const vital of vitals) {
          // Measured over the page load: the route the page loaded on, its path only.
          expect(vital).toMatchObject({ route: "/", url: "/", count: 1, digest: null });
          expect(["LCP", "INP", "CLS", "FCP", "TTFB"]).toContain(vital.name);
          expect(["good", "needs-improvement", "poor"]).toContain(vital.rating);
          expect(vital.value).toBeGreaterThanOrEqual(0);
          expect(vital.user_agent).toMatch(/Chrome/);
        }
      } finally {
        await handle.db.destroy();
        await page.close();
      }
    });
  });

  test("web vitals of a page with parameters are sent under its route pattern, however early they are measured", async ({ page }) => {
    // What the page itself sends (the server maps routes too, so its rows would not tell).
    await page.addInitScript(() => {
      const sent: Promise<string>[] = [];
      (window as { sentBeacons?: Promise<string>[] }).sentBeacons = sent;
      const sendBeacon = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => {
        sent.push(data instanceof Blob ? data.text() : Promise.resolve(String(data)));
        return sendBeacon(url, data);
      };
    });
    // web-vitals may report TTFB and FCP before the router exists; the pattern is named when sending.
    await page.goto("/invitations/no-such-token");
    await waitForHydration(page, true);
    const answered = page.waitForResponse((response) => isBeacon(response.request()));
    await hidePage(page);
    expect((await answered).status()).toBe(204);
    const bodies = await page.evaluate(() => Promise.all((window as { sentBeacons?: Promise<string>[] }).sentBeacons!));
    const events = bodies.flatMap((body) => (JSON.parse(body) as { events: { kind: string; name: string; route: string; url: string }[] }).events);
    const vitals = events.filter((event) => event.kind === "web_vital");
    expect(vitals.map((event) => event.name)).toContain("TTFB");
    for (const vital of vitals) expect(vital).toMatchObject({ route: "/invitations/:token", url: "/invitations/no-such-token" });
  });

  test("a thrown error and an unhandled rejection are reported, grouped by message and route", async ({ browser }) => {
    await runCairn(async ({ server, database }) => {
      const page = await browser.newPage({ baseURL: server.url });
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await page.goto("/");
      await waitForHydration(page, true);
      await page.getByRole("main").getByRole("link", { name: "Create account" }).click();
      await expect(page).toHaveURL("/signup");

      for (let i = 0; i < 2; i++) {
        await page.evaluate(() => {
          setTimeout(() => {
            throw new Error("boom from the test");
          });
        });
      }
      await page.evaluate(() => {
        void Promise.reject(new RangeError("rejected in the test"));
      });
      await expect.poll(() => pageErrors.length).toBe(3);

      const answered = page.waitForResponse((response) => isBeacon(response.request()));
      await hidePage(page);
      expect((await answered).status()).toBe(204);

      const handle = database.open();
      try {
        await expect.poll(async () => (await monitoringEvents(handle, "client_error")).length).toBe(2);
        const [thrown, rejected] = await monitoringEvents(handle, "client_error");
        expect(thrown).toMatchObject({
          message: "Error: boom from the test",
          route: "/signup",
          url: "/signup",
          count: 2,
        });
        expect(thrown!.digest).toMatch(/^[0-9A-F]{8}$/);
        expect(thrown!.stack).toContain("boom from the test");
        expect(rejected).toMatchObject({ message: "Unhandled rejection: RangeError: rejected in the test", route: "/signup", count: 1 });
      } finally {
        await handle.db.destroy();
        await page.close();
      }
    });
  });

  test("an error boundary that rendered a browser error reports it once", async ({ browser }) => {
    await runCairn(async ({ server, database }) => {
      const page = await browser.newPage({ baseURL: server.url });
      // The sign-in screen's code, as a broken deployment might serve it: it throws as it renders.
      await page.route(/\/assets\/login-[\w-]+\.js$/, (route) =>
        route.fulfill({
          contentType: "text/javascript",
          body: 'export default function Login() { throw new Error("render failed in the test"); }',
        }),
      );
      await page.goto("/");
      await waitForHydration(page, true);
      await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
      await expect(page.getByRole("alert")).toContainText("Application error: something went wrong on our side.");
      await expect(page.getByRole("alert")).not.toContainText("render failed");

      const answered = page.waitForResponse((response) => isBeacon(response.request()));
      await hidePage(page);
      expect((await answered).status()).toBe(204);
      const handle = database.open();
      try {
        await expect
          .poll(async () => (await monitoringEvents(handle, "client_error")).map((row) => [row.message, row.route, row.url, row.count]))
          .toEqual([["Error: render failed in the test", "/login", "/login", 1]]);
      } finally {
        await handle.db.destroy();
        await page.close();
      }
    });
  });

  test("closing the page sends what is queued", async ({ browser }) => {
    await runCairn(async ({ server, database }) => {
      // A context that outlives the page: closing a page's own context would cancel its beacon.
      const context = await browser.newContext({ baseURL: server.url });
      const page = await context.newPage();
      await page.goto("/login");
      await waitForHydration(page, true);
      await waitForReporting(page);
      await page.getByLabel("Email").fill("ada@example.com");
      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error("boom before closing");
        });
      });
      await page.waitForTimeout(100);
      await page.close({ runBeforeUnload: true });

      const handle = database.open();
      try {
        await expect
          .poll(async () => (await monitoringEvents(handle, "client_error")).map((row) => [row.message, row.route]))
          .toEqual([["Error: boom before closing", "/login"]]);
      } finally {
        await handle.db.destroy();
        await context.close();
      }
    });
  });
});

test.describe("without JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the browser runs no script");

  test("no script reports anything: web-vitals is never fetched and no beacon is sent", async ({ browser }) => {
    await runCairn(async ({ server, database }) => {
      const page = await browser.newPage({ baseURL: server.url, javaScriptEnabled: false });
      const requests: string[] = [];
      page.on("request", (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
      await page.goto("/");
      await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
      await expect(page).toHaveURL("/login");

      // No script on the page is about reporting: no inline beacon code, no tag for web-vitals (it
      // is imported by the running app only). The small reporter is one of the entry's chunks, which
      // Chromium may preload but, without JavaScript, never runs.
      const scripts = await page.locator("script").evaluateAll((elements) =>
        elements.map((element) => ({ src: element.getAttribute("src") ?? "", text: element.textContent ?? "" })),
      );
      for (const script of scripts) {
        expect(script.src).not.toMatch(/web-vitals|monitoring/);
        expect(script.text).not.toMatch(/sendBeacon|\/monitoring|web-vitals/);
      }
      const preloads = await page.locator('link[rel="modulepreload"]').evaluateAll((links) => links.map((l) => l.getAttribute("href") ?? ""));
      for (const href of preloads) expect(href).not.toMatch(/web-vitals|monitoring/);

      await hidePageWithoutScript(page);
      await page.close({ runBeforeUnload: true });
      expect(requests.filter((r) => r.startsWith("POST /monitoring"))).toEqual([]);
      expect(requests.filter((r) => /web-vitals/.test(r))).toEqual([]);

      const handle = database.open();
      try {
        expect(await handle.db.selectFrom("monitoring_events").selectAll().execute()).toEqual([]);
      } finally {
        await handle.db.destroy();
      }
    });
  });
});

/** Without JavaScript the page cannot be scripted; going to another document is what is left. */
async function hidePageWithoutScript(page: Page) {
  await page.goto("about:blank");
}
