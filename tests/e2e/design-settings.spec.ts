/**
 * DESIGN.md §5 on the settings, admin and public pages, at 1440×900 and 390×844: no sideways page
 * scroll, a `<title>` that names the page, every time in a `<time datetime>`, the page's heading
 * within the first 200 px on a phone, and no serious or critical axe finding; on a phone the
 * monitoring table scrolls sideways in its own box, its route names whole. And the confirmation
 * of destructive actions (DESIGN.md §1, principle 5): a `<dialog>` with JavaScript, a page without.
 * Each test runs its own Cairn, so that its first account is the instance admin (for /admin).
 */
import type { Browser, Page, TestInfo } from "@playwright/test";
import { createWorkspace, goodPassword, signOut, signUp, uniqueEmail } from "./accounts-helpers";
import { describeFindings, type Finding, scan } from "./axe";
import { createLabelInSettings, inviteMember, joinByInvitation } from "./board-helpers";
import { expect, pageOverflow, runCairn, test, waitForHydration } from "./fixtures";
import { createProject, open } from "./issues-helpers";

const viewports = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

async function measure(page: Page) {
  return page.evaluate(() => {
    const heading = document.querySelector("h1");
    const box = heading?.getBoundingClientRect();
    return {
      title: document.title,
      headingTop: box && box.width > 0 ? box.top + window.scrollY : null,
      times: document.querySelectorAll("time").length,
      timesWithoutDatetime: [...document.querySelectorAll("time")].filter((time) => !time.getAttribute("datetime")).length,
    };
  });
}

const colorSchemeOf = (testInfo: TestInfo) => testInfo.project.use.colorScheme ?? "light";

/** A page of its own for the test's instance, in the project's color scheme. */
async function newPage(browser: Browser, baseURL: string, javaScriptEnabled: boolean, testInfo: TestInfo) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled, colorScheme: colorSchemeOf(testInfo) });
  return context.newPage();
}

/**
 * axe is a script, which cannot run in a page without JavaScript: there it scans the same URL in a
 * mirror of the session whose scripts are all refused — the server's HTML, never hydrated.
 */
async function scanAsShown(page: Page, javaScriptEnabled: boolean, testInfo: TestInfo, name: string): Promise<Finding[]> {
  if (javaScriptEnabled) return scan(page, name);
  const context = page.context();
  const mirror = await context.browser()!.newContext({
    javaScriptEnabled: true,
    colorScheme: colorSchemeOf(testInfo),
    storageState: await context.storageState(),
    viewport: page.viewportSize(),
  });
  try {
    await mirror.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
    const mirrored = await mirror.newPage();
    await mirrored.goto(page.url());
    return await scan(mirrored, name);
  } finally {
    await mirror.close();
  }
}

/** Opens each page at both sizes and checks what DESIGN.md §5 asks; returns axe's findings. */
async function checkScreens(page: Page, javaScriptEnabled: boolean, testInfo: TestInfo, screens: [path: string, title: string, hasTimes?: boolean][]) {
  const findings: Finding[] = [];
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    for (const [path, title, hasTimes] of screens) {
      await open(page, javaScriptEnabled, path);
      const seen = await measure(page);
      const where = `${path} at ${size}, JavaScript ${javaScriptEnabled ? "on" : "off"}`;
      expect((await pageOverflow(page)).sideways, `sideways scroll on ${where}`).toBeLessThanOrEqual(0);
      expect(seen.title, `title of ${where}`).toBe(title);
      expect(seen.timesWithoutDatetime, `times without datetime on ${where}`).toBe(0);
      if (hasTimes) expect(seen.times, `times on ${where}`).toBeGreaterThan(0);
      if (size === "phone") {
        expect(seen.headingTop, `heading of ${where}`).not.toBeNull();
        expect(seen.headingTop!, `heading of ${where}`).toBeLessThan(200);
      }
      findings.push(...(await scanAsShown(page, javaScriptEnabled, testInfo, where)));
    }
  }
  // The journey goes on at the desktop's size, where the sidebar is in place.
  await page.setViewportSize(viewports.desktop);
  return findings;
}

