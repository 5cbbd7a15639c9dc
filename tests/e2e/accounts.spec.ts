import type { Locator, Page, Response } from "@playwright/test";
import {
  createWorkspace,
  fillSignIn,
  goodPassword,
  loginTarget,
  openAccountMenu,
  signIn,
  signOut,
  signUp,
  uniqueEmail,
  uniqueSlug,
} from "./accounts-helpers";
import { expect, recordPosts, test, waitForHydration } from "./fixtures";

const incorrect = "Email or password is incorrect.";

/** Who is signed in: the account menu of the app shell, or the name in the public pages' header. */
function signedInAs(page: Page, name: string): Locator {
  return page.getByRole("button", { name: `Account: ${name}` }).or(page.getByRole("banner").getByRole("link", { name }));
}

/** The question a destructive action asks first: a modal dialog with JavaScript, the page itself without. */
function confirmation(page: Page): Locator {
  return page.getByRole("dialog").or(page.getByRole("alertdialog"));
}

/** The response to the next POST of a form to `pathname` (a document request without JavaScript, `.data` with). */
function nextPost(page: Page, pathname: string) {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return response.request().method() === "POST" && (url.pathname === pathname || url.pathname === `${pathname}.data`);
  });
}

/**
 * The server never sends a password back. Without JavaScript the re-rendered field is therefore empty;
 * with JavaScript the form is not re-rendered from scratch, and the browser's own input keeps what
 * was typed (conform's `hideFields` only leaves the value out of the reply).
 */
async function expectPasswordNotEchoed(field: Locator, response: Response, typed: string, javaScriptEnabled: boolean) {
  expect(await response.text()).not.toContain(typed);
  if (!javaScriptEnabled) await expect(field).toHaveValue("");
}

