/**
 * The JSON API (issue 15) over HTTP on every database: bearer tokens and nothing else, every
 * resource and role, paging, conflicts, odd input, rate limits, and the OpenAPI document — checked
 * by a parser, with every answer of these tests validated against its schemas.
 */
import { validate as validateOpenApi } from "@readme/openapi-parser";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/auth/api-tokens.server";
import type { ApiTokenScope } from "~/db/schema";
import type { DatabaseHandle } from "~/db/database.server";
import { createIssue } from "~/issues/issues.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { issueFields } from "../support/issues";
import { type RunningServer, startServer } from "../support/server";
import { seedTestWorkspace } from "../support/workspaces";

const t0 = new Date(Date.UTC(2026, 10, 20, 9, 0));

type Answer = { status: number; headers: Headers; body: any };

describe.each(testDialects)("the API on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let handle: DatabaseHandle;
  let seeded: Awaited<ReturnType<typeof seedAcme>>;
  let other: Awaited<ReturnType<typeof seedOther>>;
  const tokens: Record<string, string> = {};
  let schemaOf: (name: string) => ValidateFunction;

  const seedAcme = (db: DatabaseHandle["db"]) =>
    seedTestWorkspace(db, {
      slug: "acme",
      name: "Acme",
      at: t0,
      members: { "Ada Owner": "owner", "Grace Admin": "admin", "Linus Member": "member", "Vera Viewer": "viewer" },
      projects: { WEB: "Web app", OPS: "Operations" },
      labels: { Bug: "red", Feature: "blue" },
    });
  const seedOther = (db: DatabaseHandle["db"]) =>
    seedTestWorkspace(db, { slug: "globex", at: t0, members: { "Olga Outsider": "owner" }, projects: { SEC: "Secret" }, labels: { Hidden: "gray" } });

  const token = async (userId: number, scope: ApiTokenScope, name = "test") => {
    const made = await createApiToken(handle.db, { userId, name, scope, expiresInDays: null, now: new Date() });
    if (!made.ok) throw new Error(made.message);
    return made.token;
  };

  /** One API call; every 2xx answer must match the document's schema for it. */
  async function call(who: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(new URL(`/api/v1${path}`, server.url), {
      method,
      headers: {
        ...(who ? { Authorization: `Bearer ${tokens[who] ?? who}` } : {}),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.headers.get("content-type"), `${method} ${path}`).toMatch(/^application\/json/);
    const parsed = JSON.parse(text);
    if (response.status >= 400) expect(schemaOf("Error")(parsed), `${method} ${path}: ${text}`).toBe(true);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  const expectValid = (name: string, value: unknown) => {
    const validate = schemaOf(name);
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  };

  const refused = (answer: Answer, status: number, code: string) => {
    expect({ status: answer.status, code: answer.body.error?.code }, JSON.stringify(answer.body)).toEqual({ status, code });
    return answer.body.error as { message: string; fields?: Record<string, string[]> };
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer({ ...database.env });
    handle = database.open();
    seeded = await seedAcme(handle.db);
    other = await seedOther(handle.db);
    const { users } = seeded;
    tokens.owner = await token(users["Ada Owner"], "write");
    tokens.admin = await token(users["Grace Admin"], "write");
    tokens.member = await token(users["Linus Member"], "write");
    tokens.memberRead = await token(users["Linus Member"], "read");
    tokens.viewer = await token(users["Vera Viewer"], "write");
    tokens.outsider = await token(other.users["Olga Outsider"], "write");

    const document = await (await fetch(new URL("/api/v1/openapi.json", server.url))).json();
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: "https://cairn.test/openapi", ...document });
    schemaOf = (name) => ajv.getSchema(`https://cairn.test/openapi#/components/schemas/${name}`)!;
  });

  afterAll(async () => {
    await server?.stop();
    await handle?.db.destroy();
    await database?.drop();
  });

  it("publishes an OpenAPI 3.1 document that a parser validates, and a reference page without JavaScript", async () => {
    const response = await fetch(new URL("/api/v1/openapi.json", server.url));
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    const result = await validateOpenApi(structuredClone(document));
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(Object.keys(document.paths)).toEqual([
      "/user",
      "/workspaces",
      "/workspaces/{workspace}/projects",
      "/workspaces/{workspace}/labels",
      "/workspaces/{workspace}/members",
      "/workspaces/{workspace}/projects/{key}/issues",
      "/workspaces/{workspace}/projects/{key}/issues/{number}",
      "/workspaces/{workspace}/projects/{key}/issues/{number}/comments",
    ]);
    // The body schemas carry the forms' rules.
    expect(document.components.schemas.NewIssue.properties.title).toMatchObject({ type: "string", minLength: 1, maxLength: 200 });
    expect(document.components.schemas.NewIssue.required).toEqual(["title"]);
    expect(document.components.schemas.IssuePatch.required).toEqual(["version"]);

    const page = await fetch(new URL("/api", server.url));
    expect(page.status).toBe(200);
    const html = (await page.text()).replaceAll("<!-- -->", "");
    for (const text of ["Cairn API", "600 requests a minute", "List issues", "Update an issue", "/workspaces/{workspace}/projects/{key}/issues/{number}", "rate_limited", "Authorization: Bearer"]) {
      expect(html).toContain(text);
    }
  });

  it("authenticates by bearer token only: none, malformed, unknown, revoked, expired and a session cookie are 401", async () => {
    refused(await call(null, "GET", "/user"), 401, "unauthenticated");
    for (const bad of ["nope", `cairn_pat_${"a".repeat(40)}`, tokens.owner!.slice(0, -1)]) refused(await call(bad, "GET", "/user"), 401, "unauthenticated");
    const basic = await call(null, "GET", "/user", undefined, { Authorization: `Basic ${btoa("ada:x")}` });
    refused(basic, 401, "unauthenticated");
    expect(basic.headers.get("www-authenticate")).toBe('Bearer realm="Cairn"');

    const revoked = await token(seeded.users["Ada Owner"], "read", "revoked");
    expect((await call(revoked, "GET", "/user")).status).toBe(200);
    await handle.db.updateTable("api_tokens").set({ revoked_at: new Date().toISOString() }).where("name", "=", "revoked").execute();
    refused(await call(revoked, "GET", "/user"), 401, "unauthenticated");
    const expired = await token(seeded.users["Ada Owner"], "read", "expired");
    await handle.db.updateTable("api_tokens").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("name", "=", "expired").execute();
    const answer = await call(expired, "GET", "/user");
    refused(answer, 401, "unauthenticated");
    expect(answer.headers.get("www-authenticate")).toContain('error="invalid_token"');

    // A signed-in browser's cookie opens the pages, never the API — even from another site, which the API does not refuse as it has no cookie to forge.
    const browser = new BrowserlessClient(server.url);
    expect((await browser.post("/signup", { name: "Cookie", email: "cookie@example.com", password: "correct horse battery" })).status).toBe(302);
    const withCookie = await fetch(new URL("/api/v1/user", server.url), { headers: { cookie: browser.cookieHeader() } });
    expect(withCookie.status).toBe(401);
    const crossSite = await call("member", "POST", "/workspaces/acme/projects/WEB/issues/999/comments", { body: "x" }, { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" });
    refused(crossSite, 404, "not_found");
  });

  it("answers the user, their workspaces, and a workspace's projects, labels and members; another workspace is 404", async () => {
    const user = await call("member", "GET", "/user");
    expect(user.status).toBe(200);
    expectValid("User", user.body);
    expect(user.body).toMatchObject({ id: seeded.users["Linus Member"], name: "Linus Member", email: "linus@example.com" });
    expect(user.headers.get("cache-control")).toBe("private, no-store");

    const workspaces = await call("member", "GET", "/workspaces");
    expect(workspaces.body.data).toEqual([{ id: seeded.id, slug: "acme", name: "Acme", role: "member", url: `${server.url}/w/acme` }]);
    workspaces.body.data.forEach((w: unknown) => expectValid("Workspace", w));

    const projects = await call("viewer", "GET", "/workspaces/acme/projects");
    expect(projects.body.data.map((p: { key: string }) => p.key)).toEqual(["OPS", "WEB"]);
    projects.body.data.forEach((p: unknown) => expectValid("Project", p));
    const labels = await call("viewer", "GET", "/workspaces/acme/labels");
    expect(labels.body.data).toEqual([
      { id: seeded.labels.Bug, name: "Bug", color: "red" },
      { id: seeded.labels.Feature, name: "Feature", color: "blue" },
    ]);
    const members = await call("viewer", "GET", "/workspaces/acme/members");
    expect(members.body.data.map((m: { name: string; role: string }) => `${m.name}:${m.role}`)).toEqual(["Ada Owner:owner", "Grace Admin:admin", "Linus Member:member", "Vera Viewer:viewer"]);
    expect(JSON.stringify(members.body)).not.toContain("@example.com");
    members.body.data.forEach((m: unknown) => expectValid("Member", m));

    for (const path of ["/workspaces/globex/projects", "/workspaces/globex/labels", "/workspaces/globex/members", "/workspaces/nope/projects", "/workspaces/%00/labels", "/workspaces/globex/projects/SEC/issues"]) {
      refused(await call("member", "GET", path), 404, "not_found");
    }
    refused(await call("outsider", "GET", "/workspaces/acme/projects/WEB/issues"), 404, "not_found");
    refused(await call("member", "GET", "/workspaces/acme/projects/NOPE/issues"), 404, "not_found");
    refused(await call("member", "GET", "/workspaces/acme/projects/W3B!/issues"), 404, "not_found");
    refused(await call("member", "GET", "/nothing/here"), 404, "not_found");
    // The API's root names no resource either, with or without its slash.
    refused(await call("member", "GET", ""), 404, "not_found");
    refused(await call("member", "GET", "/"), 404, "not_found");
    const wrongMethod = await call("owner", "DELETE", "/user");
    refused(wrongMethod, 405, "method_not_allowed");
    expect(wrongMethod.headers.get("allow")).toBe("GET");
  });

  it("creates, reads and updates issues with the forms' rules and roles, and refuses a stale version with who changed what", async () => {
    const base = "/workspaces/acme/projects/WEB/issues";
    const created = await call("member", "POST", base, {
      title: "  Fix the login redirect  ",
      description: "After signing in, @grace lands on /.",
      priority: "high",
      assigneeId: seeded.users["Linus Member"],
      labelIds: [seeded.labels.Bug],
      dueDate: "2026-12-31",
    });
    expect(created.status).toBe(201);
    expectValid("Issue", created.body);
    expect(created.body).toMatchObject({
      key: "WEB-1",
      number: 1,
      title: "Fix the login redirect",
      status: "backlog",
      priority: "high",
      assignee: { id: seeded.users["Linus Member"], name: "Linus Member", handle: "linus" },
      labels: [{ id: seeded.labels.Bug, name: "Bug", color: "red" }],
      dueDate: "2026-12-31",
      closedAt: null,
      version: 1,
      url: `${server.url}/w/acme/p/WEB/issues/1`,
    });
    expect(created.headers.get("location")).toBe(`${server.url}/w/acme/p/WEB/issues/1`);
    // The same write path as the forms: the mention notified Grace.
    const inbox = await handle.db.selectFrom("notifications").select(["user_id", "reason"]).where("issue_id", "=", created.body.id).execute();
    expect(inbox).toEqual([{ user_id: seeded.users["Grace Admin"], reason: "mentioned" }]);

    refused(await call("memberRead", "POST", base, { title: "Read tokens cannot" }), 403, "forbidden");
    refused(await call("viewer", "POST", base, { title: "Viewers cannot" }), 403, "forbidden");
    expect((await call("admin", "POST", base, { title: "Admins can" })).status).toBe(201);

    const odd: [unknown, string][] = [
      [{ title: "" }, "title"],
      [{ title: "x".repeat(201) }, "title"],
      [{ title: "Two\nlines" }, "title"],
      [{ title: "Bidi \u202e" }, "title"],
      [{}, "title"],
      [{ title: "x", status: "nope" }, "status"],
      [{ title: "x", priority: 3 }, "priority"],
      [{ title: "x", assigneeId: "2" }, "assigneeId"],
      [{ title: "x", assigneeId: seeded.users["Vera Viewer"] }, "assigneeId"],
      [{ title: "x", assigneeId: other.users["Olga Outsider"] }, "assigneeId"],
      [{ title: "x", assigneeId: 2 ** 40 }, "assigneeId"],
      [{ title: "x", labelIds: [other.labels.Hidden] }, "labelIds"],
      [{ title: "x", labelIds: Array.from({ length: 11 }, (_, i) => i + 1) }, "labelIds"],
      [{ title: "x", dueDate: "2026-02-30" }, "dueDate"],
      [{ title: "x", dueDate: "" }, "dueDate"],
      [{ title: "x", description: "x".repeat(50_001) }, "description"],
      [{ title: "x", titel: "typo" }, "body"],
      [{ title: "\ud800" }, "title"],
      [[], "body"],
      ["null", "body"],
    ];
    for (const [body, field] of odd) {
      const error = refused(await call("member", "POST", base, body), 400, "validation");
      expect(Object.keys(error.fields ?? {}), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    refused(await call("member", "POST", base, "{not json"), 400, "validation");
    refused(await call("member", "POST", base, "title=x", { "Content-Type": "application/x-www-form-urlencoded" }), 415, "unsupported_media_type");
    const big = await fetch(new URL(`/api/v1${base}`, server.url), {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.member}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "big", description: "x".repeat(1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe("payload_too_large");
    expect(await handle.db.selectFrom("issues").select("title").where("project_id", "=", seeded.projects.WEB.id).orderBy("number").execute()).toEqual([
      { title: "Fix the login redirect" },
      { title: "Admins can" },
    ]);

    const read = await call("viewer", "GET", `${base}/1`);
    expect(read.body).toEqual(created.body);
    for (const path of [`${base}/3`, `${base}/0`, `${base}/abc`, `${base}/99999999999`, "/workspaces/acme/projects/OPS/issues/1"]) refused(await call("viewer", "GET", path), 404, "not_found");

    const saved = await call("admin", "PATCH", `${base}/1`, { version: 1, status: "in_progress", assigneeId: null, labelIds: [seeded.labels.Feature, seeded.labels.Bug] });
    expect(saved.status).toBe(200);
    expectValid("Issue", saved.body);
    expect(saved.body).toMatchObject({ status: "in_progress", assignee: null, version: 2, title: "Fix the login redirect" });
    expect(saved.body.labels.map((l: { name: string }) => l.name)).toEqual(["Bug", "Feature"]);
    const stale = refused(await call("member", "PATCH", `${base}/1`, { version: 1, title: "Mine" }), 409, "conflict");
    expect(stale.message).toBe("This issue was changed by Grace Admin since you opened it: status, assignee, labels.");
    const closed = await call("member", "PATCH", `${base}/1`, { version: 2, status: "done", dueDate: null });
    expect(closed.body).toMatchObject({ status: "done", dueDate: null, version: 3 });
    expect(closed.body.closedAt).not.toBeNull();
    const unchanged = await call("member", "PATCH", `${base}/1`, { version: 3, status: "done" });
    expect(unchanged.body.version).toBe(3);

    refused(await call("memberRead", "PATCH", `${base}/1`, { version: 3, title: "x" }), 403, "forbidden");
    refused(await call("viewer", "PATCH", `${base}/1`, { version: 3, title: "x" }), 403, "forbidden");
    refused(await call("outsider", "PATCH", `${base}/1`, { version: 3, title: "x" }), 404, "not_found");
    for (const body of [{ title: "no version" }, { version: "3" }, { version: 0 }, { version: 3, title: null }, { version: 3, status: "closed" }]) {
      refused(await call("member", "PATCH", `${base}/1`, body), 400, "validation");
    }
    refused(await call("member", "PUT", `${base}/1`, { version: 3 }), 405, "method_not_allowed");

    await handle.db.updateTable("projects").set({ archived_at: new Date().toISOString() }).where("key", "=", "OPS").execute();
    refused(await call("owner", "POST", "/workspaces/acme/projects/OPS/issues", { title: "Archived" }), 403, "forbidden");
    expect((await call("owner", "GET", "/workspaces/acme/projects/OPS/issues")).status).toBe(200);
  });

  it("lists issues with the list screen's filters, paged by a signed cursor of at most 100", async () => {
    const project = { id: seeded.projects.OPS.id, workspace_id: seeded.id };
    await handle.db.updateTable("projects").set({ archived_at: null }).where("key", "=", "OPS").execute();
    const { users, labels } = seeded;
    const specs = [
      { title: "Alpha outage", status: "todo", priority: "urgent", assigneeId: users["Linus Member"], labelIds: [labels.Bug] },
      { title: "Beta rollout", status: "in_progress", priority: "low", assigneeId: users["Grace Admin"], labelIds: [labels.Feature] },
      { title: "Gamma cleanup", status: "done", priority: "none", assigneeId: null, labelIds: [] },
      { title: "Delta backup", status: "todo", priority: "high", assigneeId: null, labelIds: [labels.Bug, labels.Feature] },
      { title: "Epsilon alerts", status: "backlog", priority: "medium", assigneeId: users["Linus Member"], labelIds: [] },
    ] as const;
    for (const [i, spec] of specs.entries()) {
      const created = await createIssue(handle.db, { project, reporterId: users["Ada Owner"], fields: issueFields({ ...spec, labelIds: [...spec.labelIds] }), now: new Date(t0.getTime() + i * 60_000) });
      expect(created).toHaveProperty("number");
    }
    const base = "/workspaces/acme/projects/OPS/issues";
    const titles = async (query: string, who = "member") => {
      const answer = await call(who, "GET", `${base}?${query}`);
      expect(answer.status, query).toBe(200);
      answer.body.data.forEach((issue: unknown) => expectValid("Issue", issue));
      return answer.body.data.map((issue: { title: string }) => issue.title.split(" ")[0]);
    };
    expect(await titles("sort=number")).toEqual(["Alpha", "Beta", "Gamma", "Delta", "Epsilon"]);
    expect(await titles("status=todo&status=in_progress&sort=number")).toEqual(["Alpha", "Beta", "Delta"]);
    expect(await titles("status=open&sort=number")).toEqual(["Alpha", "Beta", "Delta", "Epsilon"]);
    expect(await titles("assignee=me&sort=number")).toEqual(["Alpha", "Epsilon"]);
    expect(await titles(`assignee=unassigned&assignee=${users["Grace Admin"]}&sort=number`)).toEqual(["Beta", "Gamma", "Delta"]);
    expect(await titles(`label=${labels.Feature}&sort=number`)).toEqual(["Beta", "Delta"]);
    expect(await titles("priority=urgent&priority=high&sort=priority")).toEqual(["Alpha", "Delta"]);
    expect(await titles("q=BACKUP")).toEqual(["Delta"]);
    expect(await titles("q=OPS-2")).toEqual(["Beta"]);
    expect(await titles("sort=created")).toEqual(["Epsilon", "Delta", "Gamma", "Beta", "Alpha"]);
    expect(await titles("status=nonsense&sort=number&label=abc")).toEqual(["Alpha", "Beta", "Gamma", "Delta", "Epsilon"]);

    for (const sort of ["updated", "created", "priority", "number"]) {
      const all = await titles(`sort=${sort}`);
      const paged: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const answer: Answer = await call("member", "GET", `${base}?sort=${sort}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(answer.body.data.length).toBeLessThanOrEqual(2);
        paged.push(...answer.body.data.map((issue: { title: string }) => issue.title.split(" ")[0]));
        cursor = answer.body.next;
        pages++;
      } while (cursor && pages < 10);
      expect(paged, sort).toEqual(all);
      expect(pages).toBe(3);
    }

    const first = await call("member", "GET", `${base}?sort=number&limit=2`);
    const next: string = first.body.next;
    const [payload, signature] = next.split(".");
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), after: { id: 1, number: 0, priority: 0, createdAt: "x'; drop table issues; --", updatedAt: "x", dueDate: null } })).toString("base64url");
    for (const query of [`sort=number&cursor=${forged}.${signature}`, `sort=created&cursor=${next}`, "cursor=abc", `cursor=${"x".repeat(3000)}`, "limit=0", "limit=101", "limit=abc", "limit=1e1", "q=%E2%80%AE"]) {
      const error = refused(await call("member", "GET", `${base}?${query}`), 400, "validation");
      expect(Object.keys(error.fields ?? {}), query).toEqual([query.startsWith("limit") ? "limit" : query.startsWith("q") ? "q" : "cursor"]);
    }
    expect((await call("member", "GET", `${base}?limit=100`)).body.data).toHaveLength(5);

    // A cursor pages through its own list only: not another project's, of this workspace or
    // another, nor the same project with other filters, nor another person's "me".
    const cursorOf = async (who: string, path: string) => {
      const answer = await call(who, "GET", path);
      expect(answer.body.next, path).toEqual(expect.any(String));
      return answer.body.next as string;
    };
    for (const title of ["Secret plan", "Secret budget"]) {
      await createIssue(handle.db, { project: { id: other.projects.SEC.id, workspace_id: other.id }, reporterId: other.users["Olga Outsider"], fields: issueFields({ title }), now: t0 });
    }
    const web = await cursorOf("member", "/workspaces/acme/projects/WEB/issues?sort=number&limit=1");
    const secret = await cursorOf("outsider", "/workspaces/globex/projects/SEC/issues?sort=number&limit=1");
    const working = await cursorOf("member", `${base}?status=todo&status=in_progress&sort=number&limit=1`);
    const mine = await cursorOf("member", `${base}?assignee=me&sort=number&limit=1`);
    const otherLists: [string, string][] = [
      ["member", `sort=number&limit=1&cursor=${web}`],
      ["member", `sort=number&limit=1&cursor=${secret}`],
      ["member", `sort=number&limit=1&cursor=${working}`],
      ["member", `status=todo&sort=number&limit=1&cursor=${working}`],
      ["member", `status=todo&status=in_progress&sort=number&q=alpha&limit=1&cursor=${working}`],
      ["owner", `assignee=me&sort=number&limit=1&cursor=${mine}`],
    ];
    for (const [who, query] of otherLists) {
      const error = refused(await call(who, "GET", `${base}?${query}`), 400, "validation");
      expect(error.fields, query).toEqual({ cursor: ["This cursor is not valid: use the `next` of the previous page of this list, with the same filters and sort."] });
    }
    // The same list written another way (its values in another order, "me" by id) takes it.
    expect(await titles(`status=in_progress,todo&sort=number&limit=1&cursor=${working}`)).toEqual(["Beta"]);
    expect(await titles(`assignee=${users["Linus Member"]}&sort=number&limit=1&cursor=${mine}`)).toEqual(["Epsilon"]);
  });

  it("lists and adds comments, paged, with the forms' rules; viewers and read tokens cannot comment", async () => {
    const base = "/workspaces/acme/projects/WEB/issues/2/comments";
    for (const body of ["First", "Second, for @ada", "Third"]) {
      const added = await call("member", "POST", base, { body });
      expect(added.status).toBe(201);
      expectValid("Comment", added.body);
      expect(added.body).toMatchObject({ body, author: { name: "Linus Member", handle: "linus" }, edited: false });
    }
    const page1 = await call("viewer", "GET", `${base}?limit=2`);
    expect(page1.body.data.map((c: { body: string }) => c.body)).toEqual(["First", "Second, for @ada"]);
    page1.body.data.forEach((c: unknown) => expectValid("Comment", c));
    const page2 = await call("viewer", "GET", `${base}?limit=2&cursor=${page1.body.next}`);
    expect(page2.body).toMatchObject({ data: [{ body: "Third" }], next: null });
    // The mention notified Ada (the later comment is the row's latest reason, as she now watches).
    const notified = await handle.db.selectFrom("notifications").innerJoin("issues", "issues.id", "notifications.issue_id").select("reason").where("issues.number", "=", 2).where("notifications.user_id", "=", seeded.users["Ada Owner"]).executeTakeFirst();
    expect(notified?.reason).toBe("commented");

    for (const body of [{ body: "" }, { body: "   " }, { body: "x".repeat(10_001) }, { body: 5 }, {}, { body: "x", extra: 1 }]) {
      refused(await call("member", "POST", base, body), 400, "validation");
    }
    refused(await call("viewer", "POST", base, { body: "No" }), 403, "forbidden");
    refused(await call("memberRead", "POST", base, { body: "No" }), 403, "forbidden");
    refused(await call("member", "POST", "/workspaces/acme/projects/WEB/issues/404/comments", { body: "Nowhere" }), 404, "not_found");
    refused(await call("outsider", "GET", base), 404, "not_found");
    refused(await call("member", "GET", `${base}?cursor=${page1.body.next.slice(0, -2)}xx`), 400, "validation");
    // Another issue's comments are another list.
    const elsewhere = refused(await call("viewer", "GET", `/workspaces/acme/projects/WEB/issues/1/comments?limit=2&cursor=${page1.body.next}`), 400, "validation");
    expect(Object.keys(elsewhere.fields ?? {})).toEqual(["cursor"]);
  });

  it("limits each token's requests a minute, saying so in RateLimit headers, and answers 429 with Retry-After", async () => {
    // Not across a minute's turn: the count starts afresh each minute.
    if (Date.now() % 60_000 > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 100));
    const limited = await token(seeded.users["Ada Owner"], "read", "limited");
    const ok = await call(limited, "GET", "/user");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-limit")).toBe("600");
    expect(ok.headers.get("ratelimit-remaining")).toBe("599");
    expect(ok.headers.get("ratelimit-policy")).toBe("600;w=60");
    const reset = Number(ok.headers.get("ratelimit-reset"));
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);

    // 598 more requests, written as made.
    await handle.db.updateTable("api_tokens").set((eb) => ({ rate_used: eb("rate_used", "+", 598) })).where("name", "=", "limited").execute();
    const last = await call(limited, "GET", "/user");
    expect([last.status, last.headers.get("ratelimit-remaining")]).toEqual([200, "0"]);
    const over = await call(limited, "GET", "/workspaces");
    refused(over, 429, "rate_limited");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(over.body.error.message).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
    // Another token of the same person is not held back.
    expect((await call("owner", "GET", "/user")).status).toBe(200);
  });

  it("answers an unexpected error 500 with only a digest, which the server logs and records", async () => {
    // A table gone from under the query: no client input could cause this.
    await sql`alter table labels rename to labels_away`.execute(handle.db);
    try {
      const answer = await call("member", "GET", "/workspaces/acme/labels");
      const error = refused(answer, 500, "unexpected");
      expect(error.message).toBe("Application error: something went wrong on our side.");
      const { digest } = answer.body.error;
      expect(digest).toMatch(/^[0-9a-f]{8,}$/i);
      expect(JSON.stringify(answer.body)).not.toMatch(/labels|table|relation|sql/i);
      await expect.poll(() => server.logs.some((line) => line.digest === digest), { timeout: 5000 }).toBe(true);
    } finally {
      await sql`alter table labels_away rename to labels`.execute(handle.db);
    }
    expect((await call("member", "GET", "/workspaces/acme/labels")).status).toBe(200);
  });
});
