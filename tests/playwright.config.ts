import { defineConfig } from "@playwright/test";

// Debian's Chromium, never a downloaded browser. The flags keep it off the network it cannot reach.
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

/** The specs about how screens look (and read to assistive technology). */
const lookSpecs = /\/(design-[a-z-]+|accessibility)\.spec\.ts$/;

/**
 * Every journey runs with JavaScript and as a browser without it. The dark color scheme changes
 * only the look, so the dark projects run the specs about the look (design-*, accessibility: the
 * screens, their contrast and their axe checks), not every journey again.
 */
export default defineConfig({
  testDir: "./e2e",
  outputDir: "../test-results",
  timeout: 30_000,
  // Sign-ups hash passwords with scrypt; on a busy 2-core machine a page can take a few seconds.
  expect: { timeout: 10_000 },
  workers: 2,
  forbidOnly: true,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: chromium,
    trace: "retain-on-failure",
  },
  projects: [
    { name: "js-on", use: { javaScriptEnabled: true, colorScheme: "light" } },
    { name: "js-off", use: { javaScriptEnabled: false, colorScheme: "light" } },
    { name: "js-on-dark", testMatch: lookSpecs, use: { javaScriptEnabled: true, colorScheme: "dark" } },
    { name: "js-off-dark", testMatch: lookSpecs, use: { javaScriptEnabled: false, colorScheme: "dark" } },
  ],
});