test.describe("settings, admin and public pages", () => {
  // Every settings, admin and public page at two sizes, each scanned by axe: minutes on a busy 2-core machine.
  test.describe.configure({ timeout: 420_000 });

  test("fit 1440×900 and 390×844, name themselves, show times as <time datetime>, and pass axe", async ({ browser, javaScriptEnabled }, testInfo) => {
    await runCairn(async ({ server }) => {
      const page = await newPage(browser, server.url, javaScriptEnabled, testInfo);
      const findings = await checkScreens(page, javaScriptEnabled, testInfo, [
        ["/", "Cairn — issue tracking for teams"],
        ["/login", "Sign in · Cairn"],
        ["/signup", "Create account · Cairn"],
        ["/no/such/page", "Page not found · Cairn"],
      ]);

      await signUp(page, javaScriptEnabled, { name: "Olga Operator", email: uniqueEmail(testInfo, "olga"), password: goodPassword });
      await expect(page).toHaveURL("/w/new");
      await createWorkspace(page, javaScriptEnabled, "Design Co", "design-co");
      const project = await createProject(page, javaScriptEnabled, "design-co", "Website", "WEB");
      await createLabelInSettings(page, javaScriptEnabled, "design-co", "Bug", "Red");
      await open(page, javaScriptEnabled, "/w/design-co/settings/members");
      const invitee = uniqueEmail(testInfo, "ivy");
      await page.getByLabel("Email", { exact: true }).fill(invitee);
      await page.getByRole("button", { name: "Invite member" }).click();
      const link = await page.getByLabel("Invitation link").inputValue();
      // Web vitals of a route with a long pattern, as a browser reports them: the monitoring screen gets its table.
      const beacon = await page.request.post("/monitoring", {
        headers: { "Content-Type": "application/json" },
        data: { events: ["LCP", "INP", "CLS", "FCP", "TTFB"].map((name) => ({ kind: "web_vital", name, value: name === "CLS" ? 0.02 : 640, rating: "good", route: `${project}/issues/1`, url: `${project}/issues/1` })) },
      });
      expect(beacon.status()).toBe(204);

      findings.push(
        ...(await checkScreens(page, javaScriptEnabled, testInfo, [
          ["/w/design-co/settings", "Workspace settings · Design Co · Cairn"],
          ["/w/design-co/settings/members", "Members · Design Co · Cairn", true],
          ["/w/design-co/settings/members?confirm=revoke-1", "Members · Design Co · Cairn", true],
          ["/w/design-co/settings/labels", "Labels · Design Co · Cairn"],
          [`${project}/settings`, "Project settings · Website · Cairn"],
          [`${project}/settings?confirm=archive`, "Project settings · Website · Cairn"],
          ["/settings/password", "Password · Account settings · Cairn"],
          ["/settings/sessions", "Sessions · Account settings · Cairn", true],
          ["/admin/monitoring", "Monitoring · Cairn"],
        ])),
      );

      // A phone: the vitals table scrolls sideways in its own box (its route column staying), every
      // column reachable; a route breaks only after a slash, and nothing breaks mid-word.
      await page.setViewportSize(viewports.phone);
      await open(page, javaScriptEnabled, "/admin/monitoring");
      const table = page.getByRole("group", { name: "Web vitals, table" });
      const words = await table.evaluate((box) => {
        /** How many lines each piece of a cell's text (up to a slash or a space) is laid out on. */
        const linesOfPieces = (cell: Element) => {
          const nodes: Text[] = [];
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) nodes.push(walker.currentNode as Text);
          const chars = nodes.flatMap((node) => [...node.data].map((char, offset) => ({ node, offset, char })));
          const pieces: { text: string; lines: number }[] = [];
          let start = 0;
          for (let i = 0; i <= chars.length; i++) {
            if (i < chars.length && !/[/\s]/.test(chars[i]!.char)) continue;
            const end = Math.min(i + 1, chars.length);
            if (end > start) {
              const range = document.createRange();
              range.setStart(chars[start]!.node, chars[start]!.offset);
              range.setEnd(chars[end - 1]!.node, chars[end - 1]!.offset + 1);
              const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
              pieces.push({ text: range.toString(), lines: tops.size });
            }
            start = end;
          }
          return pieces;
        };
        return [...box.querySelectorAll("th")].flatMap((cell) => linesOfPieces(cell).filter((piece) => piece.lines > 1).map((piece) => piece.text));
      });
      expect(words, "route names and headers broken mid-word on a phone").toEqual([]);
      expect((await pageOverflow(page)).sideways, "the monitoring page scrolls sideways on a phone").toBeLessThanOrEqual(0);
      const route = page.getByRole("rowheader", { name: "/w/:workspace/p/:key/issues/:number" });
      await route.scrollIntoViewIfNeeded();
      await table.evaluate((box) => box.scrollTo({ left: box.scrollWidth }));
      await expect(route, "the route, beside the table's last column").toBeInViewport({ ratio: 1 });
      // The scroll offset is whole pixels while the table's width need not be: allow a pixel's fraction.
      await expect(table.getByRole("row").filter({ has: route }).getByRole("cell").last(), "the route's page loads").toBeInViewport({ ratio: 0.95 });
      await page.setViewportSize(viewports.desktop);

      await signOut(page);
      findings.push(...(await checkScreens(page, javaScriptEnabled, testInfo, [[new URL(link).pathname, "Join Design Co · Cairn"]])));
      // The invitee signs up without the link: where she lands, her invitation waits.
      await signUp(page, javaScriptEnabled, { name: "Ivy Invitee", email: invitee, password: goodPassword });
      await expect(page).toHaveURL("/w/new");
      await expect(page.getByRole("region", { name: "You are invited to a workspace" })).toContainText("Design Co");
      findings.push(
        ...(await checkScreens(page, javaScriptEnabled, testInfo, [
          ["/w/new", "Create workspace · Cairn"],
          ["/", "Your workspaces · Cairn"],
        ])),
      );
      expect(findings, describeFindings(findings)).toEqual([]);
      await page.context().close();
    });
  });

  test("a destructive action asks first: a dialog with JavaScript, a page without; Cancel changes nothing", async ({ browser, javaScriptEnabled }, testInfo) => {
    await runCairn(async ({ server }) => {
      const page = await newPage(browser, server.url, javaScriptEnabled, testInfo);
      await signUp(page, javaScriptEnabled, { name: "Carla Confirm", email: uniqueEmail(testInfo, "carla"), password: goodPassword });
      await expect(page).toHaveURL("/w/new");
      await createWorkspace(page, javaScriptEnabled, "Careful Co", "careful-co");
      await createLabelInSettings(page, javaScriptEnabled, "careful-co", "Doomed", "Red");
      await createLabelInSettings(page, javaScriptEnabled, "careful-co", "Kept", "Blue");

      // One line per label; its edit form and Delete open in place.
      const row = page.getByRole("listitem", { name: "Doomed", exact: true });
      await expect(row.getByLabel("Label name", { exact: true })).toBeHidden();
      await row.locator("summary").click();
      await expect(row.getByLabel("Label name", { exact: true })).toBeVisible();
      await expect(row.getByRole("button", { name: "Delete" })).toHaveCount(0);

      const ask = async () => {
        await row.getByRole("link", { name: "Delete label Doomed" }).click();
        const question = javaScriptEnabled ? page.getByRole("dialog", { name: "Delete the label Doomed?" }) : page.getByRole("alertdialog", { name: "Delete the label Doomed?" });
        await expect(question).toBeVisible();
        if (javaScriptEnabled) await expect(page).toHaveURL("/w/careful-co/settings/labels");
        else await expect(page).toHaveURL(/\?confirm=delete-label-\d+$/);
        return question;
      };

      const cancelled = await ask();
      const findings = await scanAsShown(page, javaScriptEnabled, testInfo, `the question, JavaScript ${javaScriptEnabled ? "on" : "off"}`);
      expect(findings, describeFindings(findings)).toEqual([]);
      await cancelled.getByRole(javaScriptEnabled ? "button" : "link", { name: "Cancel" }).click();
      await expect(cancelled).toBeHidden();
      await expect(page).toHaveURL("/w/careful-co/settings/labels");
      await expect(page.getByRole("listitem", { name: "Doomed", exact: true })).toBeVisible();

      if (!javaScriptEnabled) await row.locator("summary").click();
      const question = await ask();
      await question.getByRole("button", { name: "Delete label" }).click();
      await expect(page.getByRole("status")).toHaveText("Label deleted.");
      await expect(page.getByRole("listitem", { name: "Doomed", exact: true })).toHaveCount(0);
      await expect(page.getByRole("listitem", { name: "Kept", exact: true })).toBeVisible();

      // Renaming in the row's own form; Enter in the name saves it.
      const kept = page.getByRole("listitem", { name: "Kept", exact: true });
      await kept.locator("summary").click();
      await kept.getByLabel("Label name", { exact: true }).fill("Kept too");
      await kept.getByLabel("Label name", { exact: true }).press("Enter");
      await expect(page.getByRole("status")).toHaveText("Label saved.");
      await expect(page.getByRole("listitem", { name: "Kept too", exact: true })).toBeVisible();

      // The only owner is told why she cannot leave, instead of being offered a Leave that would fail.
      await open(page, javaScriptEnabled, "/w/careful-co/settings");
      await expect(page.getByText("You are this workspace's only owner.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Leave workspace" })).toHaveCount(0);
      await waitForHydration(page, javaScriptEnabled);

      // A member leaves from the same page, asked first, and lands outside the workspace.
      const link = await inviteMember(page, javaScriptEnabled, "careful-co", uniqueEmail(testInfo, "mo"));
      const { context, page: member } = await joinByInvitation(browser, javaScriptEnabled, server.url, link, "Mo Member");
      try {
        await open(member, javaScriptEnabled, "/w/careful-co/settings");
        await member.getByRole("link", { name: "Leave workspace" }).click();
        const question = member.getByRole("dialog").or(member.getByRole("alertdialog"));
        await expect(question).toContainText("Leave Careful Co?");
        await question.getByRole("button", { name: "Leave workspace" }).click();
        await expect(member.getByRole("status")).toHaveText("You left Careful Co.");
        await expect(member.getByRole("heading", { level: 1, name: "Your workspaces" })).toBeVisible();
        expect((await member.goto("/w/careful-co"))?.status()).toBe(404);
      } finally {
        await context.close();
      }
      await page.context().close();
    });
  });
});
