import type { TestInfo } from "@playwright/test";
import { goodPassword, openAccountMenu, signUp, uniqueEmail } from "./accounts-helpers";
import { describeFindings, scan } from "./axe";
import { expect, runCairn, test, waitForHydration } from "./fixtures";
import { hidePage, isBeacon, waitForReporting } from "./monitoring-helpers";

/**
 * /admin/monitoring (docs/product.md, Screens): what the instance admin — the first account of a fresh instance —
 * sees of server errors, browser errors and web vitals. Each test runs its own Cairn for that.
 */

const unexpected = "Application error: something went wrong on our side.";

const operator = (testInfo: TestInfo) => ({ name: "Olga Operator", email: uniqueEmail(testInfo, "olga"), password: goodPassword });

test("“Send a test error” shows a digest that the admin screen finds again", async ({ browser, javaScriptEnabled }, testInfo) => {
  await runCairn(async ({ server }) => {
    const page = await browser.newPage({ baseURL: server.url, javaScriptEnabled });
    await signUp(page, javaScriptEnabled, operator(testInfo));
    await expect(page.getByRole("heading", { level: 1, name: "Create workspace" })).toBeVisible();
    await waitForHydration(page, javaScriptEnabled);

    await (await openAccountMenu(page)).getByRole("link", { name: "Admin", exact: true }).click();
    await expect(page).toHaveURL("/admin/monitoring");
    await expect(page.getByRole("region", { name: "Server errors" })).toContainText("No unexpected server error has been recorded.");

    await page.getByRole("button", { name: "Send a test error" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toContainText(unexpected);
    await expect(alert).toContainText(/Digest: [0-9A-F]{8}/);
    await expect(page.locator("body")).not.toContainText("Test error sent");
    const digest = /Digest: ([0-9A-F]{8})/.exec(await alert.innerText())![1]!;
    // The server logged the whole error under the digest the page shows.
    expect(server.logs.find((line) => line.digest === digest)).toMatchObject({ method: "POST", route: "routes/admin/monitoring/index" });

    await alert.getByRole("link", { name: "See this error" }).click();
    await expect(page).toHaveURL(`/admin/monitoring/${digest}`);
    await expect(page.getByRole("heading", { level: 2 })).toHaveText("MonitoringTestError: Test error sent from /admin/monitoring to check the digest path.");
    const facts = page.getByRole("article");
    await expect(facts).toContainText("Olga Operator");
    await expect(facts).toContainText(digest);
    await expect(facts.locator("pre")).toContainText("at action");

    await page.getByRole("link", { name: "← All errors" }).click();
    const serverErrors = page.getByRole("region", { name: "Server errors" });
    const row = serverErrors.getByRole("row").filter({ has: page.getByRole("link", { name: digest }) });
    await expect(row).toContainText("MonitoringTestError");
    await expect(row.getByRole("cell").nth(3)).toHaveText("1");

    // The lookup box, as an operator types a digest from a screenshot.
    const lookup = page.getByRole("search", { name: "Look up a digest" });
    await lookup.getByLabel("Digest").fill(digest.toLowerCase());
    await lookup.getByRole("button", { name: "Look up" }).click();
    await expect(page).toHaveURL(`/admin/monitoring/${digest}`);
    await page.goto("/admin/monitoring");
    await lookup.getByLabel("Digest").fill("not-a-digest");
    await lookup.getByRole("button", { name: "Look up" }).click();
    await expect(page.getByRole("alert")).toHaveText("A digest is 8 characters: digits 0–9 and letters A–F.");
    await page.close();
  });
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "browsers report only with JavaScript");

  test("a page's web vitals and a thrown error show on the admin screen, charted and grouped", async ({ browser }, testInfo) => {
    await runCairn(async ({ server }) => {
      // A context of its own (axe asks for one), shared by the user's tab and the admin's.
      const context = await browser.newContext({ baseURL: server.url });
      const page = await context.newPage();
      await signUp(page, true, operator(testInfo));
      await expect(page.getByRole("heading", { level: 1, name: "Create workspace" })).toBeVisible();

      // A fresh page load of /w/new, an error thrown twice on it, then the user leaves the tab.
      await page.goto("/w/new");
      await waitForHydration(page, true);
      await waitForReporting(page);
      await page.getByLabel("Workspace name").click();
      for (let i = 0; i < 2; i++) {
        await page.evaluate(() => {
          setTimeout(() => {
            throw new Error("boom on the workspace form");
          });
        });
      }
      await page.waitForTimeout(100);
      const answered = page.waitForResponse((response) => isBeacon(response.request()));
      await hidePage(page);
      expect((await answered).status()).toBe(204);

      const admin = await context.newPage();
      await admin.goto("/admin/monitoring");
      const browserErrors = admin.getByRole("region", { name: "Browser errors" });
      const errorRow = browserErrors.getByRole("row").filter({ hasText: "Error: boom on the workspace form" });
      await expect(errorRow).toContainText("/w/new");
      await expect(errorRow.getByRole("cell").nth(3)).toHaveText("2");

      const vitals = admin.getByRole("region", { name: "Web vitals" });
      const routeRow = vitals.getByRole("row").filter({ has: admin.getByRole("rowheader", { name: "/w/new" }) });
      for (const name of ["LCP", "FCP", "TTFB"]) {
        const column = ["LCP", "INP", "CLS", "FCP", "TTFB"].indexOf(name);
        await expect(routeRow.getByRole("cell").nth(column)).toHaveText(/^[\d.,]+ m?s(Good|Needs improvement|Poor)$/);
      }
      // The charts are SVG from the server: one point for today on each measured vital.
      const ttfbChart = vitals.getByRole("img", { name: "TTFB p75 by day" });
      await expect(ttfbChart.locator("circle")).toHaveCount(1);
      await expect(vitals.getByText(/^Latest p75 .* 1 of 30 days with samples\.$/).first()).toBeVisible();

      // One route's charts: /w/new is offered, and picked through the URL.
      await vitals.getByLabel("Route").selectOption("/w/new");
      await vitals.getByRole("button", { name: "Show" }).click();
      await expect(admin).toHaveURL("/admin/monitoring?route=%2Fw%2Fnew");
      await expect(vitals.getByRole("img", { name: "LCP p75 by day" }).locator("circle")).toHaveCount(1);

      for (const colorScheme of ["light", "dark"] as const) {
        await admin.emulateMedia({ colorScheme });
        const found = await scan(admin, `Admin monitoring (${colorScheme})`);
        expect(found, describeFindings(found)).toEqual([]);
      }
      await context.close();
    });
  });
});
