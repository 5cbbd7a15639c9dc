/**
 * The concurrency proof of issue numbering (SPEC §3: "number per project, from 1, never reused"):
 * two instances of Cairn on one database file issues at the same moment, and every issue gets its
 * own number, with no gap and no duplicate.
 *
 * (a) Through createIssue on two database handles. On PostgreSQL both handles live in this process
 *     (each has its own pool). On SQLite each "instance" is a separate Node process, as in
 *     production: better-sqlite3 is synchronous, so two connections in one process would block
 *     each other's event loop in SQLite's busy handler — a deadlock of the test, not of Cairn.
 * (b) Over HTTP, through two production servers on the same database.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { createIssue, type FieldProblem, type IssueFields } from "~/issues/issues.server";
import { BrowserlessClient } from "../support/browserless-client";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { repoRoot } from "../support/paths";
import { type RunningServer, startServer } from "../support/server";

const t0 = new Date("2025-03-01T12:00:00.000Z");
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

type Created = { number: number } | FieldProblem | { error: string };
type Project = { id: number; workspace_id: number };
type Call = Partial<IssueFields> & { title: string };

const issueFields = (call: Call): IssueFields => ({
  description: "",
  status: "backlog",
  priority: "none",
  assigneeId: null,
  labelIds: [],
  dueDate: null,
  ...call,
});

/**
 * One Cairn instance in its own Node process: it loads the app's modules through Vite (as
 * `NODE_ENV=development node server.js` does), opens the database the way the server does, says
 * "ready", and on "go" files its issues all at once, answering with their results as JSON.
 */
const instanceScript = `
import { createServer } from "vite";
const config = JSON.parse(process.env.CAIRN_TEST_INSTANCE);
const vite = await createServer({
  root: config.root,
  configFile: false,
  logLevel: "error",
  appType: "custom",
  resolve: { alias: { "~": config.root + "app" } },
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const { openDatabase } = await vite.ssrLoadModule("/app/db/database.server.ts");
  const { createIssue } = await vite.ssrLoadModule("/app/issues/issues.server.ts");
  const handle = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  process.stdout.write("ready\\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  process.stdin.destroy();
  const results = await Promise.all(
    config.calls.map(async (fields) => {
      try {
        return await createIssue(handle.db, { project: config.project, reporterId: config.reporterId, fields, now: new Date(config.now) });
      } catch (error) {
        return { error: String(error?.code ?? error?.message ?? error) };
      }
    }),
  );
  process.stdout.write(JSON.stringify(results) + "\\n");
  await handle.db.destroy();
} finally {
  await vite.close();
}
`;

type Instance = { ready: Promise<void>; go(): void; results: Promise<Created[]>; process: ChildProcess };

function startInstance(database: TestDatabase, config: { project: Project; reporterId: number; calls: IssueFields[] }): Instance {
  const child = spawn(process.execPath, ["--input-type=module", "-e", instanceScript], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      CAIRN_TEST_INSTANCE: JSON.stringify({
        ...config,
        root: repoRoot,
        databaseUrl: database.env.DATABASE_URL,
        dataDir: database.dataDir,
        now: t0.toISOString(),
      }),
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.startsWith("ready\n")) resolve();
    });
    void exited.then((code) => reject(new Error(`instance exited with ${code} before it was ready: ${stderr}`)));
  });
  const results = exited.then((code) => {
    const line = stdout.split("\n")[1];
    if (code !== 0 || !line) throw new Error(`instance exited with ${code}: ${stderr}\n${stdout}`);
    return JSON.parse(line) as Created[];
  });
  return { ready, go: () => child.stdin!.write("go\n"), results, process: child };
}

describe.each(testDialects)("issue numbers with two instances filing at once, on %s", (dialect) => {
  let database: TestDatabase;
  let handles: DatabaseHandle[] = [];
  let children: ChildProcess[] = [];
  let project: Project;
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
    const { db } = first;
    const now = t0.toISOString();
    const user = (name: string) =>
      db
        .insertInto("users")
        .values({ email: `${name.toLowerCase()}@example.com`, name, password_hash: "x", is_instance_admin: 0, created_at: now, updated_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
    reporterId = (await user("Ada")).id;
    assigneeId = (await user("Grace")).id;
    const workspace = await db.insertInto("workspaces").values({ slug: "acme", name: "Acme", created_at: now, updated_at: now }).returning("id").executeTakeFirstOrThrow();
    await db
      .insertInto("memberships")
      .values([
        { workspace_id: workspace.id, user_id: reporterId, role: "owner", created_at: now, updated_at: now },
        { workspace_id: workspace.id, user_id: assigneeId, role: "member", created_at: now, updated_at: now },
      ])
      .execute();
    project = await db
      .insertInto("projects")
      .values({ workspace_id: workspace.id, key: "WEB", name: "Website", created_at: now, updated_at: now })
      .returning(["id", "workspace_id"])
      .executeTakeFirstOrThrow();
    // Another project of the workspace, whose counter must not move.
    await db.insertInto("projects").values({ workspace_id: workspace.id, key: "API", name: "API", created_at: now, updated_at: now }).execute();
    labelId = (
      await db.insertInto("labels").values({ workspace_id: workspace.id, name: "Bug", color: "red", created_at: now, updated_at: now }).returning("id").executeTakeFirstOrThrow()
    ).id;
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
    const instances = halves.map((half) => startInstance(database, { project, reporterId, calls: half }));
    children.push(...instances.map((i) => i.process));
    await Promise.all(instances.map((i) => i.ready));
    for (const instance of instances) instance.go();
    return (await Promise.all(instances.map((i) => i.results))).flat();
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
