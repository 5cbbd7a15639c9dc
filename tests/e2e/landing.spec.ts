import { expect, test, waitForHydration } from "./fixtures";

test("the landing page says what Cairn is, rendered by the server", async ({ page, javaScriptEnabled, consoleErrors }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await waitForHydration(page, javaScriptEnabled);

  await expect(page.getByRole("heading", { level: 1, name: "Issue tracking for teams that ship." })).toBeVisible();
  const main = page.getByRole("main");
  await expect(main.getByRole("link", { name: "Create account" })).toBeVisible();
  await expect(main.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Cairn" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText("self-hosted issue tracking");
  // Tailwind's stylesheet is applied, not just linked.
  const headingSize = await page.getByRole("heading", { level: 1 }).evaluate((h) => getComputedStyle(h).fontSize);
  expect(parseFloat(headingSize)).toBeGreaterThanOrEqual(30);
  expect(consoleErrors).toEqual([]);
});

test("the page follows the system's dark mode", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  // Tailwind's colours are oklch(): let a canvas turn the computed colour into RGB.
  const [r, g, b] = await page.locator("body").evaluate((body) => {
    const context = document.createElement("canvas").getContext("2d")!;
    context.fillStyle = getComputedStyle(body).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    return Array.from(context.getImageData(0, 0, 1, 1).data);
  });
  expect(r! + g! + b!).toBeLessThan(100);
});

test("an unknown URL shows a 404 page inside the layout, with a way back", async ({ page, javaScriptEnabled }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await waitForHydration(page, javaScriptEnabled);
  await expect(page.getByRole("alert")).toContainText("Page not found.");
  await expect(page.getByRole("banner").getByRole("link", { name: "Cairn" })).toBeVisible();

  await page.getByRole("link", { name: "Go to the start page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Issue tracking for teams that ship." })).toBeVisible();
  await expect(page).toHaveURL("/");
});
