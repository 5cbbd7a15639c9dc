import { sql } from "kysely";
import { expect, runCairn, test, waitForHydration } from "./fixtures";

const unexpected = "Application error: something went wrong on our side.";

// The landing page's loader reads the users table: renaming it makes a real unexpected error.
test.describe("an unexpected server error", () => {
  test("shows the generic message and the digest, never the error itself", async ({ browser, javaScriptEnabled }) => {
    await runCairn(async ({ server, database }) => {
      const page = await browser.newPage({ baseURL: server.url, javaScriptEnabled });
      await page.goto("/no/such/page");
      await waitForHydration(page, javaScriptEnabled);

      const { db } = database.open();
      await sql`alter table users rename to users_gone`.execute(db);
      await db.destroy();

      // With JavaScript this is a client-side navigation (a data request); without, a document request.
      const dataRequest = javaScriptEnabled ? page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(".data")) : null;
      await page.getByRole("link", { name: "Go to the start page" }).click();
      if (dataRequest) expect((await dataRequest).status()).toBe(500);
      const alert = page.getByRole("alert");
      await expect(alert).toContainText(unexpected);
      await expect(alert).toContainText(/Digest: [0-9A-F]{8}/);
      const text = await page.locator("body").innerText();
      expect(text).not.toMatch(/no such table|SqliteError|users/i);

      // The digest on screen is the one the server logged with the full error.
      const digest = /Digest: ([0-9A-F]{8})/.exec(await alert.innerText())![1];
      const logged = server.logs.find((line) => line.digest === digest);
      expect((logged?.err as { message?: string })?.message).toContain("no such table: users");

      // Reloading the page is a document request: same message, same digest.
      await page.reload();
      await expect(page.getByRole("alert")).toContainText(`Digest: ${digest}`);
      await page.close();
    });
  });
});
