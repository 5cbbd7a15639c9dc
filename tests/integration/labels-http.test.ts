/**
 * Workspace labels over HTTP against the production server, driven as a browser without
 * JavaScript would: form posts, redirects not followed, a cookie jar per person.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient, signUpOverHttp } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const labelsPath = "/w/acme/settings/labels";
const forbidden = "You don&#x27;t have permission to do that.";

/** The `<li aria-label=…>` of one label on the labels page. */
function labelRow(html: string, name: string): string | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`<li aria-label="${escaped}"[^>]*>([\\s\\S]*?)</li>`).exec(html)?.[1];
}

function labelIdOf(html: string, name: string): number {
  const id = Number(/name="labelId" value="(\d+)"/.exec(labelRow(html, name) ?? "")?.[1]);
  if (!(id > 0)) throw new Error(`no label ${name} on the page`);
  return id;
}

/** The value of the input with this id, as the server rendered it. */
function inputValue(html: string, id: string): string | undefined {
  const input = new RegExp(`<input[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  return input ? /\bvalue="([^"]*)"/.exec(input)?.[1] : undefined;
}

/** The option selected in the select with this id. */
function selectedOption(html: string, id: string): string | undefined {
  const select = new RegExp(`<select[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1];
  return /<option value="([^"]*)" selected="">/.exec(select ?? "")?.[1];
}

