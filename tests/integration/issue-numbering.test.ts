/**
 * The concurrency proof of issue numbering (docs/product.md, What is stored: "number per project, from 1, never reused"):
 * two instances of Cairn on one database file issues at the same moment, and every issue gets its
 * own number, with no gap and no duplicate.
 *
 * (a) Through createIssue on two database handles. On PostgreSQL both handles live in this process
 *     (each has its own pool). On SQLite each "instance" is a separate Node process, as in
 *     production (tests/support/instance-processes.ts says why).
 * (b) Over HTTP, through two production servers on the same database.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import type { IssueFields } from "~/issues/issue-fields";
import { createIssue } from "~/issues/issues.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type CallError, callFromInstances } from "../support/instance-processes";
import { issueFields } from "../support/issues";
import { type RunningServer, startServer } from "../support/server";
import { type SeededProject, seedTestWorkspace } from "../support/workspaces";

const t0 = new Date("2025-03-01T12:00:00.000Z");
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

type Created = Awaited<ReturnType<typeof createIssue>> | CallError;
type Call = Partial<IssueFields> & { title: string };

describe.each(testDialects)("issue numbers with two instances filing at once, on %s", (dialect) => {
  let database: TestDatabase;
  let handles: DatabaseHandle[] = [];
  let children: ChildProcess[] = [];
  let project: SeededProject;
  let reporterId: number;
  let assigneeId: number;
  let labelId: number;

  afterEach(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    children = [];
    await Promise.all(handles.map((h) => h.db.destroy()));
    handles = [];
    await database?.drop();
  });

  async function setUp() {
    database = await createTestDatabase(dialect);
    const first = database.open();
    handles.push(first);
    await migrateToLatest(first);
    const acme = await seedTestWorkspace(first.db, {
      slug: "acme",
      name: "Acme",
      at: t0,
      members: { Ada: "owner", Grace: "member" },
      // API: another project of the workspace, whose counter must not move.
      projects: { WEB: "Website", API: "API" },
      labels: { Bug: "red" },
    });
    ({ Ada: reporterId, Grace: assigneeId } = acme.users);
    project = acme.projects.WEB;
    labelId = acme.labels.Bug;
  }

  /** Files `calls` at once, alternating between two instances; returns every result. */
  async function fileOnTwoInstances(calls: Call[]): Promise<Created[]> {
    const halves = [calls.filter((_, i) => i % 2 === 0), calls.filter((_, i) => i % 2 === 1)].map((half) => half.map(issueFields));
    if (dialect === "postgres") {
      const instances = [database.open(), database.open()];
      handles.push(...instances);
      const results = await Promise.all(
        halves.flatMap((half, i) =>
          half.map((fields) =>
            createIssue(instances[i]!.db, { project, reporterId, fields, now: t0 }).catch((error: unknown) => ({
              error: String((error as { code?: string }).code ?? error),
            })),
          ),
        ),
      );
      return results;
    }
    const perInstance = halves.map((half) => half.map((fields) => ({ project, reporterId, fields })));
    return callFromInstances<Created>(database, { module: "/app/issues/issues.server.ts", exportName: "createIssue", now: t0 }, perInstance, children);
  }

  async function expectNumbersOneTo(count: number, results: Created[]) {
    expect(results.filter((r) => !("number" in r))).toEqual([]);
    const numbers = results.map((r) => (r as { number: number }).number).sort((a, b) => a - b);
    expect(numbers).toEqual(range(count));
    const { db } = handles[0]!;
    const stored = await db.selectFrom("issues").select(["number", "title"]).where("project_id", "=", project.id).orderBy("number").execute();
    expect(stored.map((s) => s.number)).toEqual(range(count));
    // Every title filed is there once.
    expect(stored.map((s) => s.title).sort()).toEqual(range(count).map((i) => `Issue ${i}`).sort());
    const counters = await db.selectFrom("projects").select(["key", "next_issue_number"]).orderBy("key").execute();
    expect(counters).toEqual([
      { key: "API", next_issue_number: 1 },
      { key: "WEB", next_issue_number: count + 1 },
    ]);
    const created = await db.selectFrom("activities").select("issue_id").where("kind", "=", "created").execute();
    expect(created).toHaveLength(count);
  }

  it("gives 40 issues filed at once through two instances the numbers 1 to 40", { timeout: 60_000 }, async () => {
    await setUp();
    const results = await fileOnTwoInstances(range(40).map((i) => ({ title: `Issue ${i}` })));
    await expectNumbersOneTo(40, results);
  });

  it("does the same when each issue has an assignee and a label (read before the counter)", { timeout: 60_000 }, async () => {
    await setUp();
    const results = await fileOnTwoInstances(range(40).map((i) => ({ title: `Issue ${i}`, assigneeId, labelIds: [labelId] })));
    // Two processes on one SQLite file: BEGIN IMMEDIATE makes the second wait for the first.
    await expectNumbersOneTo(40, results);
  });
});

