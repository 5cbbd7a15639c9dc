/**
 * docs/product.md, Roles over HTTP: every role against every workspace and account screen of the real production
 * server, driven as a browser without JavaScript would (form posts, redirects not followed, one
 * cookie jar per person). Setup goes through HTTP only: sign-ups, a workspace, invitations.
 *
 * The tests of one dialect share one server and one workspace and run in order. A test that
 * changes a membership puts it back before it ends, so that every later table starts from:
 *
 *   acme:  Olivia (owner), Otto (owner, joins in the first block), Adam (admin), Mia (member),
 *          Victor (viewer);  Oscar is in none of it and owns "other".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

type Role = "owner" | "admin" | "member" | "viewer";
type Person = "owner" | "owner2" | "admin" | "member" | "viewer" | "outsider";
/** Who sends a request: one of the people, signed in, or nobody. */
type Who = Person | "signed-out";

type Answer = { status: number; location: string | null; body: string; requestId: string | null };
type Sent = { who: Who; method: string; path: string; status: number; requestId: string | null };

const people: Record<Person, { name: string; email: string }> = {
  owner: { name: "Olivia Owner", email: "olivia@example.com" },
  owner2: { name: "Otto Owner", email: "otto@example.com" },
  admin: { name: "Adam Admin", email: "adam@example.com" },
  member: { name: "Mia Member", email: "mia@example.com" },
  viewer: { name: "Victor Viewer", email: "victor@example.com" },
  outsider: { name: "Oscar Outsider", email: "oscar@example.com" },
};
/** Each sign-up costs a scrypt hash (~0.3 s): everyone signs up once, in beforeAll. */
const persons = Object.keys(people) as Person[];
const password = "permissions are checked on the server";
const acmeRoles: Record<Exclude<Person, "outsider">, Role> = {
  owner: "owner",
  owner2: "owner",
  admin: "admin",
  member: "member",
  viewer: "viewer",
};

/** Where an unauthenticated request is sent (docs/product.md, Errors): a GET keeps its query, a POST its path. */
const loginFor = (path: string) => `/login?${new URLSearchParams({ redirectTo: path })}`;

