import { defineConfig } from "@playwright/test";

// Debian's Chromium, never a downloaded browser. The flags keep it off the network it cannot reach.
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

/**
 * The specs whose checks read colour: axe's contrast rules on the screens. design-shell and
 * design-board check only layout, which the color scheme does not change.
 */
const colourSpecs = /\/(design-(issue|list|settings)|accessibility)\.spec\.ts$/;

/**
 * Every journey runs with JavaScript and as a browser without it. The dark color scheme changes
 * only colours, so the dark projects run the specs that check colours, not every journey again.
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
    { name: "js-on-dark", testMatch: colourSpecs, use: { javaScriptEnabled: true, colorScheme: "dark" } },
    { name: "js-off-dark", testMatch: colourSpecs, use: { javaScriptEnabled: false, colorScheme: "dark" } },
  ],
});