describe.each(testDialects)("issue numbers over HTTP with two production servers, on %s", (dialect) => {
  const password = "correct horse battery";
  const newIssuePath = "/w/acme/p/WEB/issues/new";
  let database: TestDatabase;
  let servers: RunningServer[] = [];
  let clients: BrowserlessClient[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Two instances on the same database: the same DATABASE_URL, or on SQLite the same DATA_DIR.
    servers = [await startServer(database.env), await startServer(database.env)];
    const [a, b] = servers.map((server) => new BrowserlessClient(server.url)) as [BrowserlessClient, BrowserlessClient];
    const signedUp = await a.post("/signup", { name: "Ada", email: "ada@example.com", password });
    expect(signedUp.status, await signedUp.clone().text()).toBe(302);
    const workspace = await a.post("/w/new", { name: "Acme", slug: "acme" });
    expect(workspace.status).toBe(302);
    expect(workspace.headers.get("location")).toBe("/w/acme");
    const project = await a.post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" });
    expect(project.status).toBe(302);
    expect(project.headers.get("location")).toBe("/w/acme/p/WEB/issues");
    const signedIn = await b.post("/login", { email: "ada@example.com", password });
    expect(signedIn.status, await signedIn.clone().text()).toBe(302);
    clients = [a, b];
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it("answers 30 concurrent 'New issue' posts alternating between the servers with WEB-1 … WEB-30", { timeout: 60_000 }, async () => {
    // Each server knows the session it signed in.
    for (const client of clients) expect((await client.get(newIssuePath)).status).toBe(200);

    const responses = await Promise.all(
      range(30).map((i) =>
        clients[i % 2]!.post(newIssuePath, { title: `Issue ${i}`, description: "", status: "backlog", priority: "none", assigneeId: "", dueDate: "" }),
      ),
    );
    const answers = await Promise.all(
      responses.map(async (r) => ({ status: r.status, location: r.headers.get("location"), body: r.status === 302 ? "" : (await r.text()).slice(0, 300) })),
    );
    for (const answer of answers) {
      expect(answer, JSON.stringify(answer)).toMatchObject({ status: 302, location: expect.stringMatching(/^\/w\/acme\/p\/WEB\/issues\/[1-9]\d*$/) });
    }
    const numbers = answers.map((a) => Number(a.location!.split("/").pop())).sort((x, y) => x - y);
    expect(numbers).toEqual(range(30));

    // Each issue shows on both servers, with the title it was filed with.
    const [first, last] = await Promise.all([clients[1]!.get("/w/acme/p/WEB/issues/1"), clients[0]!.get("/w/acme/p/WEB/issues/30")]);
    expect(first.status).toBe(200);
    expect(last.status).toBe(200);
    // And under the number its answer named, the database holds the title that was posted.
    const handle = database.open();
    try {
      const stored = await handle.db.selectFrom("issues").select(["number", "title"]).orderBy("number").execute();
      const posted = answers.map((a, i) => ({ number: Number(a.location!.split("/").pop()), title: `Issue ${i + 1}` }));
      expect(stored).toEqual(posted.sort((x, y) => x.number - y.number));
    } finally {
      await handle.db.destroy();
    }
    // No server logged an error (other than /readyz answering 503 while it was starting).
    for (const server of servers) {
      const errors = server.logs.filter(
        (line) => typeof line.level === "number" && line.level >= 50 && (line.req as { url?: string } | undefined)?.url !== "/readyz",
      );
      expect(errors).toEqual([]);
    }
  });
});