describe.each(testDialects)("labels over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let owner: BrowserlessClient;
  let member: BrowserlessClient;
  let outsider: BrowserlessClient;

  const signUp = (name: string, email: string) => signUpOverHttp(server.url, name, email);

  async function page(client = owner): Promise<string> {
    const response = await client.get(labelsPath);
    expect(response.status).toBe(200);
    return response.text();
  }

  /** Posts the labels form and follows the redirect back to the page, whose flash says what happened. */
  async function submit(fields: Record<string, string>): Promise<string> {
    const response = await owner.post(labelsPath, fields);
    expect(response.status, await response.clone().text()).toBe(302);
    expect(response.headers.get("location")).toBe(labelsPath);
    return page();
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    owner = await signUp("Olivia Owner", "olivia@example.com");
    expect((await owner.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);

    // Mia joins acme as a member, through an invitation link from the members page's flash.
    const invited = await owner.post("/w/acme/settings/members", { intent: "invite", email: "mia@example.com", role: "member" });
    expect(invited.status).toBe(302);
    const membersPage = await (await owner.get(invited.headers.get("location")!)).text();
    const link = /Invitation link<input[^>]*value="([^"]+)"/.exec(membersPage)?.[1];
    expect(link).toBeTruthy();
    member = await signUp("Mia Member", "mia@example.com");
    const accepted = await member.post(new URL(link!).pathname, {});
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe("/w/acme");

    outsider = await signUp("Oscar Outsider", "oscar@example.com");
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("shows an empty list and the create form to an owner", async () => {
    const html = await page();
    expect(html).toContain("No labels yet.");
    expect(html).toMatch(/<label[^>]*for="create-label-name"[^>]*>Label name<\/label>/);
    expect(html).toMatch(/<label[^>]*for="create-label-color"[^>]*>Color<\/label>/);
    expect(html).toMatch(/<button[^>]*value="create"[^>]*>Create label<\/button>/);
  });

  it("creates a label, which the page then lists with its chip and an edit form", async () => {
    const html = await submit({ intent: "create", name: "  Bug  ", color: "red" });
    expect(html).toContain("Label created.");
    const row = labelRow(html, "Bug");
    expect(row).toBeDefined();
    // Its chip in its colour (the chip-<color> component class of app/styles/shell.css).
    expect(row).toMatch(/<span class="[^"]*\bchip-red\b[^"]*">Bug<\/span>/);
    const id = labelIdOf(html, "Bug");
    expect(inputValue(html, `label-${id}-name`)).toBe("Bug");
    expect(selectedOption(html, `label-${id}-color`)).toBe("red");
    expect(row).toMatch(/<label[^>]*>Label name<\/label>/);
    expect(row).toMatch(/<label[^>]*>Color<\/label>/);
    expect(row).toMatch(/<button[^>]*value="update"[^>]*>Save<\/button>/);
    // The row is one line whose edit form opens in place; deleting asks first, so the row has no delete button.
    expect(row).toMatch(/<summary[^>]*aria-label="Edit label Bug"/);
    expect(row).not.toMatch(/value="delete"/);
    expect(row).toContain(`href="${labelsPath}?confirm=delete-label-${id}"`);
    // The create form starts empty again.
    expect(inputValue(html, "create-label-name")).toBeUndefined();
  });

  it("rejects bad input with 400, keeping what was typed", async () => {
    const tooLong = "x".repeat(33);
    const cases: [Record<string, string>, string][] = [
      [{ intent: "create", name: tooLong, color: "blue" }, "Use at most 32 characters."],
      [{ intent: "create", name: "   ", color: "blue" }, "Enter a label name."],
      [{ intent: "create", name: "Docs", color: "chartreuse" }, "Choose a color."],
    ];
    for (const [fields, message] of cases) {
      const response = await owner.post(labelsPath, fields);
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(html).toContain(message);
      expect(html).toContain("Please correct the field marked below.");
      if (fields.name!.trim()) expect(inputValue(html, "create-label-name")).toBe(fields.name);
    }
  });

  it("refuses a name that exists ignoring case, on create and on rename", async () => {
    await submit({ intent: "create", name: "Docs", color: "teal" });
    const created = await owner.post(labelsPath, { intent: "create", name: "bUG", color: "green" });
    expect(created.status).toBe(400);
    const createHtml = await created.text();
    expect(createHtml).toContain("A label with this name already exists.");
    expect(inputValue(createHtml, "create-label-name")).toBe("bUG");
    expect(selectedOption(createHtml, "create-label-color")).toBe("green");

    const docs = labelIdOf(createHtml, "Docs");
    const renamed = await owner.post(labelsPath, { intent: "update", labelId: String(docs), name: "BUG", color: "purple" });
    expect(renamed.status).toBe(400);
    const renameHtml = await renamed.text();
    expect(renameHtml).toContain("A label with this name already exists.");
    // Only the submitted row shows the error and keeps the typed values.
    expect(inputValue(renameHtml, `label-${docs}-name`)).toBe("BUG");
    expect(selectedOption(renameHtml, `label-${docs}-color`)).toBe("purple");
    expect(inputValue(renameHtml, "create-label-name")).toBeUndefined();
    const bug = labelIdOf(renameHtml, "Bug");
    expect(inputValue(renameHtml, `label-${bug}-name`)).toBe("Bug");
  });

  it("renames and recolors a label", async () => {
    const docs = labelIdOf(await page(), "Docs");
    const html = await submit({ intent: "update", labelId: String(docs), name: "Documentation", color: "indigo" });
    expect(html).toContain("Label saved.");
    expect(labelRow(html, "Docs")).toBeUndefined();
    expect(labelIdOf(html, "Documentation")).toBe(docs);
    expect(selectedOption(html, `label-${docs}-color`)).toBe("indigo");
    expect(labelRow(html, "Documentation")).toContain("chip-indigo");
  });

  it("rejects a bad rename with 400, keeping it in that row's form", async () => {
    const bug = labelIdOf(await page(), "Bug");
    const response = await owner.post(labelsPath, { intent: "update", labelId: String(bug), name: "y".repeat(40), color: "red" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Use at most 32 characters.");
    expect(inputValue(html, `label-${bug}-name`)).toBe("y".repeat(40));
  });

  it("answers 404 for a label that is not in this workspace", async () => {
    const attempts: Record<string, string>[] = [
      { intent: "update", labelId: "999999", name: "Ghost", color: "red" },
      { intent: "delete", labelId: "999999" },
    ];
    for (const fields of attempts) {
      const response = await owner.post(labelsPath, fields);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("Label not found.");
    }

    // A label of Olivia's other workspace cannot be reached through acme's page.
    expect((await owner.post("/w/new", { name: "Other", slug: "other" })).status).toBe(302);
    expect((await owner.post("/w/other/settings/labels", { intent: "create", name: "Theirs", color: "pink" })).status).toBe(302);
    const theirs = labelIdOf(await (await owner.get("/w/other/settings/labels")).text(), "Theirs");
    expect((await owner.post(labelsPath, { intent: "update", labelId: String(theirs), name: "Mine", color: "red" })).status).toBe(404);
    expect((await owner.post(labelsPath, { intent: "delete", labelId: String(theirs) })).status).toBe(404);
    expect(labelRow(await (await owner.get("/w/other/settings/labels")).text(), "Theirs")).toBeDefined();
  });

  it("asks before deleting a label, on a page of its own without JavaScript, then deletes it", async () => {
    const docs = labelIdOf(await page(), "Documentation");
    const asking = await owner.get(`${labelsPath}?confirm=delete-label-${docs}`);
    expect(asking.status).toBe(200);
    const question = /<section role="alertdialog"[\s\S]*?<\/section>/.exec(await asking.text())?.[0];
    expect(question).toContain("Delete the label Documentation?");
    expect(question).toMatch(new RegExp(`name="labelId" value="${docs}"`));
    expect(question).toMatch(/<button[^>]*value="delete"[^>]*>Delete label<\/button>/);
    expect(question).toContain(`href="${labelsPath}"`);
    const html = await submit({ intent: "delete", labelId: String(docs) });
    expect(html).toContain("Label deleted.");
    expect(labelRow(html, "Documentation")).toBeUndefined();
    expect(labelRow(html, "Bug")).toBeDefined();
  });

  it("refuses the 101st label with a form error", async () => {
    const existing = (await page()).match(/<li aria-label=/g)?.length ?? 0;
    for (let i = existing + 1; i <= 100; i++) {
      expect((await owner.post(labelsPath, { intent: "create", name: `Label ${i}`, color: "gray" })).status).toBe(302);
    }
    const response = await owner.post(labelsPath, { intent: "create", name: "One too many", color: "gray" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toMatch(/role="alert"[^>]*>\s*<p>A workspace can have at most 100 labels\. Delete one to make room\.<\/p>/);
    expect(inputValue(html, "create-label-name")).toBe("One too many");
    expect(html).toContain("Labels (100 of 100)");
  });

  it("is forbidden to a member: 403 on GET and POST, and nothing changes", async () => {
    const read = await member.get(labelsPath);
    expect(read.status).toBe(403);
    expect(await read.text()).toContain(forbidden);

    const bug = labelIdOf(await page(), "Bug");
    const attempts: Record<string, string>[] = [
      { intent: "create", name: "Sneaky", color: "red" },
      { intent: "update", labelId: String(bug), name: "Sneaky", color: "red" },
      { intent: "delete", labelId: String(bug) },
    ];
    for (const fields of attempts) {
      const response = await member.post(labelsPath, fields);
      expect(response.status).toBe(403);
      expect(await response.text()).toContain(forbidden);
    }
    const html = await page();
    expect(labelRow(html, "Sneaky")).toBeUndefined();
    expect(labelRow(html, "Bug")).toBeDefined();
  });

  it("sends someone signed out to sign in, and hides the workspace from a non-member", async () => {
    const signedOut = await new BrowserlessClient(server.url).get(labelsPath);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe(`/login?${new URLSearchParams({ redirectTo: labelsPath })}`);
    expect((await outsider.get(labelsPath)).status).toBe(404);
    expect((await outsider.post(labelsPath, { intent: "create", name: "Sneaky", color: "red" })).status).toBe(404);
  });
});
