import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createProject, fileIssue, open, openWorkspaceSettings, signUpWithWorkspace } from "./issues-helpers";

/** The question a destructive action asks first: a modal dialog with JavaScript, the page itself without. */
function confirmation(page: Page): Locator {
  return page.getByRole("dialog").or(page.getByRole("alertdialog"));
}

test.describe("Webhooks", () => {
  test.describe.configure({ timeout: 90_000 });

  test("an admin adds a webhook, sees its secret once and its delivery log, turns it off and on, and deletes it", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Wanda Webhook");
    const settings = `/w/${slug}/settings/webhooks`;
    await open(page, javaScriptEnabled, `/w/${slug}`);
    await openWorkspaceSettings(page);
    await page.getByRole("navigation", { name: "Workspace settings" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(settings);
    await expect(page.getByText("No webhooks yet.")).toBeVisible();

    // A URL that is not http(s) is refused at its field; the chosen events stay chosen.
    await page.getByLabel("Payload URL", { exact: true }).fill("javascript:alert(1)");
    await page.getByRole("checkbox", { name: /Issue created/ }).check();
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByLabel("Payload URL", { exact: true })).toHaveAccessibleDescription(/Enter an http:\/\/ or https:\/\/ URL/);
    await expect(page.getByRole("checkbox", { name: /Issue created/ })).toBeChecked();

    // The server under test has no WEBHOOK_ALLOW_PRIVATE: deliveries to 127.0.0.1 are refused, and the log says so.
    const url = "http://127.0.0.1:9/hooks/cairn";
    await page.getByLabel("Payload URL", { exact: true }).fill(url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = page.getByRole("textbox", { name: "Signing secret" });
    await expect(secret).toHaveValue(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const item = page.getByRole("listitem", { name: url });
    await expect(item).toContainText("On");
    await expect(item).toContainText("issue.created");

    // Shown once: a reload no longer has it.
    await open(page, javaScriptEnabled, settings);
    await expect(page.getByRole("textbox", { name: "Signing secret" })).toHaveCount(0);

    const project = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssue(page, javaScriptEnabled, project, { title: "Hook me" });
    await expect(async () => {
      await open(page, javaScriptEnabled, settings);
      await page.getByText(/Recent deliveries \(1\)/).click();
      await expect(page.getByRole("list", { name: `Deliveries to ${url}` })).toContainText("Refused: 127.0.0.1", { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    const log = page.getByRole("list", { name: `Deliveries to ${url}` });
    await expect(log).toContainText("issue.created");
    await expect(log).toContainText("failed");
    await expect(log).toContainText("attempt 1");
    await log.getByRole("button", { name: /^Redeliver issue\.created/ }).click();
    await expect(page.getByRole("status")).toContainText("Sending it again.");

    await page.getByRole("listitem", { name: url }).getByRole("button", { name: `Turn off ${url}` }).click();
    await expect(page.getByRole("listitem", { name: url }).getByRole("button", { name: `Turn on ${url}` })).toBeVisible();
    await open(page, javaScriptEnabled, settings);
    await expect(page.getByRole("listitem", { name: url })).toContainText("Off");
    await page.getByRole("listitem", { name: url }).getByRole("button", { name: `Turn on ${url}` }).click();
    await expect(page.getByRole("listitem", { name: url }).getByRole("button", { name: `Turn off ${url}` })).toBeVisible();

    await page.getByRole("listitem", { name: url }).getByRole("link", { name: `Delete webhook ${url}` }).click();
    await expect(confirmation(page)).toContainText("Delete this webhook?");
    await confirmation(page).getByRole("button", { name: "Delete webhook" }).click();
    await expect(page.getByRole("status")).toContainText("Webhook deleted.");
    await expect(page.getByText("No webhooks yet.")).toBeVisible();
    // The refused URL's 400 is the only error the browser logged.
    expect(consoleErrors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });
});
