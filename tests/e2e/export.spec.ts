import { readFile } from "node:fs/promises";
import { createWorkspace, goodPassword, signUp, uniqueEmail, uniqueSlug } from "./accounts-helpers";
import { createProject, fileIssue, open } from "./issues-helpers";
import { filterList } from "./issues-list-helpers";
import { expect, test, waitForHydration } from "./fixtures";

/** docs/product.md, Screens: the issue list's "Export CSV" downloads the filtered list, with or without JavaScript. */
test("exports the filtered issue list as CSV", async ({ page, javaScriptEnabled, consoleErrors, baseURL }, testInfo) => {
  // Signing up (scrypt) and filing three issues through the screens take a while.
  test.slow();
  const slug = uniqueSlug(testInfo, "export");
  await signUp(page, javaScriptEnabled, { name: "Erin Exporter", email: uniqueEmail(testInfo, "erin"), password: goodPassword });
  // Password hashing is deliberately slow, and slower still on a busy machine.
  await expect(page).toHaveURL("/w/new", { timeout: 20_000 });
  await waitForHydration(page, javaScriptEnabled);
  await createWorkspace(page, javaScriptEnabled, "Acme", slug);
  const project = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
  await fileIssue(page, javaScriptEnabled, project, { title: 'Checkout "Pay", crashes', priority: "High" });
  await fileIssue(page, javaScriptEnabled, project, { title: "Typo on the café page", priority: "Low" });
  await fileIssue(page, javaScriptEnabled, project, { title: "=SUM(A1) in the title", priority: "High" });

  await open(page, javaScriptEnabled, `${project}/issues`);
  await filterList(page, javaScriptEnabled, { choices: [["Priority", "High"]] });
  await expect(page).toHaveURL(/[?&]priority=high(&|$)/);
  await expect(page.getByRole("heading", { level: 2, name: /^Issues/ })).toContainText("(2)");

  const exportLink = page.getByRole("link", { name: "Export CSV" });
  await expect(exportLink).toHaveAttribute("href", `${project}/issues.csv?priority=high`);
  const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
  expect(download.suggestedFilename()).toBe("WEB-issues.csv");
  const bytes = await readFile(await download.path());

  // UTF-8 with a byte order mark; a header row, then only the two high-priority issues, newest change first.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").split("\r\n");
  expect(lines[0]).toBe("Key,Title,Status,Priority,Assignee,Reporter,Labels,Due date,Created,Updated,Closed");
  expect(lines).toHaveLength(4);
  expect(lines[1]).toMatch(/^WEB-3,'=SUM\(A1\) in the title,[^,]+,High,,Erin Exporter,,,\d{4}-/);
  expect(lines[2]).toMatch(/^WEB-1,"Checkout ""Pay"", crashes",[^,]+,High,,Erin Exporter,,,\d{4}-/);
  expect(lines[3]).toBe("");

  // The download left the list where it was.
  await expect(page).toHaveURL(/[?&]priority=high(&|$)/);
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();

  // The response itself: a download that no cache keeps, for signed-in members only.
  const response = await page.request.get(`${project}/issues.csv?sort=number`);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(response.headers()["content-disposition"]).toBe('attachment; filename="WEB-issues.csv"');
  expect(response.headers()["cache-control"]).toBe("no-store");
  const all = (await response.text()).replace(/^\uFEFF/, "").split("\r\n");
  expect(all.map((line) => line.split(",")[0])).toEqual(["Key", "WEB-1", "WEB-2", "WEB-3", ""]);
  expect(all[2]).toContain("Typo on the café page");

  const signedOut = await fetch(new URL(`${project}/issues.csv`, baseURL), { redirect: "manual" });
  expect(signedOut.status).toBe(302);
  expect(signedOut.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(`${project}/issues.csv`)}`);
  const elsewhere = await page.request.get(`/w/${slug}-nope/p/WEB/issues.csv`, { maxRedirects: 0 });
  expect(elsewhere.status()).toBe(404);
  expect(consoleErrors).toEqual([]);
});
