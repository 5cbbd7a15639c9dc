import { chromium } from "@playwright/test";
const U = "http://127.0.0.1:4791";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--disable-gpu"] });
for (const [w, h, scheme, tag] of [[1440, 900, "light", "d"], [390, 844, "dark", "p"]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: scheme });
  await ctx.request.post(`${U}/login`, { form: { email: "ada@demo.example.com", password: "cairn-demo-password" }, headers: { Origin: U }, maxRedirects: 0 });
  const page = await ctx.newPage();
  await page.goto(U + "/w/demo/p/WEB/issues/74");
  await page.waitForFunction(() => window.__reactRouterRouteModules !== undefined);
  await page.getByRole("article").getByRole("button", { name: "Priority", exact: true }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/dissue/menu-${tag}.png` });
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "Edit issue" }).click();
  await page.getByRole("button", { name: "Preview" }).click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: `/tmp/dissue/edit-${tag}.png` });
  await page.goto(U + "/w/demo/p/WEB/issues/74");
  await page.getByRole("region", { name: "Activity" }).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.screenshot({ path: `/tmp/dissue/activity-${tag}.png` });
  await page.goto(U + "/w/demo/p/WEB/issues/new");
  await page.screenshot({ path: `/tmp/dissue/new-${tag}.png` });
}
await browser.close();
