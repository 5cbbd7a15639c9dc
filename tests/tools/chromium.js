// How the repository's scripts launch a browser: Debian's Chromium, never a downloaded one, with the
// flags that keep it off the network it cannot reach. The same as tests/playwright.config.ts's.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};
