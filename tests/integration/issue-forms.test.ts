/**
 * docs/product.md, Rules for what is submitted and §8 for the project and issue forms, driven by a browser without JavaScript: bad
 * input answers 400 with the same form, a message at each bad field and the typed values kept (a
 * stale version 409, an oversized body 413) — never a 500. SQLite: the rules do not depend on the
 * database.
 *
 *   acme:  Ada (owner), Max (member), Vic (viewer); project WEB with issue WEB-1; labels L1…L11.
 *   other: Oscar (owner), with the label "Foreign".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserlessClient, signUpOverHttp } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";


/** Form fields in order; a name may repeat (labelIds). */
type Fields = [name: string, value: string][];
type Answer = { status: number; location: string | null; body: string; requestId: string | null };

/** What the server rendered into an HTML attribute or text for a typed value. */
const html = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/**
 * The page as a browser without JavaScript shows it: without its scripts, whose hydration data
 * repeats every message of the action's result whether or not the page displays it.
 */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");

/** The value attribute of the input whose name is given, as the server rendered it. */
function inputValue(page: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`).exec(page)?.[0];
  return input ? /\bvalue="([^"]*)"/.exec(input)?.[1] : undefined;
}

/** The text of the textarea whose name is given. */
function textareaText(page: string, name: string): string | undefined {
  return new RegExp(`<textarea[^>]*\\bname="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(page)?.[1];
}

