import type { Locator, Page } from "@playwright/test";
import { pngBytes } from "../support/files.js";
import { describeFindings, scan } from "./axe";
import { expect, recordPosts, runCairn, test as cairnTest } from "./fixtures";
import { type ChosenFile, createProject, fileIssue, issueDetail, openEditIssue, signUpWithWorkspace, submitOnIssue } from "./issues-helpers";

/** This file's Cairn takes files of at most 64 KiB, so that one over the limit is quick to send. */
const maxBytes = 64 * 1024;
const test = cairnTest.extend({
  cairn: [async ({}, use) => runCairn(use, { ATTACHMENT_MAX_BYTES: String(maxBytes) }), { scope: "worker" }],
});

const pngFile = (name: string, width: number, height: number, color: [number, number, number]): ChosenFile => ({ name, mimeType: "image/png", buffer: pngBytes(width, height, color) });
const textFile = (name: string, text: string): ChosenFile => ({ name, mimeType: "text/plain", buffer: Buffer.from(text) });

/** The Attachments list's row of a file, by its name. */
const attachmentRow = (page: Page, filename: string) =>
  page.getByRole("list", { name: "Attachments" }).getByRole("listitem").filter({ has: page.getByRole("link", { name: filename, exact: true }) });

/** Where a row's file is served (its link). */
async function fileUrl(row: Locator, filename: string) {
  const href = await row.getByRole("link", { name: filename, exact: true }).getAttribute("href");
  expect(href).toMatch(new RegExp(`/attachments/\\d+/${filename.replace(/\./g, "\\.")}$`));
  return href!;
}

/**
 * Holds the uploads of files dropped or pasted into a text box (POST /w/:ws/attachments) on their
 * way to the server, so that their progress is on screen until `release`.
 */
async function holdUploads(page: Page, slug: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const isUpload = (url: URL) => url.pathname === `/w/${slug}/attachments`;
  await page.route(isUpload, async (route) => {
    if (route.request().method() === "POST") await held;
    await route.continue();
  });
  return async () => {
    const answered = page.waitForResponse((response) => isUpload(new URL(response.url())) && response.request().method() === "POST");
    release();
    await answered;
    await page.unroute(isUpload);
  };
}

/** Drops (`drop`) or pastes (`paste`) a PNG into a text box, as a browser does with a file dragged from the desktop or an image copied. */
async function dropOrPaste(box: Locator, type: "drop" | "paste", file: ChosenFile) {
  await box.evaluate(
    (textarea, { type, name, mimeType, bytes }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name, { type: mimeType }));
      const init = { bubbles: true, cancelable: true };
      textarea.dispatchEvent(type === "drop" ? new DragEvent("drop", { ...init, dataTransfer: data }) : new ClipboardEvent("paste", { ...init, clipboardData: data }));
    },
    { type, name: file.name, mimeType: file.mimeType, bytes: [...file.buffer] },
  );
}

/**
 * Issue 17, attachments: files chosen with a new issue, attached later and sent with a comment;
 * one over the limit refused with what was typed kept; one deleted after a confirmation; with
 * JavaScript, files dropped and pasted into the text boxes, uploaded with their progress shown.
 */
