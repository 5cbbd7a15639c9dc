// `npm run screenshots [-- --issues 1000 --out docs/screenshots]`
//
// Builds Cairn if the build is missing or older than the sources, seeds a demo workspace in a
// temporary DATA_DIR, starts the production server on a free 127.0.0.1 port, signs in as the seeded
// owner, attaches a picture of the board to the issue it shows (a comment with a file), and
// photographs the issue list, an issue, the board, My issues, the inbox, the webhooks settings and the API reference in Chromium: at 1440×900 and
// at 390×844, each in the light and the dark colour scheme. The viewport only, not the whole page.
// Files: <out>/{list,issue,board,my-issues,inbox,webhooks,api-reference}-{desktop,phone}-{light,dark}.png, overwritten each run.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "./chromium.js";
import {
  buildIfStale,
  createDemoDatabase,
  demoWorkspace,
  largestDemoProject,
  queryDemoDatabase,
  repoRoot,
  seedDemo,
  signInRequest,
  startDemoServer,
} from "./demo-instance.js";

/** @typedef {{ name: string, path: string }} Screen */

const devices = [
  { name: "desktop", options: { viewport: { width: 1440, height: 900 } } },
  { name: "phone", options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
];
const colorSchemes = /** @type {const} */ (["light", "dark"]);

function readSettings() {
  const { values } = parseArgs({
    options: {
      issues: { type: "string", default: "1000" },
      out: { type: "string", default: path.join(repoRoot, "docs/screenshots") },
    },
    strict: true,
  });
  const issues = Number(values.issues);
  if (!/^\d+$/.test(values.issues) || issues < 1) throw new Error(`--issues must be a whole number from 1 (got ${JSON.stringify(values.issues)}).`);
  return { issues, out: path.resolve(values.out) };
}

/**
 * The issue to show: the project's newest with a description, labels, an assignee and a few
 * comments, so that the picture has every part of the page in it; its newest issue if none has.
 * @param {Record<string, string>} env @param {string} projectKey @param {number} newestIssue
 */
async function showcaseIssue(env, projectKey, newestIssue) {
  const [row] = await queryDemoDatabase(
    env,
    `select i.number as number
       from issues i join projects p on p.id = i.project_id join workspaces w on w.id = p.workspace_id
      where w.slug = ? and p.key = ? and i.description <> '' and i.assignee_id is not null
        and exists (select 1 from issue_labels l where l.issue_id = i.id)
        and (select count(*) from comments c where c.issue_id = i.id and c.deleted_at is null) >= 2
      order by i.number desc
      limit 1`,
    [demoWorkspace, projectKey],
  );
  return row ? Number(row.number) : newestIssue;
}

/** @param {Record<string, string>} env @returns {Promise<Screen[]>} */
async function screens(env) {
  const home = `/w/${demoWorkspace}`;
  const project = await largestDemoProject(env);
  const base = `${home}/p/${project.key}`;
  return [
    { name: "list", path: `${base}/issues` },
    { name: "issue", path: `${base}/issues/${await showcaseIssue(env, project.key, project.newestIssue)}` },
    { name: "board", path: `${base}/board` },
    { name: "my-issues", path: home },
    { name: "inbox", path: `${home}/inbox` },
    { name: "webhooks", path: `${home}/settings/webhooks` },
    { name: "api-reference", path: "/api" },
  ];
}

/**
 * The seeded owner's session, signed in once through the sign-in form's post, for every context.
 * @param {import("@playwright/test").Browser} browser @param {string} serverUrl
 */
async function signedInState(browser, serverUrl) {
  const context = await browser.newContext();
  try {
    const { url, headers, form } = signInRequest(serverUrl);
    const response = await context.request.post(url, { headers, form, maxRedirects: 0 });
    if (response.status() !== 302) throw new Error(`Signing in failed with ${response.status()}`);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/**
 * A bug report's screenshot on the issue photographed: a picture of the board, sent with a comment
 * through the issue's form (multipart, as a browser without JavaScript sends it), so that the issue
 * shows its Attachments and an inline image.
 * @param {import("@playwright/test").Browser} browser @param {string} serverUrl @param {any} storageState
 * @param {{ issuePath: string, boardPath: string }} paths
 */
async function attachScreenshot(browser, serverUrl, storageState, { issuePath, boardPath }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, baseURL: serverUrl, storageState });
  try {
    const page = await context.newPage();
    await page.goto(boardPath, { waitUntil: "networkidle" });
    const buffer = await page.screenshot({ animations: "disabled", caret: "hide" });
    const response = await context.request.post(issuePath, {
      headers: { origin: serverUrl },
      multipart: { intent: "comment", body: "The board right after the deploy: the cards are there, the counts are not.", file: { name: "board-after-deploy.png", mimeType: "image/png", buffer } },
      maxRedirects: 0,
    });
    if (response.status() !== 302) throw new Error(`Attaching the screenshot failed with ${response.status()}`);
  } finally {
    await context.close();
  }
}

async function main() {
  const settings = readSettings();
  buildIfStale();
  const database = await createDemoDatabase("sqlite");
  try {
    console.log(`Seeding ${settings.issues.toLocaleString("en")} issues…`);
    console.log(seedDemo(database.env, settings.issues).output);
    const server = await startDemoServer(database.env);
    try {
      const browser = await chromium.launch(chromiumLaunchOptions);
      try {
        const pages = await screens(database.env);
        const storageState = await signedInState(browser, server.url);
        const pathOf = (/** @type {string} */ name) => /** @type {Screen} */ (pages.find((screen) => screen.name === name)).path;
        await attachScreenshot(browser, server.url, storageState, { issuePath: pathOf("issue"), boardPath: pathOf("board") });
        mkdirSync(settings.out, { recursive: true });
        for (const device of devices) {
          for (const colorScheme of colorSchemes) {
            // Fixed locale and time zone, so that dates read the same wherever the script runs.
            const context = await browser.newContext({ ...device.options, colorScheme, locale: "en-US", timezoneId: "UTC", baseURL: server.url, storageState });
            try {
              const page = await context.newPage();
              for (const screen of pages) {
                const response = await page.goto(screen.path, { waitUntil: "networkidle" });
                if (response?.status() !== 200) throw new Error(`${screen.path} answered ${response?.status()}`);
                await page.evaluate(() => document.fonts.ready.then(() => undefined));
                const file = path.join(settings.out, `${screen.name}-${device.name}-${colorScheme}.png`);
                await page.screenshot({ path: file, animations: "disabled", caret: "hide" });
                console.log(`  ${path.relative(repoRoot, file)}  ${screen.path}`);
              }
            } finally {
              await context.close();
            }
          }
        }
      } finally {
        await browser.close();
      }
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