/** A browser without JavaScript: its own cookie jar, same-origin form posts, redirects not followed. */
class Browser {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly who: Who,
    private readonly server: () => string,
    private readonly sent: Sent[],
  ) {}

  get(path: string): Promise<Answer> {
    return this.send("GET", path);
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send("POST", path, fields, headers);
  }

  private async send(method: string, path: string, fields?: Record<string, string>, extra: Record<string, string> = {}) {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    // What a browser sends with a form post from one of the app's own pages.
    if (method === "POST") headers.origin = this.server();
    const response = await fetch(`${this.server()}${path}`, {
      method,
      headers: { ...headers, ...extra },
      body: fields ? new URLSearchParams(fields) : undefined,
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) this.store(line);
    const answer = {
      status: response.status,
      location: response.headers.get("location"),
      body: await response.text(),
      requestId: response.headers.get("x-request-id"),
    };
    this.sent.push({ who: this.who, method, path, status: answer.status, requestId: answer.requestId });
    return answer;
  }

  private store(setCookie: string) {
    const [pair = "", ...attributes] = setCookie.split(";").map((part) => part.trim());
    const equals = pair.indexOf("=");
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    const expired = attributes.some(
      (attribute) => /^max-age=(0|-\d+)$/i.test(attribute) || (/^expires=/i.test(attribute) && Date.parse(attribute.slice(8)) <= Date.now()),
    );
    if (expired || value === "") this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** Fails setup with the answer that was not what it should have been. */
function must(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status} (${answer.location ?? ""}) ${answer.body.slice(0, 500)}`);
  }
  return answer;
}

/** A member's user id, from the hidden field of their row's change-role form on the members page. */
function userIdIn(html: string, person: Person): number {
  return Number(/name="userId" value="(\d+)"/.exec(listItem(html, people[person].name) ?? "")?.[1]);
}

/**
 * The `<li aria-label=…>` of one member or pending invitation on the members page: up to the next
 * row or the end of its section (a row's role menu holds a list of its own).
 */
function listItem(html: string, label: string): string | undefined {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`<li aria-label="${escaped}"[^>]*>([\\s\\S]*?)(?=<li aria-label="|</section>)`).exec(html)?.[1];
}

/** A pending invitation's id, from its row's Revoke link (which asks first: `?confirm=revoke-<id>`). */
function invitationIdIn(html: string, email: string): string {
  return /confirm=revoke-(\d+)"/.exec(listItem(html, email) ?? "")![1]!;
}

/** The role a member row shows: the checked choice of its role menu, or the plain word where the viewer may not change it. */
function roleIn(item: string): string {
  if (item.includes('name="role"')) return /value="(\w+)" aria-current="true"[^>]*name="role"/.exec(item)?.[1] ?? "unreadable";
  return />(Owner|Admin|Member|Viewer)<\/span>/.exec(item)?.[1]?.toLowerCase() ?? "unreadable";
}

describe.each(testDialects)("docs/product.md, Roles permissions over HTTP on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  /** Every response of this suite, to prove that none was a 500. */
  const sent: Sent[] = [];
  const browsers = new Map<Who, Browser>();
  const as = (who: Who): Browser => browsers.get(who)!;
  const ids = {} as Record<Person, number>;

  /** The error-level lines the server logged for one request, once its completion is logged. */
  async function errorsLoggedFor(requestId: string | null) {
    expect(requestId).toBeTruthy();
    await expect.poll(() => server.logs.some((line) => line.reqId === requestId && line.msg === "request completed")).toBe(true);
    return server.logs.filter((line) => line.reqId === requestId && typeof line.level === "number" && line.level >= 50);
  }

  /** Creates an invitation and returns the path of its link, as the inviter sees it in the flash. */
  async function invite(by: Who, person: Person | string, role: Role, workspace = "acme"): Promise<string> {
    const email = person in people ? people[person as Person].email : person;
    const invited = must(
      await as(by).post(`/w/${workspace}/settings/members`, { intent: "invite", email, role }),
      302,
      `${by} invites ${email} as ${role}`,
    );
    // The redirect lands on the members page, whose flash shows the link to pass on.
    const page = must(await as(by).get(invited.location!), 200, "the members page after inviting");
    const link = /Invitation link<input[^>]*value="([^"]+)"/.exec(page.body)?.[1];
    if (!link) throw new Error(`no invitation link on the members page for ${email}`);
    expect(as(by).cookies.has("cairn_flash")).toBe(false); // shown once, then cleared
    return new URL(link).pathname;
  }

  async function accept(person: Person, invitationPath: string, workspace = "acme") {
    const accepted = must(await as(person).post(invitationPath, {}), 302, `${person} accepts ${invitationPath}`);
    expect(accepted.location).toBe(`/w/${workspace}`);
  }

  /** Puts someone back into acme with their role, as an owner would. */
  async function readmit(person: Exclude<Person, "outsider">, by: Who = "owner") {
    await accept(person, await invite(by, person, acmeRoles[person]));
    expect((await as(person).get("/w/acme")).status).toBe(200);
  }

  /** acme's members page as an owner sees it. */
  async function membersPage(by: Who = "owner"): Promise<string> {
    return must(await as(by).get("/w/acme/settings/members"), 200, `${by} reads the members page`).body;
  }

  /** Everyone's role in acme as the members page shows it; undefined for a non-member. */
  async function rolesNow(by: Who = "owner"): Promise<Record<string, string | undefined>> {
    const html = await membersPage(by);
    const roleOf = (person: Person) => {
      const item = listItem(html, people[person].name);
      return item === undefined ? undefined : roleIn(item);
    };
    return Object.fromEntries(persons.map((person) => [person, roleOf(person)]));
  }

  const expectedRoles = () => ({ ...acmeRoles, outsider: undefined });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer(database.env);
    for (const who of [...persons, "signed-out"] as const) browsers.set(who, new Browser(who, () => server.url, sent));

    for (const person of persons) {
      const signedUp = must(await as(person).post("/signup", { ...people[person], password }), 302, `${person} signs up`);
      expect(signedUp.location).toBe("/w/new");
      expect(as(person).cookies.has("__Host-cairn_session")).toBe(true);
    }

    expect(must(await as("owner").post("/w/new", { name: "Acme", slug: "acme" }), 302, "owner creates acme").location).toBe("/w/acme");
    expect(must(await as("outsider").post("/w/new", { name: "Other", slug: "other" }), 302, "outsider creates other").location).toBe(
      "/w/other",
    );
    // A pending invitation in the other workspace, which nobody in acme may touch.
    await invite("outsider", "stranger@example.com", "member", "other");

    for (const person of ["admin", "member", "viewer"] as const) {
      await accept(person, await invite("owner", person, acmeRoles[person]));
    }

    const html = await membersPage();
    for (const person of ["owner", "admin", "member", "viewer"] as const) ids[person] = userIdIn(html, person);
    const other = must(await as("outsider").get("/w/other/settings/members"), 200, "outsider reads other's members").body;
    ids.outsider = userIdIn(other, "outsider");
    for (const person of ["owner", "admin", "member", "viewer", "outsider"] as const) expect(ids[person]).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  describe("while Olivia is the only owner", () => {
    it("she cannot leave: 409, and she is still an owner", async () => {
      const left = await as("owner").post("/w/acme", { intent: "leave" });
      expect(left.status).toBe(409);
      expect(left.body).toContain("A workspace must keep at least one owner.");
      expect((await as("owner").get("/w/acme")).status).toBe(200);
      expect((await rolesNow()).owner).toBe("owner");
    });

    it("she cannot remove herself or step down on the members page: 409", async () => {
      expect((await as("owner").post("/w/acme/settings/members", { intent: "remove", userId: String(ids.owner) })).status).toBe(409);
      for (const role of ["admin", "member", "viewer"] as const) {
        const changed = await as("owner").post("/w/acme/settings/members", { intent: "change-role", userId: String(ids.owner), role });
        expect(changed.status).toBe(409);
      }
      expect((await rolesNow()).owner).toBe("owner");
    });

    it("she invites a second owner, who accepts", async () => {
      await accept("owner2", await invite("owner", "owner2", "owner"));
      ids.owner2 = userIdIn(await membersPage(), "owner2");
      expect(ids.owner2).toBeGreaterThan(0);
      expect(await rolesNow()).toEqual(expectedRoles());
      expect((await as("owner2").get("/w/acme/settings")).status).toBe(200);
    });
  });

  describe("reading the workspace", () => {
    const table: [string, Record<Exclude<Who, "owner2">, number>][] = [
      ["/w/acme", { owner: 200, admin: 200, member: 200, viewer: 200, outsider: 404, "signed-out": 302 }],
      // Every member opens General, to leave; Members and Labels stay with admins and owners.
      ["/w/acme/settings", { owner: 200, admin: 200, member: 200, viewer: 200, outsider: 404, "signed-out": 302 }],
      ["/w/acme/settings/members", { owner: 200, admin: 200, member: 403, viewer: 403, outsider: 404, "signed-out": 302 }],
      // A signed-out visitor comes back to the same URL, query included.
      ["/w/acme/settings/members?from=menu", { owner: 200, admin: 200, member: 403, viewer: 403, outsider: 404, "signed-out": 302 }],
    ];
    const rows = table.flatMap(([path, statuses]) =>
      Object.entries(statuses).map(([who, status]) => [who as Who, path, status] as const),
    );

    it.each(rows)("%s: GET %s → %i", async (who, path, status) => {
      const answer = await as(who).get(path);
      expect(answer.status).toBe(status);
      if (status === 302) expect(answer.location).toBe(loginFor(path));
      if (status === 403) expect(answer.body).toContain("You don&#x27;t have permission to do that.");
      if (status === 404) expect(answer.body).toContain("Workspace not found.");
      if (status === 200) expect(answer.body).toContain("Acme");
    });

    it("shows every member the workspace settings, and the Members and Labels tabs to admins and owners only", async () => {
      for (const who of ["owner", "admin", "member", "viewer"] as const) expect((await as(who).get("/w/acme")).body).toContain('href="/w/acme/settings"');
      for (const who of ["owner", "admin"] as const) {
        const general = (await as(who).get("/w/acme/settings")).body;
        expect(general).toContain('href="/w/acme/settings/members"');
        expect(general).toContain('href="/w/acme/settings/labels"');
      }
      for (const who of ["member", "viewer"] as const) {
        const general = (await as(who).get("/w/acme/settings")).body;
        expect(general).not.toContain('href="/w/acme/settings/members"');
        expect(general).not.toContain('href="/w/acme/settings/labels"');
        expect(general).not.toContain('value="rename"');
        expect(general).toContain("Only an owner can rename or delete this workspace.");
        // Leaving asks first: the link opens the question, which holds the form posting intent=leave to the workspace.
        expect(general).toContain('href="/w/acme/settings?confirm=leave"');
        const asked = (await as(who).get("/w/acme/settings?confirm=leave")).body;
        const question = /<section role="alertdialog"[\s\S]*?<\/section>/.exec(asked)?.[0];
        expect(question).toContain("Leave Acme?");
        expect(question).toMatch(/<form[^>]*action="\/w\/acme" method="post"[^>]*>\s*<input type="hidden" name="intent" value="leave"\/>/);
      }
    });
  });

  describe("account pages", () => {
    const signedIn = ["owner", "admin", "member", "viewer", "outsider"] as const;
    const rows = [
      ...["/settings", "/settings/password", "/settings/sessions"].flatMap((path) => [
        ...signedIn.map((who) => [who, path, 200, null] as const),
        ["signed-out", path, 302, loginFor(path)] as const,
      ]),
      ...["/login", "/signup"].flatMap((path) => [
        ...signedIn.map((who) => [who, path, 302, "/"] as const),
        ["signed-out", path, 200, null] as const,
      ]),
    ];

    it.each(rows)("%s: GET %s → %i", async (who, path, status, location) => {
      const answer = await as(who).get(path);
      expect(answer.status).toBe(status);
      if (location !== null) expect(answer.location).toBe(location);
    });
  });

  describe("renaming and deleting the workspace (owner only)", () => {
    // The general settings form is the index route's: React Router renders its action as `?index`
    // (a plain /w/acme/settings names the settings layout, which has no action: see below).
    const settingsForm = "/w/acme/settings?index";

    const renameRows = [
      ["owner", 302],
      ["admin", 403],
      ["member", 403],
      ["viewer", 403],
      ["outsider", 404],
      ["signed-out", 302],
    ] as const;

    it.each(renameRows)("%s: POST /w/acme/settings?index intent=rename → %i", async (who, status) => {
      const name = `Renamed by ${who}`;
      const answer = await as(who).post(settingsForm, { intent: "rename", name });
      expect(answer.status).toBe(status);
      const renamed = who === "owner";
      if (renamed) expect(answer.location).toBe("/w/acme/settings");
      if (who === "signed-out") expect(answer.location).toBe(loginFor("/w/acme/settings"));
      expect((await as("owner").get("/w/acme")).body.includes(name)).toBe(renamed);
      if (renamed) expect((await as("owner").post(settingsForm, { intent: "rename", name: "Acme" })).status).toBe(302);
    });

    const deleteRows = [
      ["owner", 400],
      ["admin", 403],
      ["member", 403],
      ["viewer", 403],
      ["outsider", 404],
      ["signed-out", 302],
    ] as const;

    it.each(deleteRows)("%s: POST /w/acme/settings?index intent=delete with a wrong confirmation → %i", async (who, status) => {
      const answer = await as(who).post(settingsForm, { intent: "delete", confirm: "not-acme" });
      expect(answer.status).toBe(status);
      if (status === 400) expect(answer.body).toContain("Type acme to confirm.");
      expect((await as("member").get("/w/acme")).status).toBe(200);
    });

    it("checks the role before the form: a viewer's invalid submissions are 403, the owner's 400", async () => {
      const submissions: Record<string, string>[] = [{}, { intent: "rename", name: "" }, { intent: "bogus" }];
      for (const fields of submissions) {
        expect((await as("viewer").post(settingsForm, fields)).status).toBe(403);
        expect((await as("owner").post(settingsForm, fields)).status).toBe(400);
      }
    });

    // A POST to /w/acme/settings itself names the settings layout route, which has no action.
    // React Router answers 405 to members and strangers alike (the same for an unknown slug, see
    // below; signed out, the loaders that render the error page send to sign in first). It
    // changes nothing, reveals nothing, shows none of React Router's internal wording ("did not
    // provide an `action` for route …") and is the client's doing, not an unexpected error.
    it.each([
      ["owner", 405],
      ["viewer", 405],
      ["outsider", 405],
      ["signed-out", 302],
    ] as const)(
      "%s: POST /w/acme/settings (the layout, which has no action) → %i, changing nothing, revealing nothing",
      async (who, status) => {
        const answer = await as(who).post("/w/acme/settings", { intent: "rename", name: "Via the layout" });
        expect(answer.status).toBe(status);
        if (status === 302) expect(answer.location).toBe(loginFor("/w/acme/settings"));
        expect((await as("owner").get("/w/acme")).body).not.toContain("Via the layout");
        expect(await errorsLoggedFor(answer.requestId)).toEqual([]);
        if (status !== 405) return;
        const alert = /<section role="alert"[\s\S]*?<\/section>/.exec(answer.body)?.[0];
        expect(alert).toContain("That cannot be done here.");
        expect(alert).not.toMatch(/did not provide an `action`|routes\/|Digest/);
      },
    );

    it("refuses the owner's rename from another origin with 403 before any route runs", async () => {
      const answer = await as("owner").post(settingsForm, { intent: "rename", name: "Forged" }, { origin: "http://evil.example" });
      expect(answer.status).toBe(403);
      expect(answer.body).toContain("A request from another site was refused.");
      expect((await as("owner").get("/w/acme")).body).not.toContain("Forged");
    });
  });

  describe("inviting", () => {
    const rows = [
      ["owner", "member", 302],
      ["owner", "admin", 302],
      ["owner", "owner", 302],
      ["admin", "member", 302],
      ["admin", "viewer", 302],
      ["admin", "admin", 302],
      ["admin", "owner", 403],
      ["member", "member", 403],
      ["member", "viewer", 403],
      ["viewer", "viewer", 403],
      ["viewer", "member", 403],
      ["outsider", "member", 404],
      ["signed-out", "member", 302],
    ] as const;

    it.each(rows)("%s: POST /w/acme/settings/members intent=invite role=%s → %i", async (who, role, status) => {
      const email = `invitee-${who}-${role}@example.com`;
      const answer = await as(who).post("/w/acme/settings/members", { intent: "invite", email, role });
      expect(answer.status).toBe(status);
      if (status === 302) {
        expect(answer.location).toBe(who === "signed-out" ? loginFor("/w/acme/settings/members") : "/w/acme/settings/members");
      }
      const pending = listItem(await membersPage(), email);
      expect(pending !== undefined).toBe(status === 302 && who !== "signed-out");
      if (pending !== undefined) {
        // Leave no invitation behind for later tests.
        const invitationId = invitationIdIn(await membersPage(), email);
        expect((await as("owner").post("/w/acme/settings/members", { intent: "revoke", invitationId })).status).toBe(302);
      }
    });

    it("refuses an admin's invitation as owner with the reason", async () => {
      const answer = await as("admin").post("/w/acme/settings/members", { intent: "invite", email: "boss@example.com", role: "owner" });
      expect(answer.status).toBe(403);
      expect(answer.body).toContain("Only an owner can make or remove owners.");
    });

    it("answers an invalid invitation with 400 to an admin, 403 to a member", async () => {
      for (const fields of [
        { intent: "invite", email: "not an email", role: "member" },
        { intent: "invite", email: "x@example.com", role: "superuser" },
        { intent: "invite", email: people.member.email, role: "member" }, // already a member
      ]) {
        expect((await as("admin").post("/w/acme/settings/members", fields)).status).toBe(400);
        expect((await as("member").post("/w/acme/settings/members", fields)).status).toBe(403);
      }
    });
  });

  describe("changing roles", () => {
    // [actor, target, new role, status]; a change that went through is put back by the actor.
    const rows = [
      ["owner", "member", "admin", 302],
      ["owner", "viewer", "owner", 302],
      ["owner", "owner2", "admin", 302],
      ["owner", "admin", "viewer", 302],
      ["admin", "member", "viewer", 302],
      ["admin", "viewer", "member", 302],
      ["admin", "member", "admin", 302],
      ["admin", "owner", "admin", 403],
      ["admin", "owner2", "member", 403],
      ["admin", "member", "owner", 403],
      ["admin", "admin", "owner", 403],
      ["member", "viewer", "member", 403],
      ["member", "member", "admin", 403],
      ["member", "admin", "viewer", 403],
      ["viewer", "viewer", "member", 403],
      ["viewer", "member", "viewer", 403],
      ["outsider", "member", "viewer", 404],
      ["signed-out", "member", "viewer", 302],
    ] as const;

    it.each(rows)("%s: change-role of %s to %s → %i", async (who, target, role, status) => {
      const answer = await as(who).post("/w/acme/settings/members", { intent: "change-role", userId: String(ids[target]), role });
      expect(answer.status).toBe(status);
      const changed = status === 302 && who !== "signed-out";
      if (who === "signed-out") expect(answer.location).toBe(loginFor("/w/acme/settings/members"));
      if (status === 403) expect(answer.body).toMatch(/You don&#x27;t have permission to do that\.|Only an owner can make or remove owners\./);
      expect((await rolesNow())[target]).toBe(changed ? role : acmeRoles[target]);
      if (changed) {
        const back = await as(who).post("/w/acme/settings/members", {
          intent: "change-role",
          userId: String(ids[target]),
          role: acmeRoles[target],
        });
        expect(back.status).toBe(302);
      }
      expect(await rolesNow()).toEqual(expectedRoles());
    });

    it("gives the admin the reason when an owner is involved", async () => {
      const answer = await as("admin").post("/w/acme/settings/members", { intent: "change-role", userId: String(ids.owner), role: "member" });
      expect(answer.status).toBe(403);
      expect(answer.body).toContain("Only an owner can make or remove owners.");
    });

    it("answers 404 for someone who is not a member of acme", async () => {
      const answer = await as("admin").post("/w/acme/settings/members", { intent: "change-role", userId: String(ids.outsider), role: "member" });
      expect(answer.status).toBe(404);
    });
  });

  describe("removing members", () => {
    // [actor, target, status]; whoever was removed is invited back with their role and accepts.
    const rows = [
      ["member", "viewer", 403],
      ["viewer", "member", 403],
      ["member", "admin", 403],
      ["viewer", "owner", 403],
      ["admin", "owner", 403],
      ["admin", "owner2", 403],
      ["admin", "viewer", 302],
      ["admin", "member", 302],
      ["owner", "admin", 302],
      ["owner", "owner2", 302],
      ["outsider", "member", 404],
      ["signed-out", "member", 302],
    ] as const;

    it.each(rows)("%s: remove %s → %i", async (who, target, status) => {
      const answer = await as(who).post("/w/acme/settings/members", { intent: "remove", userId: String(ids[target]) });
      expect(answer.status).toBe(status);
      const removed = status === 302 && who !== "signed-out";
      if (removed) expect(answer.location).toBe("/w/acme/settings/members");
      if (who === "signed-out") expect(answer.location).toBe(loginFor("/w/acme/settings/members"));
      expect((await as(target).get("/w/acme")).status).toBe(removed ? 404 : 200);
      if (removed) await readmit(target);
      expect(await rolesNow()).toEqual(expectedRoles());
    });

    it("answers 404 for someone who is not a member of acme", async () => {
      expect((await as("admin").post("/w/acme/settings/members", { intent: "remove", userId: String(ids.outsider) })).status).toBe(404);
      // Oscar's own workspace is untouched.
      expect((await as("outsider").get("/w/other")).status).toBe(200);
    });
  });

  describe("revoking a pending invitation", () => {
    let invitationPath: string;
    let invitationId: string;

    beforeAll(async () => {
      invitationPath = await invite("owner", "pending@example.com", "member");
      invitationId = invitationIdIn(await membersPage(), "pending@example.com");
    });

    // In order: it stays pending until the admin revokes it; then it is gone.
    const rows = [
      ["member", 403],
      ["viewer", 403],
      ["outsider", 404],
      ["signed-out", 302],
      ["admin", 302],
      ["owner", 404],
    ] as const;

    it.each(rows)("%s: intent=revoke → %i", async (who, status) => {
      const answer = await as(who).post("/w/acme/settings/members", { intent: "revoke", invitationId });
      expect(answer.status).toBe(status);
      if (who === "signed-out") expect(answer.location).toBe(loginFor("/w/acme/settings/members"));
      const revoked = rows.findIndex(([w]) => w === "admin") <= rows.findIndex(([w]) => w === who);
      expect(listItem(await membersPage(), "pending@example.com") === undefined).toBe(revoked);
    });

    it("leaves the revoked link unusable", async () => {
      const page = await as("signed-out").get(invitationPath);
      expect(page.status).toBe(200);
      expect(page.body).toContain("This invitation was revoked.");
    });

    it("cannot reach another workspace's invitation: 404, and it stays pending there", async () => {
      const other = must(await as("outsider").get("/w/other/settings/members"), 200, "other's members").body;
      const foreignId = invitationIdIn(other, "stranger@example.com");
      for (const who of ["admin", "owner"] as const) {
        expect((await as(who).post("/w/acme/settings/members", { intent: "revoke", invitationId: foreignId })).status).toBe(404);
      }
      const after = must(await as("outsider").get("/w/other/settings/members"), 200, "other's members").body;
      expect(listItem(after, "stranger@example.com")).toBeDefined();
    });
  });

  describe("malformed ids", () => {
    const bad = ["abc", "", "-1", "0", "1.5", "1e3x", "99999999999999999999"];
    const rows = [
      ...bad.map((userId) => ["change-role", { intent: "change-role", userId, role: "member" }] as const),
      ...bad.map((userId) => ["remove", { intent: "remove", userId }] as const),
      ...bad.map((invitationId) => ["revoke", { intent: "revoke", invitationId }] as const),
    ];

    it.each(rows)("%s with %o → 400, never 500", async (_, fields) => {
      expect((await as("admin").post("/w/acme/settings/members", fields)).status).toBe(400);
      expect(await rolesNow()).toEqual(expectedRoles());
    });

    // A positive integer that is safe in JavaScript but does not fit the 32-bit integer id columns:
    // refused as invalid (PostgreSQL would otherwise fail the query with 22003).
    it.each([
      ["change-role", { intent: "change-role", userId: "2147483648", role: "member" }],
      ["remove", { intent: "remove", userId: "2147483648" }],
      ["revoke", { intent: "revoke", invitationId: "2147483648" }],
    ] as const)("%s of an id beyond the id columns → 400 or 404, never 500", async (_, fields) => {
      const answer = await as("admin").post("/w/acme/settings/members", fields);
      expect([400, 404]).toContain(answer.status);
    });
  });

  describe("a workspace's existence is not revealed", () => {
    /** A page with what differs between two requests of the same page taken out. */
    const normalise = (html: string, slug: string) =>
      html
        .replace(/nonce="[^"]*"/g, 'nonce=""')
        .replace(/"nonce","[^"]*"/g, '"nonce",""')
        // The page's clock (root loader), which relative times read.
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "NOW")
        .replaceAll(slug, "SLUG");

    const rows = [
      ["outsider", "acme", "GET", "/w/SLUG", 404],
      ["outsider", "acme", "GET", "/w/SLUG/settings", 404],
      ["outsider", "acme", "GET", "/w/SLUG/settings/members", 404],
      ["outsider", "acme", "POST", "/w/SLUG/settings/members", 404],
      ["outsider", "acme", "POST", "/w/SLUG/settings?index", 404],
      ["outsider", "acme", "POST", "/w/SLUG", 404],
      ["outsider", "acme", "POST", "/w/SLUG/settings", 405],
      ["member", "other", "GET", "/w/SLUG", 404],
      ["admin", "other", "GET", "/w/SLUG/settings/members", 404],
      ["owner", "other", "POST", "/w/SLUG/settings/members", 404],
      ["owner", "other", "POST", "/w/SLUG", 404],
    ] as const;

    it.each(rows)("%s: %s's pages look like an unknown slug's (%s %s → %i)", async (who, slug, method, template, status) => {
      const fields = { intent: "invite", email: "probe@example.com", role: "member" };
      const request = (s: string) =>
        method === "GET" ? as(who).get(template.replace("SLUG", s)) : as(who).post(template.replace("SLUG", s), fields);
      const existing = await request(slug);
      const unknown = await request("no-such-workspace");
      expect(existing.status).toBe(status);
      expect(unknown.status).toBe(status);
      expect(normalise(existing.body, slug)).toBe(normalise(unknown.body, "no-such-workspace"));
    });
  });

  describe("leaving (last: it changes memberships)", () => {
    it.each(["admin", "member", "viewer"] as const)("the %s leaves with intent=leave → 302, then is let back in", async (person) => {
      const left = await as(person).post("/w/acme", { intent: "leave" });
      expect(left.status).toBe(302);
      expect(left.location).toBe("/");
      expect((await as(person).get("/w/acme")).status).toBe(404);
      expect((await rolesNow())[person]).toBeUndefined();
      await readmit(person);
      expect(await rolesNow()).toEqual(expectedRoles());
    });

    it("an outsider cannot leave what they are not in: 404", async () => {
      expect((await as("outsider").post("/w/acme", { intent: "leave" })).status).toBe(404);
    });

    it("signed out, leaving sends to sign in", async () => {
      const answer = await as("signed-out").post("/w/acme", { intent: "leave" });
      expect(answer.status).toBe(302);
      expect(answer.location).toBe(loginFor("/w/acme"));
    });

    it("with a second owner, Olivia may leave; Otto, now the only owner, may not; Olivia comes back", async () => {
      const left = await as("owner").post("/w/acme", { intent: "leave" });
      expect(left.status).toBe(302);
      expect((await as("owner").get("/w/acme")).status).toBe(404);
      expect((await as("owner2").post("/w/acme", { intent: "leave" })).status).toBe(409);
      await readmit("owner", "owner2");
      expect(await rolesNow("owner2")).toEqual(expectedRoles());
    });
  });

  it("answered no request with a 500", () => {
    expect(sent.length).toBeGreaterThan(300);
    expect(sent.filter((s) => s.status >= 500).map(({ requestId: _, ...s }) => s)).toEqual([]);
  });

  it("logged no error for any request it sent", () => {
    const ours = new Set(sent.map((s) => s.requestId));
    const errors = server.logs.filter((line) => ours.has(line.reqId as string) && typeof line.level === "number" && line.level >= 50);
    expect(errors).toEqual([]);
  });
});
