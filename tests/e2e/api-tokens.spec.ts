import { expect, test } from "./fixtures";
import { open, signUpWithWorkspace } from "./issues-helpers";

test.describe("API tokens", () => {
  test.describe.configure({ timeout: 60_000 });

  test("a token is made, shown once, opens the API its reference describes, and is revoked", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Tina Token");
    await open(page, javaScriptEnabled, "/settings");
    await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "API tokens" }).click();
    await expect(page).toHaveURL("/settings/tokens");
    await expect(page.getByText("No tokens yet.")).toBeVisible();

    // A name is needed; what was chosen stays.
    await page.getByLabel("Scope", { exact: true }).selectOption({ label: "Write: read and change" });
    await page.getByRole("button", { name: "Make token" }).click();
    await expect(page.getByLabel("Token name", { exact: true })).toHaveAccessibleDescription(/Name the token/);
    await expect(page.getByLabel("Scope", { exact: true })).toHaveValue("write");

    await page.getByLabel("Token name", { exact: true }).fill("Deploy bot");
    await page.getByLabel("Expires after", { exact: true }).selectOption({ label: "30 days" });
    await page.getByRole("button", { name: "Make token" }).click();
    const shown = page.getByRole("textbox", { name: "Your new token" });
    await expect(shown).toHaveValue(/^cairn_pat_[0-9A-Za-z]{40}$/);
    const tokens = page.getByRole("region", { name: "Your tokens" });
    await expect(tokens.getByRole("listitem", { name: "Deploy bot" })).toContainText("Write");
    await expect(tokens.getByRole("listitem", { name: "Deploy bot" })).toContainText("never used");
    // Its expiry is a date to come ("expires Dec 24"), not a moment past ("just now").
    await expect(tokens.getByRole("listitem", { name: "Deploy bot" })).toContainText(/expires [A-Z][a-z]{2} \d{1,2}\b/);
    await expect(tokens.getByRole("listitem", { name: "Deploy bot" })).not.toContainText("expires just now");

    const token = await shown.inputValue();

    // The API takes it, as its reference says; the browser's own cookie does not.
    await page.getByRole("link", { name: "API reference" }).click();
    await expect(page).toHaveURL("/api");
    await expect(page).toHaveTitle("API reference · Cairn");
    await expect(page.getByRole("heading", { level: 1, name: "Cairn API" })).toBeVisible();
    await page.getByRole("navigation", { name: "Endpoints" }).getByRole("link", { name: "Update an issue" }).click();
    await expect(page.getByRole("region", { name: "Update an issue" }).getByRole("table", { name: /JSON body: IssuePatch/ })).toContainText("version");
    const me = await page.request.get("/api/v1/user", { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ name: "Tina Token" });
    expect((await page.request.get("/api/v1/user")).status()).toBe(401);

    // Shown once: a reload no longer has it.
    await open(page, javaScriptEnabled, "/settings/tokens");
    await expect(page.getByRole("textbox", { name: "Your new token" })).toHaveCount(0);
    await page.getByRole("button", { name: "Revoke Deploy bot" }).click();
    await expect(page.getByRole("status")).toContainText("Token revoked");
    await expect(page.getByText("No tokens yet.")).toBeVisible();
    expect((await page.request.get("/api/v1/user", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
    // The refused token's 400 is the only error the browser logged (the API calls are not the page's).
    expect(consoleErrors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });
});