/** The option selected in the select whose name is given. */
function selected(page: string, name: string): string | undefined {
  const select = new RegExp(`<select[^>]*\\bname="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(page)?.[1];
  return /<option value="([^"]*)" selected="">/.exec(select ?? "")?.[1];
}

/** The label ids whose checkbox is ticked. */
function checkedLabels(page: string): string[] {
  return [...page.matchAll(/<input type="checkbox" name="labelIds"[^>]*>/g)]
    .filter(([input]) => input.includes('checked=""'))
    .map(([input]) => /value="(\d+)"/.exec(input)![1]!);
}

/** The title and description form of the issue page (open with `?edit=issue`, or as an answer to it); its id names the issue and version. */
function editForm(page: string): string {
  return /<form[^>]*id="edit-issue-\d+-\d+"[^>]*>[\s\S]*?<\/form>/.exec(page)?.[0] ?? "";
}

describe("bad input on the project and issue forms", () => {
  let database: TestDatabase;
  let server: RunningServer;
  const clients: Record<"ada" | "max" | "vic" | "oscar", BrowserlessClient> = {} as never;
  const ids = { vic: 0, oscar: 0, max: 0, foreignLabel: 0, labels: [] as number[] };
  const sent: { method: string; path: string; status: number; requestId: string | null }[] = [];

  async function send(client: BrowserlessClient, method: "GET" | "POST", path: string, fields: Fields | Record<string, string> = []): Promise<Answer> {
    // The client builds its body with `new URLSearchParams(fields)`, which takes repeated names
    // (labelIds) from a URLSearchParams as well as from a record.
    const body = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields));
    const response = method === "GET" ? await client.get(path) : await client.post(path, body);
    const answer = {
      status: response.status,
      location: response.headers.get("location"),
      body: await response.text(),
      requestId: response.headers.get("x-request-id"),
    };
    sent.push({ method, path, status: answer.status, requestId: answer.requestId });
    return answer;
  }
  const post = (path: string, fields: Fields | Record<string, string>, client = clients.ada) => send(client, "POST", path, fields);
  const get = (path: string, client = clients.ada) => send(client, "GET", path);

  function must(answer: Answer, status: number, what: string): Answer {
    if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.body.slice(0, 300)}`);
    return answer;
  }

  const signUp = (name: string, email: string) => signUpOverHttp(server.url, name, email);

  async function join(client: BrowserlessClient, email: string, role: string) {
    const invited = must(await post("/w/acme/settings/members", { intent: "invite", email, role }), 302, `invite ${email}`);
    const link = /Invitation link<input[^>]*value="([^"]+)"/.exec((await get(invited.location!)).body)?.[1];
    expect(link).toBeTruthy();
    expect((await client.post(new URL(link!).pathname, {})).status).toBe(302);
  }

  /** A member's user id, from their row's change-role form on the members page. */
  function userIdIn(page: string, name: string): number {
    return Number(new RegExp(`<li aria-label="${name}"[^>]*>[\\s\\S]*?name="userId" value="(\\d+)"`).exec(page)?.[1]);
  }

  function labelIdIn(page: string, name: string): number {
    return Number(new RegExp(`<li aria-label="${name}"[^>]*>[\\s\\S]*?name="labelId" value="(\\d+)"`).exec(page)?.[1]);
  }

  /** WEB-1's current version, from its edit form. */
  async function version(): Promise<string> {
    return inputValue(editForm(must(await get("/w/acme/p/WEB/issues/1?edit=issue"), 200, "WEB-1").body), "version")!;
  }

  /** The text of the property panel's row for `term` ("Priority"…), where a refused menu choice says why. */
  function propertyRow(page: string, term: string): string {
    return new RegExp(`<dt[^>]*>${term}</dt><dd[^>]*>([\\s\\S]*?)</dd>`).exec(page)?.[1] ?? "";
  }

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer(database.env);
    clients.ada = await signUp("Ada Admin", "ada@example.com");
    clients.max = await signUp("Max Member", "max@example.com");
    clients.vic = await signUp("Vic Viewer", "vic@example.com");
    clients.oscar = await signUp("Oscar Outsider", "oscar@example.com");
    must(await post("/w/new", { name: "Acme", slug: "acme" }), 302, "acme");
    must(await post("/w/new", { name: "Other", slug: "other" }, clients.oscar), 302, "other");
    await join(clients.max, "max@example.com", "member");
    await join(clients.vic, "vic@example.com", "viewer");

    const membersPage = (await get("/w/acme/settings/members")).body;
    ids.vic = userIdIn(membersPage, "Vic Viewer");
    ids.max = userIdIn(membersPage, "Max Member");
    ids.oscar = userIdIn((await get("/w/other/settings/members", clients.oscar)).body, "Oscar Outsider");

    must(await post("/w/other/settings/labels", { intent: "create", name: "Foreign", color: "red" }, clients.oscar), 302, "Foreign");
    ids.foreignLabel = labelIdIn((await get("/w/other/settings/labels", clients.oscar)).body, "Foreign");
    for (let n = 1; n <= 11; n++) must(await post("/w/acme/settings/labels", { intent: "create", name: `L${n}`, color: "blue" }), 302, `L${n}`);
    const labelsPage = (await get("/w/acme/settings/labels")).body;
    ids.labels = Array.from({ length: 11 }, (_, n) => labelIdIn(labelsPage, `L${n + 1}`));

    for (const id of [ids.vic, ids.max, ids.oscar, ids.foreignLabel, ...ids.labels]) expect(id).toBeGreaterThan(0);

    expect(must(await post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" }), 302, "WEB").location).toBe("/w/acme/p/WEB/issues");
    expect(must(await post("/w/acme/p/WEB/issues/new", { title: "First issue" }), 302, "WEB-1").location).toBe("/w/acme/p/WEB/issues/1");
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  describe("create project", () => {
    // [what, fields, messages, [field, typed value] pairs that must come back]
    const cases: [string, Record<string, string>, string[], [string, string][]][] = [
      ["an empty name", { name: "  ", key: "API", description: "Kept description" }, ["Enter a project name."], [["key", "API"]]],
      ["a key with a digit", { name: "Web 3", key: "W3B", description: "" }, ["Use 2 to 6 letters A–Z, like WEB."], [["name", "Web 3"], ["key", "W3B"]]],
      ["a key too long", { name: "Website", key: "WEBSITE", description: "" }, ["Use 2 to 6 letters A–Z, like WEB."], [["name", "Website"], ["key", "WEBSITE"]]],
      ["a key too short", { name: "Website", key: "W", description: "" }, ["Use 2 to 6 letters A–Z, like WEB."], [["key", "W"]]],
      ["a duplicate key in another case", { name: "Web again", key: "web", description: "" }, ["A project with this key already exists in this workspace."], [["name", "Web again"]]],
      ["a name of 81 characters", { name: "n".repeat(81), key: "LONG", description: "" }, ["Use at most 80 characters."], [["key", "LONG"]]],
      ["nothing at all", {}, ["Enter a project name.", "Enter a key."], []],
    ];

    it.each(cases)("%s → 400 with the message and the typed values", async (_what, fields, messages, kept) => {
      const answer = await post("/w/acme/projects/new", fields);
      expect(answer.status).toBe(400);
      expect(answer.body).toContain('role="alert"');
      for (const message of messages) expect(visible(answer.body)).toContain(html(message));
      for (const [name, value] of kept) expect(inputValue(visible(answer.body), name)).toBe(html(value));
      if (fields.description) expect(textareaText(visible(answer.body), "description")).toBe(fields.description);
    });

    it("created none of them", async () => {
      const page = (await get("/w/acme")).body;
      for (const key of ["API", "W3B", "LONG"]) expect((await get(`/w/acme/p/${key}/issues`)).status).toBe(404);
      expect(page).not.toContain("Web again");
    });
  });

  describe("project settings", () => {
    it("an empty name → 400 with the message and the description kept", async () => {
      const answer = await post("/w/acme/p/WEB/settings", { intent: "update", name: " ", description: "Typed description" });
      expect(answer.status).toBe(400);
      expect(visible(answer.body)).toContain("Enter a project name.");
      expect(textareaText(visible(answer.body), "description")).toBe("Typed description");
    });

    it.each([
      ["no intent", {}],
      ["an unknown intent", { intent: "explode" }],
      ["a description over 10,000 characters", { intent: "update", name: "Website", description: "d".repeat(10_001) }],
    ])("%s → 400", async (_what, fields) => {
      expect((await post("/w/acme/p/WEB/settings", fields)).status).toBe(400);
    });
  });

  // [what, fields (besides title/description when not given), messages, checks on the re-rendered form]
  type IssueCase = [what: string, fields: Fields, messages: string[], check: (form: string) => void];
  const title = (value: string): Fields => [["title", value]];
  const keptTitle = (form: string) => expect(inputValue(form, "title")).toBe("Kept title");
  const keptDescription = (form: string) => expect(textareaText(form, "description")).toBe("Kept description");
  const valid: Fields = [
    ["title", "Kept title"],
    ["description", "Kept description"],
  ];
  const issueCases = (): IssueCase[] => [
    ["an empty title", [...title("   "), ["description", "Kept description"]], ["Enter a title."], keptDescription],
    ["a title with a line break", [...title("Two\nlines"), ["description", "Kept description"]], ["Use a single line, without line breaks."], keptDescription],
    ["a title of 201 characters", [...title("t".repeat(201)), ["description", "Kept description"]], ["Use at most 200 characters."], (form) => {
      expect(inputValue(form, "title")).toBe("t".repeat(201));
      keptDescription(form);
    }],
    ["a description over 50,000 characters", [...title("Kept title"), ["description", "d".repeat(50_001)]], ["Use at most 50,000 characters."], (form) => {
      keptTitle(form);
      expect(textareaText(form, "description")).toBe("d".repeat(50_001));
    }],
    ["an unknown status", [...valid, ["status", "someday"]], ["Choose a status."], keptTitle],
    ["an unknown priority", [...valid, ["priority", "critical"]], ["Choose a priority."], keptTitle],
    ["a viewer as assignee", [...valid, ["assigneeId", String(ids.vic)]], ["Choose a member of this workspace who can work on issues."], (form) => {
      keptTitle(form);
      keptDescription(form);
    }],
    ["a non-member as assignee", [...valid, ["assigneeId", String(ids.oscar)]], ["Choose a member of this workspace who can work on issues."], keptTitle],
    ["assignee abc", [...valid, ["assigneeId", "abc"]], ["Choose a member."], keptTitle],
    ["an assignee beyond the id columns", [...valid, ["assigneeId", "2147483648"]], ["Choose a member."], keptTitle],
    ["another workspace's label", [...valid, ["labelIds", String(ids.labels[0])], ["labelIds", String(ids.foreignLabel)]], ["Choose labels of this workspace."], (form) => {
      keptTitle(form);
      expect(checkedLabels(form)).toEqual([String(ids.labels[0])]);
    }],
    ["11 labels", [...valid, ...ids.labels.map((id) => ["labelIds", String(id)] as [string, string])], ["An issue can have at most 10 labels."], (form) => {
      keptTitle(form);
      expect(checkedLabels(form).sort()).toEqual(ids.labels.map(String).sort());
    }],
    // A label id that is not a number cannot come from the form's checkboxes: 400, the title kept.
    ["a label id abc", [...valid, ["labelIds", "abc"]], [], keptTitle],
    ["due date 2026-02-30", [...valid, ["dueDate", "2026-02-30"]], ["That date does not exist."], (form) => {
      keptTitle(form);
      expect(inputValue(form, "dueDate")).toBe("2026-02-30");
    }],
    ["due date 1999-12-31", [...valid, ["dueDate", "1999-12-31"]], ["Choose a date between 2000-01-01 and 2100-12-31."], (form) => {
      expect(inputValue(form, "dueDate")).toBe("1999-12-31");
    }],
    ["due date 2101-01-01", [...valid, ["dueDate", "2101-01-01"]], ["Choose a date between 2000-01-01 and 2100-12-31."], keptTitle],
    ["due date tomorrow", [...valid, ["dueDate", "tomorrow"]], ["Use a date like 2026-12-31."], (form) => {
      keptTitle(form);
      expect(inputValue(form, "dueDate")).toBe("tomorrow");
    }],
    ["several bad fields at once", [...title(""), ["description", "Kept description"], ["priority", "critical"], ["dueDate", "tomorrow"]], ["Enter a title.", "Choose a priority.", "Use a date like 2026-12-31.", "Please correct the 3 fields marked below."], keptDescription],
  ];

  describe("new issue", () => {
    it.each(issueCases().map(([what]) => what))("%s → 400 with the messages and the typed values", async (what) => {
      const [, fields, messages, check] = issueCases().find(([w]) => w === what)!;
      const answer = await post("/w/acme/p/WEB/issues/new", fields);
      expect(answer.status, answer.body.slice(0, 300)).toBe(400);
      expect(answer.body).toContain('role="alert"');
      for (const message of messages) expect(visible(answer.body)).toContain(html(message));
      check(visible(answer.body));
    });

    it("filed none of them", async () => {
      const list = (await get("/w/acme/p/WEB/issues")).body.replaceAll("<!-- -->", "");
      expect(list).toMatch(/>Issues \(1\)</);
    });
  });

  describe("edit issue (intent=update)", () => {
    // The edit form has the title and the description; the other fields' messages are in its summary.
    it.each(issueCases().map(([what]) => what))("%s → 400 with the messages and the typed title and description", async (what) => {
      const [, fields, messages] = issueCases().find(([w]) => w === what)!;
      const before = await version();
      const answer = await post("/w/acme/p/WEB/issues/1", [["intent", "update"], ["version", before], ...fields]);
      expect(answer.status, answer.body.slice(0, 300)).toBe(400);
      const form = editForm(visible(answer.body));
      expect(form).toContain('role="alert"');
      for (const message of messages.filter((m) => !m.startsWith("Please correct"))) expect(form).toContain(html(message));
      const sent = new Map(fields);
      expect(inputValue(form, "title") ?? "").toBe(html(sent.get("title")!));
      expect(textareaText(form, "description")).toBe(html(sent.get("description")!));
      expect(await version()).toBe(before);
    });

    // A property menu posts only its field and the version: the message shows at the property, the editor stays closed.
    it.each([
      ["an unknown priority", "Priority", { priority: "critical" }, "Choose a priority."],
      ["a viewer as assignee", "Assignee", () => ({ assigneeId: String(ids.vic) }), "Choose a member of this workspace who can work on issues."],
      ["another workspace's label", "Labels", () => ({ labelIds: String(ids.foreignLabel) }), "Choose labels of this workspace."],
      ["due date 2026-02-30", "Due date", { dueDate: "2026-02-30" }, "That date does not exist."],
    ] as [string, string, Record<string, string> | (() => Record<string, string>), string][])(
      "a menu's %s → 400 with the message at %s",
      async (_what, term, fields, message) => {
        const before = await version();
        const answer = await post("/w/acme/p/WEB/issues/1", { intent: "update", version: before, ...(typeof fields === "function" ? fields() : fields) });
        expect(answer.status).toBe(400);
        const page = visible(answer.body);
        expect(editForm(page)).toBe("");
        expect(propertyRow(page, term)).toMatch(new RegExp(`role="alert"[^>]*>${html(message).replace(/[.?]/g, "\\$&")}<`));
        expect(await version()).toBe(before);
      },
    );

    it("a menu's change with a stale version → 409 with the conflict at the property", async () => {
      const stale = await version();
      must(await post("/w/acme/p/WEB/issues/1", { intent: "update", version: stale, priority: "low" }, clients.max), 302, "Max sets a priority");
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "update", version: stale, priority: "high" });
      expect(answer.status).toBe(409);
      expect(propertyRow(visible(answer.body), "Priority")).toContain("This issue was changed by Max Member since you opened it: priority.");
    });

    it("a stale version → 409 naming who changed what, with the typed values kept", async () => {
      const stale = await version();
      must(await post("/w/acme/p/WEB/issues/1", { intent: "update", version: stale, title: "Renamed by Max" }, clients.max), 302, "Max renames");
      const answer = await post("/w/acme/p/WEB/issues/1", [["intent", "update"], ["version", stale], ...valid, ["priority", "high"]]);
      expect(answer.status).toBe(409);
      const form = editForm(visible(answer.body));
      expect(form).toContain("This issue was changed by Max Member since you opened it: title.");
      keptTitle(form);
      keptDescription(form);
      expect(visible(answer.body)).toContain("Renamed by Max</h2>");
    });

    it("intent=status with a stale version → 409 naming who changed what", async () => {
      const stale = await version();
      must(await post("/w/acme/p/WEB/issues/1", { intent: "status", version: stale, status: "todo" }, clients.max), 302, "Max moves it");
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "status", version: stale, status: "done" });
      expect(answer.status).toBe(409);
      expect(visible(answer.body)).toContain("This issue was changed by Max Member since you opened it: status.");
    });

    it.each([
      ["a non-numeric version", [["intent", "update"], ["version", "abc"], ["title", "Kept title"]]],
      ["no version", [["intent", "update"], ["title", "Kept title"]]],
      ["a version of 0", [["intent", "update"], ["version", "0"], ["title", "Kept title"]]],
      ["a version of 1.5", [["intent", "update"], ["version", "1.5"], ["title", "Kept title"]]],
    ] as [string, Fields][])("%s → 400", async (_what, fields) => {
      const answer = await post("/w/acme/p/WEB/issues/1", fields);
      expect(answer.status).toBe(400);
      keptTitle(editForm(visible(answer.body)));
      // The version is a hidden field: its message is in the summary, not "the field marked below".
      expect(editForm(visible(answer.body))).toContain("Reload the issue and try again.");
      expect(editForm(visible(answer.body))).not.toContain("marked below");
    });

    it("a version beyond any saved one is a conflict or a refusal, never a 500", async () => {
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "update", version: "99999999999", title: "Kept title" });
      expect([400, 409]).toContain(answer.status);
    });
  });

  describe("status, comments and intents", () => {
    it("intent=status with an unknown status → 400 with the message", async () => {
      const before = await version();
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "status", version: before, status: "someday" });
      expect(answer.status).toBe(400);
      expect(visible(answer.body)).toContain("Choose a status.");
      expect(await version()).toBe(before);
    });

    it("the list's quick status with an unknown status → 400 with a message", async () => {
      // A row's menu button links to the list with that menu open: `?menu=status-<issue id>`.
      const issueId = /menu=status-(\d+)/.exec((await get("/w/acme/p/WEB/issues")).body)![1]!;
      const answer = await post("/w/acme/p/WEB/issues", { intent: "status", issueId, version: await version(), status: "someday" });
      expect(answer.status).toBe(400);
      expect(visible(answer.body)).toContain("Choose a status.");
      for (const fields of [
        { intent: "status", issueId: "abc", version: "1", status: "done" },
        { intent: "status", issueId, version: "abc", status: "done" },
        { intent: "dance", issueId, version: "1", status: "done" },
      ]) {
        expect((await post("/w/acme/p/WEB/issues", fields)).status).toBe(400);
      }
    });

    it("the list's quick status with a stale version → 409 above the list, naming the issue and who changed what", async () => {
      // The refused row may be gone from the reloaded list (filtered out): the message names the issue.
      const issueId = /menu=status-(\d+)/.exec((await get("/w/acme/p/WEB/issues")).body)![1]!;
      const stale = await version();
      must(await post("/w/acme/p/WEB/issues/1", { intent: "status", version: stale, status: "in_review" }, clients.max), 302, "Max moves it");
      const answer = await post("/w/acme/p/WEB/issues?status=todo", { intent: "status", issueId, version: stale, status: "done" });
      expect(answer.status).toBe(409);
      expect(visible(answer.body)).toMatch(/role="alert"[^>]*>WEB-1: This issue was changed by Max Member since you opened it: status\.</);
    });

    it("a board move to an unknown column → 400 with a message on the board", async () => {
      // A card's forms are in its "⋯" menu, on the page only when it is open (?menu=).
      const issueId = /name="issueId" value="(\d+)"/.exec((await get("/w/acme/p/WEB/board?menu=card-1")).body)![1]!;
      const answer = await post("/w/acme/p/WEB/board", { intent: "move", issueId, status: "someday", position: "0" });
      expect(answer.status).toBe(400);
      expect(visible(answer.body)).toContain("That move was not valid.");
    });

    it("intent=comment with an empty body → 400 with the message", async () => {
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "comment", body: " \n " });
      expect(answer.status).toBe(400);
      expect(visible(answer.body)).toContain("Write a comment.");
    });

    it("intent=comment over 10,000 characters → 400 with the message and the text kept", async () => {
      const body = `${"c".repeat(10_000)}!`;
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "comment", body });
      expect(answer.status).toBe(400);
      expect(visible(answer.body)).toContain("Use at most 10,000 characters.");
      expect(textareaText(visible(answer.body), "body")).toBe(body);
    });

    it("intent=edit-comment with an empty body → 400 with the message, the comment unchanged", async () => {
      must(await post("/w/acme/p/WEB/issues/1", { intent: "comment", body: "Ada was here" }), 302, "a comment");
      const page = (await get("/w/acme/p/WEB/issues/1")).body;
      const commentId = /<li aria-label="Comment by Ada Admin"[^>]*>[\s\S]*?name="commentId" value="(\d+)"/.exec(page)![1]!;
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "edit-comment", commentId, body: "  " });
      expect(answer.status).toBe(400);
      expect((await get("/w/acme/p/WEB/issues/1")).body).toContain("<p>Ada was here</p>");
      expect(visible(answer.body)).toContain("Write a comment.");
    });

    it.each([
      ["edit-comment with commentId abc", { intent: "edit-comment", commentId: "abc", body: "x" }],
      ["edit-comment with commentId -1", { intent: "edit-comment", commentId: "-1", body: "x" }],
      ["edit-comment with commentId 1.5", { intent: "edit-comment", commentId: "1.5", body: "x" }],
      ["edit-comment with commentId beyond the id columns", { intent: "edit-comment", commentId: "2147483648", body: "x" }],
      ["delete-comment with commentId abc", { intent: "delete-comment", commentId: "abc" }],
      ["delete-comment with no commentId", { intent: "delete-comment" }],
      ["status with version abc", { intent: "status", version: "abc", status: "done" }],
      ["status with no status", { intent: "status", version: "1" }],
      ["an unknown intent", { intent: "dance" }],
      ["no intent", { title: "x" }],
    ])("%s → 400, never 500", async (_what, fields) => {
      expect((await post("/w/acme/p/WEB/issues/1", fields)).status).toBe(400);
    });

    it("a comment id that does not exist → 404", async () => {
      expect((await post("/w/acme/p/WEB/issues/1", { intent: "edit-comment", commentId: "999999", body: "x" })).status).toBe(404);
      expect((await post("/w/acme/p/WEB/issues/1", { intent: "delete-comment", commentId: "999999" })).status).toBe(404);
    });
  });

  describe("the edit form's Write/Preview tabs without JavaScript (intent=preview|write)", () => {
    it("intent=preview → 200: the form again, the description rendered, what was typed kept, nothing saved", async () => {
      const before = await version();
      const description = "Now **bold** <script>alert(1)</script>";
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "preview", title: "Typed title", description });
      expect(answer.status).toBe(200);
      const form = editForm(visible(answer.body));
      expect(form).toMatch(/aria-label="Preview"[^>]*>[\s\S]*<strong>bold<\/strong>/);
      expect(form).not.toContain("<script>");
      expect(inputValue(form, "title")).toBe("Typed title");
      expect(textareaText(form, "description")).toBe(html(description));
      expect(await version()).toBe(before);
    });

    it("intent=write → 200: the form again with the text, no preview", async () => {
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "write", title: "Typed title", description: "Kept **text**" });
      expect(answer.status).toBe(200);
      const form = editForm(visible(answer.body));
      expect(form).not.toContain('aria-label="Preview"');
      expect(textareaText(form, "description")).toBe("Kept **text**");
    });

    it("a preview of a description over 50,000 characters → 400 with the message", async () => {
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "preview", title: "Typed title", description: "d".repeat(50_001) });
      expect(answer.status).toBe(400);
      expect(editForm(visible(answer.body))).toContain("Use at most 50,000 characters.");
    });

    it("a preview whose title has a control character → 400 with the message", async () => {
      const answer = await post("/w/acme/p/WEB/issues/1", { intent: "preview", title: "Bell\u0007", description: "x" });
      expect(answer.status).toBe(400);
      expect(editForm(visible(answer.body))).toContain("Remove the invisible control character (U+0007).");
    });

    it("a viewer may not preview (403), an empty title previews", async () => {
      expect((await post("/w/acme/p/WEB/issues/1", { intent: "preview", title: "x", description: "y" }, clients.vic)).status).toBe(403);
      expect((await post("/w/acme/p/WEB/issues/1", { intent: "preview", title: "", description: "" })).status).toBe(200);
    });
  });

  describe("the new issue's Write/Preview tabs without JavaScript (intent=preview|write)", () => {
    const issueCount = async () => /Issues \((\d+)\)/.exec((await get("/w/acme/p/WEB/issues")).body.replaceAll("<!-- -->", ""))?.[1];
    /** The new-issue form of a page. */
    const newIssueForm = (page: string) => /<form[^>]*action="\/w\/acme\/p\/WEB\/issues\/new"[^>]*>[\s\S]*?<\/form>/.exec(page)?.[0] ?? "";

    it("intent=preview → 200: the description rendered as the issue will show it, every field kept, nothing filed", async () => {
      const before = await issueCount();
      const description = "Hi @max, see WEB-1 **now** <script>alert(1)</script>";
      const answer = await post("/w/acme/p/WEB/issues/new", [
        ["intent", "preview"],
        ["title", ""],
        ["description", description],
        ["status", "todo"],
        ["priority", "high"],
        ["assigneeId", String(ids.max)],
        ["labelIds", ""],
        ["labelIds", String(ids.labels[1])],
        ["dueDate", "2030-01-31"],
        ["parent", "WEB-1"],
      ]);
      expect(answer.status).toBe(200);
      const form = newIssueForm(visible(answer.body));
      const preview = /aria-label="Preview"[^>]*>([\s\S]*?)<\/section>/.exec(form)?.[1] ?? "";
      expect(preview).toContain("<strong>now</strong>");
      expect(preview).toMatch(new RegExp(`<a [^>]*href="/w/acme/p/WEB/issues\\?assignee=${ids.max}"[^>]*>@max</a>`));
      expect(preview).toMatch(/<a [^>]*href="\/w\/acme\/p\/WEB\/issues\/1"[^>]*>WEB-1<\/a>/);
      expect(preview).not.toContain("<script>");
      expect(textareaText(form, "description")).toBe(html(description));
      expect(inputValue(form, "title") ?? "").toBe("");
      expect(selected(form, "status")).toBe("todo");
      expect(selected(form, "priority")).toBe("high");
      expect(selected(form, "assigneeId")).toBe(String(ids.max));
      expect(checkedLabels(form)).toEqual([String(ids.labels[1])]);
      expect(inputValue(form, "dueDate")).toBe("2030-01-31");
      expect(inputValue(form, "parent")).toBe("WEB-1");
      expect(form).not.toContain('role="alert"');
      expect(await issueCount()).toBe(before);
    });

    it("intent=write → 200: the text again, no preview", async () => {
      const answer = await post("/w/acme/p/WEB/issues/new", { intent: "write", title: "Typed title", description: "Kept **text**" });
      expect(answer.status).toBe(200);
      const form = newIssueForm(visible(answer.body));
      expect(form).not.toContain('aria-label="Preview"');
      expect(inputValue(form, "title")).toBe("Typed title");
      expect(textareaText(form, "description")).toBe("Kept **text**");
    });

    it("files chosen before a preview cannot come back: the page names them, and nothing is filed or uploaded", async () => {
      const before = await issueCount();
      const files = new FormData();
      for (const [name, value] of Object.entries({ intent: "preview", title: "With files", description: "See the logs" })) files.append(name, value);
      files.append("file", new File(["log line"], "server.log", { type: "text/plain" }));
      files.append("file", new File(["more"], "trace.txt", { type: "text/plain" }));
      const response = await clients.ada.postMultipart("/w/acme/p/WEB/issues/new", files);
      expect(response.status).toBe(200);
      const form = newIssueForm(visible(await response.text()));
      expect(form).toContain(html("Choose “server.log” and “trace.txt” again: a preview without JavaScript cannot keep chosen files."));
      expect(inputValue(form, "title")).toBe("With files");
      expect(await issueCount()).toBe(before);
    });

    it("a preview of a description over 50,000 characters → 400 with the message; a viewer may not preview (403)", async () => {
      const answer = await post("/w/acme/p/WEB/issues/new", { intent: "preview", title: "x", description: "d".repeat(50_001) });
      expect(answer.status).toBe(400);
      expect(visible(answer.body)).toContain("Use at most 50,000 characters.");
      expect((await post("/w/acme/p/WEB/issues/new", { intent: "preview", title: "x", description: "y" }, clients.vic)).status).toBe(403);
    });
  });

  describe("request bodies over 1 MiB", () => {
    const big = "d".repeat(1024 * 1024 + 1);

    it("a form of more than 1 MiB → 413 with the limit, filing nothing", async () => {
      const answer = await post("/w/acme/p/WEB/issues/new", { title: "Huge", description: big });
      expect(answer.status).toBe(413);
      expect(answer.body).toContain("That is too large.");
      expect(answer.body).toContain("1 MiB");
      const comment = await post("/w/acme/p/WEB/issues/1", { intent: "comment", body: big });
      expect(comment.status).toBe(413);
      expect((await get("/w/acme/p/WEB/issues")).body).not.toContain(">Huge<");
    });

    it("a body sent without Content-Length (chunked) → 411, before it is read", async () => {
      // A valid issue plus a field the form ignores, so that only the size is wrong.
      const bytes = new TextEncoder().encode(new URLSearchParams({ title: "Chunked", padding: big }).toString());
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024));
          controller.close();
        },
      });
      const response = await fetch(new URL("/w/acme/p/WEB/issues/new", server.url), {
        method: "POST",
        redirect: "manual",
        headers: { cookie: clients.ada.cookieHeader(), origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: stream,
        duplex: "half",
      } as RequestInit & { duplex: "half" });
      sent.push({ method: "POST", path: "/w/acme/p/WEB/issues/new (chunked)", status: response.status, requestId: response.headers.get("x-request-id") });
      await response.text();
      // A body must say its length so that the 1 MiB limit holds before anything is read.
      expect(response.status).toBe(411);
      expect((await get("/w/acme/p/WEB/issues")).body).not.toContain(">Chunked<");
    });
  });

  it("answered no request with a 500 and logged no error", async () => {
    expect(sent.length).toBeGreaterThan(60);
    expect(sent.filter((s) => s.status >= 500)).toEqual([]);
    const ours = new Set(sent.map((s) => s.requestId));
    await expect.poll(() => server.logs.some((line) => line.reqId === sent.at(-1)!.requestId && line.msg === "request completed")).toBe(true);
    expect(server.logs.filter((line) => ours.has(line.reqId as string) && typeof line.level === "number" && line.level >= 50)).toEqual([]);
  });
});