test.describe("accounts", () => {
  // Every sign-up, sign-in and password change runs scrypt at N=2^17 (docs/product.md, Limits): journeys with several
  // of them need more than the default 30 seconds on a busy machine.
  test.describe.configure({ timeout: 60_000 });

  test("sign up, sign out, a wrong password, then sign in again", async ({ page, javaScriptEnabled, consoleErrors }, testInfo) => {
    const email = uniqueEmail(testInfo, "ada");
    await signUp(page, javaScriptEnabled, { name: "Ada Lovelace", email, password: goodPassword });
    await expect(page).toHaveURL("/w/new");
    await expect(page.getByRole("heading", { level: 1, name: "Create workspace" })).toBeVisible();
    const banner = page.getByRole("banner");
    await expect(signedInAs(page, "Ada Lovelace")).toBeVisible();

    await signOut(page);
    await expect(signedInAs(page, "Ada Lovelace")).toHaveCount(0);

    await banner.getByRole("link", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    if (javaScriptEnabled) await page.evaluate(() => ((window as { __marker?: number }).__marker = 1));
    const rejected = nextPost(page, "/login");
    await fillSignIn(page, email, "not the right password");
    expect((await rejected).status()).toBe(400);
    await expect(page.getByRole("alert")).toContainText(incorrect);
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
    await expectPasswordNotEchoed(page.getByLabel("Password", { exact: true }), await rejected, "not the right password", javaScriptEnabled);
    // With JavaScript the rejected submission was handled in place: no full page load.
    if (javaScriptEnabled) expect(await page.evaluate(() => (window as { __marker?: number }).__marker)).toBe(1);

    await page.getByLabel("Password", { exact: true }).fill(goodPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Signed in without a workspace: the workspace picker.
    await expect(page.getByRole("heading", { level: 1, name: "Your workspaces" })).toBeVisible();
    await expect(banner.getByRole("link", { name: "Ada Lovelace" })).toBeVisible();
    await expect(banner.getByRole("button", { name: "Sign out" })).toBeVisible();
    if (javaScriptEnabled) expect(await page.evaluate(() => (window as { __marker?: number }).__marker)).toBe(1);
    // The browser logs the rejected form's 400 response; nothing else may be logged.
    expect(consoleErrors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });

  test("redirectTo survives signing in, and never leads off the site", async ({ page, javaScriptEnabled, baseURL }, testInfo) => {
    const email = uniqueEmail(testInfo, "redirect");
    await signUp(page, javaScriptEnabled, { name: "Rita Redirect", email, password: goodPassword });
    await expect(page).toHaveURL("/w/new");
    await signOut(page);

    await page.goto("/settings");
    expect(loginTarget(page)).toEqual({ pathname: "/login", redirectTo: "/settings" });
    await waitForHydration(page, javaScriptEnabled);
    await fillSignIn(page, email, goodPassword);
    await expect(page).toHaveURL("/settings");
    await expect(page.getByRole("heading", { level: 1, name: "Account settings" })).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Rita Redirect");

    // Open-redirect attempts land on a page of this site.
    const origin = new URL(baseURL).origin;
    for (const target of ["//evil.example", "https://evil.example/", "/\\evil.example"]) {
      await signOut(page);
      await signIn(page, javaScriptEnabled, email, goodPassword, `/login?${new URLSearchParams({ redirectTo: target })}`);
      await expect(page.getByRole("heading", { level: 1, name: "Your workspaces" })).toBeVisible();
      expect(new URL(page.url()).origin).toBe(origin);
      expect(page.url()).not.toContain("evil.example");
    }
  });

  test("a rejected sign-up keeps what was typed and says what to fix", async ({ page, javaScriptEnabled }, testInfo) => {
    const email = uniqueEmail(testInfo, "grace");
    await page.goto("/signup");
    await waitForHydration(page, javaScriptEnabled);
    const name = page.getByLabel("Name", { exact: true });
    const emailField = page.getByLabel("Email", { exact: true });
    const password = page.getByLabel("Password", { exact: true });
    const submit = page.getByRole("button", { name: "Create account" });
    const summary = page.getByRole("main").getByRole("alert");

    // Empty name, invalid email, short password.
    await emailField.fill("not-an-email");
    await password.fill("short");
    let response = nextPost(page, "/signup");
    await submit.click();
    expect((await response).status()).toBe(400);
    await expect(summary).toHaveText("Please correct the 3 fields marked below.");
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAccessibleDescription("Enter a name.");
    await expect(emailField).toHaveAttribute("aria-invalid", "true");
    await expect(emailField).toHaveAccessibleDescription("Enter a valid email address.");
    await expect(emailField).toHaveValue("not-an-email");
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(password).toHaveAccessibleDescription("Use at least 10 characters.");

    // A common password (app/auth/common-passwords.txt), with the other fields now valid.
    await name.fill("Grace Hopper");
    await emailField.fill(email);
    await password.fill("password123");
    response = nextPost(page, "/signup");
    await submit.click();
    expect((await response).status()).toBe(400);
    // Once, not twice: the field's own rule and the form's "not your email" rule must not both report it.
    await expect(password).toHaveAccessibleDescription("This password is too common: choose another.");
    await expect(summary).toHaveText("Please correct the field marked below.");
    await expect(name).toHaveValue("Grace Hopper");
    await expect(name).not.toHaveAttribute("aria-invalid", "true");
    await expect(emailField).toHaveValue(email);
    await expect(emailField).not.toHaveAttribute("aria-invalid", "true");
    await expectPasswordNotEchoed(password, await response, "password123", javaScriptEnabled);

    // The password equal to the email (in another case, and with spaces around it).
    const sameAsEmail = `  ${email.toUpperCase()} `;
    await password.fill(sameAsEmail);
    response = nextPost(page, "/signup");
    await submit.click();
    expect((await response).status()).toBe(400);
    await expect(password).toHaveAccessibleDescription("Your password must not be your email address.");
    await expect(summary).toHaveText("Please correct the field marked below.");
    await expect(name).toHaveValue("Grace Hopper");
    await expect(emailField).toHaveValue(email);
    await expectPasswordNotEchoed(password, await response, sameAsEmail, javaScriptEnabled);

    // Fixed: the account is created.
    await password.fill(goodPassword);
    await submit.click();
    await expect(page).toHaveURL("/w/new");
    await expect(signedInAs(page, "Grace Hopper")).toBeVisible();

    // The same email cannot sign up twice.
    await signOut(page);
    await signUp(page, javaScriptEnabled, { name: "Grace Again", email, password: goodPassword });
    await expect(page.getByLabel("Email", { exact: true })).toHaveAccessibleDescription("An account with this email already exists.");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Grace Again");
  });

  test("create a workspace; its slug is made from the name; a reserved or taken slug is refused with the values kept", async ({ page, javaScriptEnabled }, testInfo) => {
    await signUp(page, javaScriptEnabled, { name: "Wanda Workspace", email: uniqueEmail(testInfo, "wanda"), password: goodPassword });
    await expect(page.getByRole("heading", { level: 1, name: "Create workspace" })).toBeVisible();
    await waitForHydration(page, javaScriptEnabled);
    // No workspace yet: nothing to go back to.
    await expect(page.getByRole("link", { name: "Back to workspace" })).toHaveCount(0);
    const name = page.getByLabel("Workspace name", { exact: true });
    const slug = page.getByLabel("Slug", { exact: true });
    const submit = page.getByRole("button", { name: "Create workspace" });

    await name.fill("Acme Settings");
    await slug.fill("settings");
    let response = nextPost(page, "/w/new");
    await submit.click();
    expect((await response).status()).toBe(400);
    await expect(slug).toHaveAccessibleDescription("That slug is reserved: choose another.");
    await expect(slug).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Please correct the field marked below.");
    await expect(name).toHaveValue("Acme Settings");
    await expect(slug).toHaveValue("settings");

    // Emptied, the slug is made from the name: as it is typed with JavaScript, by the server without.
    const acme = uniqueSlug(testInfo, "acme");
    await slug.fill("");
    await name.fill(`Acme ${acme.slice("acme-".length).toUpperCase()}`);
    await expect(slug).toHaveValue(javaScriptEnabled ? acme : "");
    await submit.click();
    await expect(page).toHaveURL(`/w/${acme}`);
    await expect(page.getByRole("heading", { level: 1, name: "My issues" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Workspace: Acme / })).toBeVisible();

    // The workspace menu's link leads to another "Create workspace", now with a workspace to go back to; the slug is now taken.
    await page.getByRole("button", { name: /^Workspace: Acme / }).click();
    await page.locator("#workspace-menu").getByRole("link", { name: "Create workspace" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Create workspace" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to workspace" })).toBeVisible();
    await name.fill("Acme Two");
    await slug.fill(acme);
    response = nextPost(page, "/w/new");
    await submit.click();
    expect((await response).status()).toBe(400);
    await expect(slug).toHaveAccessibleDescription("That slug is taken: choose another.");
    await expect(name).toHaveValue("Acme Two");
    await expect(slug).toHaveValue(acme);
  });

  test("the team journey: invite, accept by signing up, change role, remove", async ({ page, browser, cairn, javaScriptEnabled }, testInfo) => {
    const slug = uniqueSlug(testInfo, "team");
    const inviteeEmail = uniqueEmail(testInfo, "ivan");
    await signUp(page, javaScriptEnabled, { name: "Olivia Owner", email: uniqueEmail(testInfo, "olivia"), password: goodPassword });
    await expect(page).toHaveURL("/w/new");
    await createWorkspace(page, javaScriptEnabled, "Team Rocket", slug);

    await page.getByRole("button", { name: "Workspace: Team Rocket" }).click();
    await page.locator("#workspace-menu").getByRole("link", { name: "Workspace settings" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Workspace settings" })).toBeVisible();
    await page.getByRole("navigation", { name: "Workspace settings" }).getByRole("link", { name: "Members" }).click();
    await expect(page).toHaveURL(`/w/${slug}/settings/members`);
    await expect(page.getByRole("listitem", { name: "Olivia Owner", exact: true })).toBeVisible();

    // A mistyped address is refused first, the role kept.
    const inviteEmailField = page.getByLabel("Email", { exact: true });
    const inviteRole = page.getByLabel("Role", { exact: true });
    await inviteEmailField.fill("ivan-at-example");
    await inviteRole.selectOption({ label: "Viewer" });
    const rejectedInvite = nextPost(page, `/w/${slug}/settings/members`);
    await page.getByRole("button", { name: "Invite member" }).click();
    expect((await rejectedInvite).status()).toBe(400);
    await expect(inviteEmailField).toHaveAccessibleDescription("Enter a valid email address.");
    await expect(inviteEmailField).toHaveValue("ivan-at-example");
    await expect(inviteRole).toHaveValue("viewer");

    await inviteEmailField.fill(inviteeEmail);
    await inviteRole.selectOption({ label: "Member" });
    await page.getByRole("button", { name: "Invite member" }).click();
    await expect(page.getByRole("status")).toContainText(`Invitation created for ${inviteeEmail}`);
    // A fresh form for the next invitation.
    await expect(inviteEmailField).toHaveValue("");
    // No stale errors from the refused attempt, with or without JavaScript.
    await expect(inviteEmailField).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
    const link = await page.getByLabel("Invitation link").inputValue();
    expect(link).toMatch(new RegExp(`^${cairn.server.url}/invitations/[^/]+$`));
    await expect(page.getByRole("listitem", { name: inviteeEmail, exact: true })).toBeVisible();

    // The invitee, in a browser of their own.
    const inviteeContext = await browser.newContext({ javaScriptEnabled, baseURL: cairn.server.url });
    try {
      const invitee = await inviteeContext.newPage();
      await invitee.goto(link);
      await waitForHydration(invitee, javaScriptEnabled);
      await expect(invitee.getByRole("heading", { level: 1, name: "Join Team Rocket" })).toBeVisible();
      await expect(invitee.getByRole("main")).toContainText(`${inviteeEmail} is invited to Team Rocket as member.`);
      await invitee.getByRole("main").getByRole("link", { name: "Create account" }).click();
      await expect(invitee.getByRole("heading", { level: 1, name: "Create account" })).toBeVisible();
      await expect(invitee.getByRole("main")).toContainText("You are invited to Team Rocket");
      await expect(invitee.getByLabel("Email", { exact: true })).toHaveValue(inviteeEmail);
      await invitee.getByLabel("Name", { exact: true }).fill("Ivan Invitee");
      await invitee.getByLabel("Password", { exact: true }).fill(goodPassword);
      await invitee.getByRole("button", { name: "Create account" }).click();
      await expect(invitee).toHaveURL(`/w/${slug}`);
      await expect(invitee.getByRole("heading", { level: 1, name: "My issues" })).toBeVisible();
      await expect(invitee.getByRole("button", { name: "Workspace: Team Rocket" })).toBeVisible();
      // A member does not manage the workspace: its settings show the name and "Leave workspace", not Members or Labels.
      await invitee.goto(`/w/${slug}/settings`);
      await expect(invitee.getByRole("heading", { level: 1, name: "Workspace settings" })).toBeVisible();
      await expect(invitee.getByText("Only an owner can rename or delete this workspace.")).toBeVisible();
      await expect(invitee.getByRole("link", { name: "Leave workspace" })).toBeVisible();
      await expect(invitee.getByRole("navigation", { name: "Workspace settings" }).getByRole("link")).toHaveText(["General"]);

      // Back as the owner: the new member is listed, the invitation is no longer pending.
      await page.reload();
      await waitForHydration(page, javaScriptEnabled);
      const row = page.getByRole("listitem", { name: "Ivan Invitee", exact: true });
      await expect(row).toContainText(inviteeEmail);
      await expect(page.getByRole("listitem", { name: inviteeEmail, exact: true })).toHaveCount(0);
      await expect(page.getByText("No invitations are waiting.")).toBeVisible();
      // The role is a menu whose choices are the submit buttons of one form.
      await expect(row.getByRole("button", { name: "Role for Ivan Invitee: Member" })).toBeVisible();
      await row.getByRole("button", { name: "Role for Ivan Invitee: Member" }).click();
      await page.getByRole("form", { name: "Role for Ivan Invitee" }).getByRole("button", { name: "Viewer" }).click();
      await expect(page.getByRole("status")).toHaveText("Role changed.");
      await page.reload();
      await waitForHydration(page, javaScriptEnabled);
      await expect(page.getByRole("listitem", { name: "Ivan Invitee", exact: true }).getByRole("button", { name: "Role for Ivan Invitee: Viewer" })).toBeVisible();

      // Removing asks first.
      await page.getByRole("listitem", { name: "Ivan Invitee", exact: true }).getByRole("link", { name: "Remove Ivan Invitee" }).click();
      await expect(confirmation(page)).toContainText("Remove Ivan Invitee?");
      await confirmation(page).getByRole("button", { name: "Remove member" }).click();
      await expect(page.getByRole("status")).toHaveText("Member removed.");
      await expect(page.getByRole("listitem", { name: "Ivan Invitee", exact: true })).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 2, name: "Members (1)" })).toBeVisible();
      await page.reload();
      await expect(page.getByRole("listitem", { name: "Ivan Invitee", exact: true })).toHaveCount(0);

      // The removed user no longer sees the workspace: 404, as if it did not exist.
      const response = await invitee.goto(`/w/${slug}`);
      expect(response?.status()).toBe(404);
      await waitForHydration(invitee, javaScriptEnabled);
      await expect(invitee.getByRole("alert")).toContainText("Workspace not found.");
      await expect(invitee.getByRole("link", { name: "Go to the start page" })).toBeVisible();
      await expect(invitee.locator("body")).not.toContainText("Team Rocket");

      // Someone invited who signs up without the link finds the invitation where they land, and joins in one click.
      const veraEmail = uniqueEmail(testInfo, "vera");
      await page.getByLabel("Email", { exact: true }).fill(veraEmail);
      await page.getByRole("button", { name: "Invite member" }).click();
      await expect(page.getByRole("status")).toContainText(`Invitation created for ${veraEmail}`);
      const vera = await inviteeContext.newPage();
      await inviteeContext.clearCookies();
      await signUp(vera, javaScriptEnabled, { name: "Vera Visitor", email: veraEmail, password: goodPassword });
      await expect(vera).toHaveURL("/w/new");
      const waiting = vera.getByRole("region", { name: "You are invited to a workspace" });
      await expect(waiting.getByRole("listitem", { name: "Team Rocket" })).toContainText("Olivia Owner invited you as member.");
      await waiting.getByRole("button", { name: "Join Team Rocket" }).click();
      await expect(vera).toHaveURL(`/w/${slug}`);
      await expect(vera.getByRole("status")).toHaveText("Welcome! You joined the workspace.");
      await expect(vera.getByRole("button", { name: "Workspace: Team Rocket" })).toBeVisible();
    } finally {
      await inviteeContext.close();
    }
  });

  test("account settings: change the name and the password", async ({ page, javaScriptEnabled }, testInfo) => {
    const email = uniqueEmail(testInfo, "sam");
    const newPassword = "a brand new passphrase 42";
    await signUp(page, javaScriptEnabled, { name: "Sam Settings", email, password: goodPassword });
    await expect(page).toHaveURL("/w/new");

    await (await openAccountMenu(page)).getByRole("link", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Account settings" })).toBeVisible();
    const name = page.getByLabel("Name", { exact: true });
    await expect(name).toHaveValue("Sam Settings");
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
    const formAlert = page.getByRole("main").getByRole("alert");

    // An empty name is refused, the email kept.
    await name.fill("");
    const rejectedProfile = nextPost(page, "/settings");
    await page.getByRole("button", { name: "Save profile" }).click();
    expect((await rejectedProfile).status()).toBe(400);
    await expect(name).toHaveAccessibleDescription("Enter a name.");
    await expect(formAlert).toHaveText("Please correct the field marked below.");
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);

    // The handle others mention: one from the email, offered at sign-up; a bad one is refused.
    const handle = page.getByLabel("Handle", { exact: true });
    await expect(handle).toHaveValue(email.split("@")[0]!.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 35).replace(/-+$/, ""));
    await name.fill("Samantha Settings");
    await handle.fill("sam--settings");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(handle).toHaveAccessibleDescription(/single hyphens/);
    const newHandle = `sam-${testInfo.workerIndex}-${Date.now().toString(36)}`;
    await handle.fill(newHandle);
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByRole("status")).toHaveText("Profile saved.");
    await expect(handle).toHaveValue(newHandle);
    await expect(signedInAs(page, "Samantha Settings")).toBeVisible();
    await expect(name).toHaveValue("Samantha Settings");
    // The refused attempt's errors are gone after the successful save.
    await expect(formAlert).toHaveCount(0);
    await expect(name).not.toHaveAttribute("aria-invalid", "true");

    // The time zone that times are shown in, chosen from the list and saved with the profile. (The
    // profile form's own POST: with JavaScript the browser may also have reported its zone.)
    const timeZone = page.getByLabel("Time zone", { exact: true });
    await timeZone.selectOption("Pacific/Auckland");
    const savedZone = page.waitForResponse(
      (response) => response.request().method() === "POST" && (response.request().postData() ?? "").includes("intent=profile"),
    );
    await page.getByRole("button", { name: "Save profile" }).click();
    expect((await savedZone).status()).toBeLessThan(400);
    await page.reload();
    await expect(timeZone).toHaveValue("Pacific/Auckland");
    await expect(name).toHaveValue("Samantha Settings");

    await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Password" }).click();
    await expect(page).toHaveURL("/settings/password");
    const posts = recordPosts(page);
    const current = page.getByLabel("Current password", { exact: true });
    const next = page.getByLabel("New password", { exact: true });
    await current.fill("not my password at all");
    await next.fill(newPassword);
    const response = nextPost(page, "/settings/password");
    await page.getByRole("button", { name: "Change password" }).click();
    expect((await response).status()).toBe(400);
    await expect(current).toHaveAccessibleDescription("That is not your current password.");
    await expect(current).toHaveAttribute("aria-invalid", "true");
    await expect(formAlert).toHaveText("Please correct the field marked below.");
    await expectPasswordNotEchoed(current, await response, "not my password at all", javaScriptEnabled);
    await expectPasswordNotEchoed(next, await response, newPassword, javaScriptEnabled);

    await current.fill(goodPassword);
    await next.fill(newPassword);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("status")).toHaveText("Password changed. Your other sessions were signed out.");
    // Likewise here, and the password fields are empty again.
    await expect(formAlert).toHaveCount(0);
    await expect(current).not.toHaveAttribute("aria-invalid", "true");
    await expect(current).toHaveValue("");
    await expect(next).toHaveValue("");
    // Emptied in the browser: the form sent nothing more (no reset intent carrying both passwords).
    expect(posts.map((post) => post.path)).toEqual(["/settings/password", "/settings/password"]);
    expect(posts.filter((post) => post.body.includes("__intent__"))).toEqual([]);

    // The old password no longer signs in; the new one does.
    await signOut(page);
    await signIn(page, javaScriptEnabled, email, goodPassword);
    await expect(page.getByRole("alert")).toContainText(incorrect);
    await fillSignIn(page, email, newPassword);
    await expect(page.getByRole("heading", { level: 1, name: "Your workspaces" })).toBeVisible();
    await expect(signedInAs(page, "Samantha Settings")).toBeVisible();
  });

  test("sign out other sessions ends the session in another browser", async ({ page, browser, cairn, javaScriptEnabled }, testInfo) => {
    const email = uniqueEmail(testInfo, "sessions");
    await signUp(page, javaScriptEnabled, { name: "Sid Sessions", email, password: goodPassword });
    await expect(page).toHaveURL("/w/new");

    const otherContext = await browser.newContext({ javaScriptEnabled, baseURL: cairn.server.url });
    try {
      const other = await otherContext.newPage();
      await signIn(other, javaScriptEnabled, email, goodPassword);
      await expect(signedInAs(other, "Sid Sessions")).toBeVisible();

      await page.goto("/settings/sessions");
      await waitForHydration(page, javaScriptEnabled);
      const sessions = page.getByRole("main").getByRole("listitem").filter({ hasText: "last active" });
      await expect(sessions).toHaveCount(2);
      await expect(sessions.filter({ hasText: "This session" })).toHaveCount(1);
      // Asked first: a dialog with JavaScript, a page without.
      await page.getByRole("link", { name: "Sign out other sessions" }).click();
      await expect(confirmation(page)).toContainText("Sign out the other session?");
      await confirmation(page).getByRole("button", { name: "Sign out other sessions" }).click();
      await expect(page.getByRole("status")).toHaveText("Signed out 1 other session.");
      await expect(sessions).toHaveCount(1);
      await expect(page.getByText("No other session is active.")).toBeVisible();

      // The other browser is signed out: its next request goes to the sign-in page.
      await other.goto("/settings");
      expect(loginTarget(other)).toEqual({ pathname: "/login", redirectTo: "/settings" });
      await expect(other.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
      await expect(other.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();

      // This one is still signed in.
      await page.goto("/settings");
      await expect(page.getByRole("heading", { level: 1, name: "Account settings" })).toBeVisible();
    } finally {
      await otherContext.close();
    }
  });
});
