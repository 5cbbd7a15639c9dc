import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp";
import { goodPassword, signIn, signOut, signUp, uniqueEmail } from "./accounts-helpers";
import { expect, runCairn, test as cairnTest, waitForHydration } from "./fixtures";

const publicUrl = "http://cairn.example.test";

/** This file's Cairn sends mail, to a real SMTP server of its own on 127.0.0.1. */
const test = cairnTest.extend<object, { smtp: TestSmtpServer }>({
  smtp: [
    async ({}, use) => {
      const smtp = await startTestSmtpServer();
      try {
        await use(smtp);
      } finally {
        await smtp.close();
      }
    },
    { scope: "worker" },
  ],
  cairn: [async ({ smtp }, use) => runCairn(use, { SMTP_URL: smtp.url, PUBLIC_URL: publicUrl }), { scope: "worker" }],
});

/** The path of the reset link mailed to `email`, once it has arrived. */
async function mailedResetPath(smtp: TestSmtpServer, email: string): Promise<string> {
  await expect.poll(() => smtp.received.filter((mail) => mail.envelopeTo.includes(email)).length, { timeout: 15_000 }).toBe(1);
  const mail = smtp.received.find((m) => m.envelopeTo.includes(email))!;
  return new RegExp(`${publicUrl}(/reset-password/[\\w-]+)`).exec(mail.text ?? "")![1]!;
}

test.describe("password reset", () => {
  test.describe.configure({ timeout: 60_000 });

  test("a forgotten password: from sign-in to a mailed link, a new password, and signed in with it", async ({ page, smtp, javaScriptEnabled, consoleErrors }, testInfo) => {
    const email = uniqueEmail(testInfo, "forgot");
    await signUp(page, javaScriptEnabled, { name: "Forgetful", email, password: goodPassword });
    await expect(page).toHaveURL(/\/w\/new$/);
    await signOut(page);

    await page.goto("/login");
    await waitForHydration(page, javaScriptEnabled);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await waitForHydration(page, javaScriptEnabled);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("status")).toContainText(`If an account uses ${email}, a link to choose a new password is on its way there.`);

    const path = await mailedResetPath(smtp, email);
    await page.goto(path);
    await waitForHydration(page, javaScriptEnabled);
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await expect(page.getByText(`For ${email}.`)).toBeVisible();
    // The rules first: the server refuses a short one and keeps the link.
    await page.getByLabel("New password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByText("Use at least 10 characters.")).toBeVisible();
    const newPassword = "a brand new staple horse";
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("status")).toContainText("Your password was changed");

    await signIn(page, javaScriptEnabled, email, goodPassword);
    await expect(page.getByText("Email or password is incorrect.")).toBeVisible();
    await signIn(page, javaScriptEnabled, email, newPassword);
    // Signed in: to the home page, not back to the form.
    await expect(page).toHaveURL(/:\d+\/$/);

    // The link worked once.
    await page.goto(path);
    await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", "/forgot-password");
    // The refused password and sign-in answered 400, the used link 404, as they should; nothing else went wrong.
    expect(consoleErrors.filter((error) => !/status of (400|404) /.test(error))).toEqual([]);
  });
});