test.describe("attachments", () => {
  // A sign-up (scrypt) and a dozen pages, some with files.
  test.describe.configure({ timeout: 120_000 });

  test("files on a new issue, attached to it and sent with a comment; one too large, one deleted", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Ada Attacher");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    const screenshot = pngFile("screenshot.png", 12, 8, [220, 40, 40]);
    const notes = textFile("notes.txt", "Steps: open the home page on a phone.\n");
    await fileIssue(page, javaScriptEnabled, base, { title: "The header overflows", description: "See the screenshot.", files: [screenshot, notes] });
    const { activity, commentField, addComment } = issueDetail(page);
    const attachments = page.getByRole("region", { name: "Attachments" });

    // Each file with its size, uploader and time; the PNG with a thumbnail of itself.
    await expect(page.getByRole("list", { name: "Attachments" }).getByRole("listitem")).toHaveCount(2);
    const screenshotRow = attachmentRow(page, "screenshot.png");
    await expect(screenshotRow).toContainText(`${screenshot.buffer.length} bytes`);
    await expect(screenshotRow).toContainText(me);
    await expect(screenshotRow.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
    const screenshotUrl = await fileUrl(screenshotRow, "screenshot.png");
    await expect(screenshotRow.locator("img")).toHaveAttribute("src", screenshotUrl);
    const notesRow = attachmentRow(page, "notes.txt");
    await expect(notesRow).toContainText(`${notes.buffer.length} bytes`);
    await expect(notesRow).toContainText(me);
    await expect(notesRow.locator("img")).toHaveCount(0);
    await expect(activity).toContainText(`${me} attached screenshot.png and notes.txt`);
    // The image is served as itself (shown inline); the text file downloads.
    const image = await page.request.get(screenshotUrl);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toBe("image/png");
    expect(image.headers()["content-disposition"]).toMatch(/^inline/);
    expect(Buffer.compare(await image.body(), screenshot.buffer)).toBe(0);
    const notesUrl = await fileUrl(notesRow, "notes.txt");
    const text = await page.request.get(notesUrl);
    expect(text.headers()["content-disposition"]).toMatch(/^attachment/);
    expect(await text.text()).toBe("Steps: open the home page on a phone.\n");
    if (javaScriptEnabled) await expect.poll(() => screenshotRow.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(12);

    // More through the attach form.
    const log = textFile("console.log", "TypeError: header is undefined\n");
    await attachments.getByLabel("Attach files").setInputFiles(log);
    await submitOnIssue(page, javaScriptEnabled, () => attachments.getByRole("button", { name: "Attach", exact: true }).click());
    await expect(attachmentRow(page, "console.log")).toContainText(`${log.buffer.length} bytes`);
    await expect(page.getByRole("list", { name: "Attachments" }).getByRole("listitem")).toHaveCount(3);
    await expect(attachments.getByLabel("Attach files")).toHaveValue("");
    // One line with the files just before it (one person, a few minutes).
    await expect(activity).toContainText(`${me} attached screenshot.png, notes.txt and console.log`);

    // A comment with a file over the limit: refused at the file field, the comment kept. With
    // JavaScript the input's own check holds the form back; without, the server answers 413.
    const issuePath = new URL(page.url()).pathname;
    const posts = recordPosts(page);
    const commentFiles = activity.getByLabel("Attach files");
    const tooLarge = { name: "recording.webm", mimeType: "video/webm", buffer: Buffer.alloc(100 * 1024, 1) };
    const limit = "Files may be at most 64 KiB each: recording.webm is 100 KiB.";
    await commentField.fill("At 320 px the menu covers the logo.");
    await commentFiles.setInputFiles(tooLarge);
    if (javaScriptEnabled) {
      await addComment.click();
      await expect(commentFiles).toHaveJSProperty("validationMessage", limit);
    } else {
      const refused = await submitOnIssue(page, javaScriptEnabled, () => addComment.click());
      expect(refused.status()).toBe(413);
      await expect(commentFiles).toHaveAccessibleDescription(limit);
    }
    await expect(commentField).toHaveValue("At 320 px the menu covers the logo.");

    // The same comment with a picture instead.
    const narrow = pngFile("narrow.png", 32, 24, [40, 90, 220]);
    await commentFiles.setInputFiles(narrow);
    await submitOnIssue(page, javaScriptEnabled, () => addComment.click());
    // With JavaScript the file over the limit was never sent.
    expect(posts.map((post) => post.path)).toEqual(javaScriptEnabled ? [issuePath] : [issuePath, issuePath]);
    const comment = activity.getByRole("listitem", { name: `Comment by ${me}` });
    await expect(comment).toContainText("At 320 px the menu covers the logo.");
    const shown = comment.getByRole("list", { name: "Files" }).getByRole("img", { name: "narrow.png" });
    await expect(shown).toHaveAttribute("src", new RegExp(`^/w/${slug}/attachments/\\d+/narrow\\.png$`));
    await expect(commentField).toHaveValue("");
    await expect(attachmentRow(page, "narrow.png")).toContainText(`${narrow.buffer.length} bytes`);

    // The page with files: no serious findings, light and dark (axe needs JavaScript in the page).
    if (javaScriptEnabled) {
      expect(describeFindings(await scan(page, "issue with attachments"))).toBe("");
      await page.emulateMedia({ colorScheme: "dark" });
      expect(describeFindings(await scan(page, "issue with attachments, dark"))).toBe("");
      await page.emulateMedia({ colorScheme: "light" });
    }

    // A file deleted, after a confirmation (a dialog with JavaScript, in the page without): gone from the list and from its address.
    await notesRow.getByRole("link", { name: "Delete notes.txt" }).click();
    const question = page.getByRole(javaScriptEnabled ? "dialog" : "alertdialog", { name: "Delete notes.txt?" });
    await expect(question).toContainText("The file is removed for everyone");
    await submitOnIssue(page, javaScriptEnabled, () => question.getByRole("button", { name: "Delete file" }).click());
    await expect(page.getByRole("list", { name: "Attachments" }).getByRole("listitem")).toHaveCount(3);
    await expect(attachmentRow(page, "notes.txt")).toHaveCount(0);
    await expect(activity).toContainText("removed the attachment notes.txt");
    expect((await page.request.get(notesUrl)).status()).toBe(404);
    expect((await page.request.get(screenshotUrl)).status()).toBe(200);

    // Without JavaScript the browser logs the refused comment's 413.
    expect(consoleErrors.filter((error) => javaScriptEnabled || !/status of 413/.test(error))).toEqual([]);
  });

  test("an image pasted into a comment and one dropped into the description upload with their progress and show inline", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    test.skip(!javaScriptEnabled, "dropping and pasting files needs JavaScript; without it files are chosen in the forms");
    const { slug, name: me } = await signUpWithWorkspace(page, javaScriptEnabled, testInfo, "Dora Dropper");
    const base = await createProject(page, javaScriptEnabled, slug, "Website", "WEB");
    await fileIssue(page, javaScriptEnabled, base, { title: "New landing page", description: "The mockup:\nWhat do you think?" });
    const { description, commentField, addComment, activity } = issueDetail(page);
    const attachmentUrl = (filename: string) => `/w/${slug}/attachments/\\d+/${filename.replace(/\./g, "\\.")}`;

    // Pasted after what was typed: its progress while it uploads (held here), and the comment waits for it.
    await commentField.fill("Looks good on a phone too:");
    let release = await holdUploads(page, slug);
    await dropOrPaste(commentField, "paste", pngFile("image.png", 20, 40, [200, 200, 30]));
    await expect(activity.getByRole("progressbar", { name: "Uploading image.png" })).toBeVisible();
    await addComment.click();
    await expect(activity).toContainText("Wait for it to finish before sending.");
    await release();
    await expect(activity.getByRole("progressbar")).toHaveCount(0);
    const commentText = new RegExp(`^Looks good on a phone too:\\n!\\[image\\.png\\]\\(${attachmentUrl("image.png")}\\)\\n$`);
    await expect(commentField).toHaveValue(commentText);

    // Dropped where the cursor is, between the two lines: a placeholder while it uploads, then its Markdown.
    const edit = await openEditIssue(page);
    const box = edit.getByLabel("Description", { exact: true });
    await box.evaluate((textarea: HTMLTextAreaElement) => {
      textarea.focus();
      textarea.setSelectionRange("The mockup:\n".length, "The mockup:\n".length);
    });
    release = await holdUploads(page, slug);
    await dropOrPaste(box, "drop", pngFile("mockup.png", 40, 30, [30, 160, 90]));
    await expect(edit.getByRole("progressbar", { name: "Uploading mockup.png" })).toBeVisible();
    await expect(box).toHaveValue(/^The mockup:\n!\[Uploading mockup\.png…\]\(#upload-\d+\)\nWhat do you think\?$/);
    await release();
    await expect(edit.getByRole("progressbar")).toHaveCount(0);
    await expect(box).toHaveValue(new RegExp(`^The mockup:\\n!\\[mockup\\.png\\]\\(${attachmentUrl("mockup.png")}\\)\\nWhat do you think\\?$`));
    await submitOnIssue(page, javaScriptEnabled, () => edit.getByRole("button", { name: "Save changes" }).click());
    const mockup = description.getByRole("img", { name: "mockup.png" });
    await expect(mockup).toHaveAttribute("src", new RegExp(`^${attachmentUrl("mockup.png")}$`));
    await expect.poll(() => mockup.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
    await expect(attachmentRow(page, "mockup.png")).toContainText(me);
    await expect(activity).toContainText(`${me} changed the description`);

    // The comment held back earlier was not sent: saving the description left it as it was.
    await expect(commentField).toHaveValue(commentText);
    await submitOnIssue(page, javaScriptEnabled, () => addComment.click());
    const comment = activity.getByRole("listitem", { name: `Comment by ${me}` });
    await expect(comment).toContainText("Looks good on a phone too:");
    const pasted = comment.getByRole("img", { name: "image.png" });
    await expect(pasted).toHaveAttribute("src", new RegExp(`^${attachmentUrl("image.png")}$`));
    await expect.poll(() => pasted.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(20);
    // Shown in its text, it is not listed again under the comment.
    await expect(comment.getByRole("list", { name: "Files" })).toHaveCount(0);
    await expect(commentField).toHaveValue("");

    expect(consoleErrors).toEqual([]);
  });
});
