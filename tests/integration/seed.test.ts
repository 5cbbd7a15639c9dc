/**
 * `npm run seed` (issue 6): the demo workspace it makes on every database — counts, consistency of
 * each issue's history, determinism — and that Cairn's own functions (list, filters, board, search,
 * My issues, filing the next issue, signing in) work on it; the command's refusals and exit codes.
 */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticate } from "~/auth/accounts.server";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { loadBoard } from "~/issues/board.server";
import { closedStatuses } from "~/issues/issue-fields";
import { listIssues, parseIssueFilters } from "~/issues/issue-list.server";
import { createIssue } from "~/issues/issues.server";
import { myIssues } from "~/issues/my-issues.server";
import { labelColors } from "~/labels/palette";
import { searchIssues } from "~/search/search.server";
import { demoPassword, parseSeedArguments, seedWorkspace, type SeedSummary } from "~/seed/seed.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { repoRoot } from "../support/paths";

const now = new Date("2025-06-01T12:00:00.000Z");
const issueCount = 300;

describe("seed arguments (no database)", () => {
  it("reads --workspace and --issues, with defaults", () => {
    expect(parseSeedArguments(["--workspace", "acme", "--issues", "10000"])).toEqual({ slug: "acme", issueCount: 10_000 });
    expect(parseSeedArguments([])).toEqual({ slug: "demo", issueCount: 1000 });
  });

  it("refuses bad values and unknown options with one line", () => {
    for (const args of [["--issues", "0"], ["--issues", "ten"], ["--issues", "2000000"], ["--workspace", "admin"], ["--workspace", "-x-"], ["--colour"], ["extra"]]) {
      const parsed = parseSeedArguments(args);
      expect(parsed, args.join(" ")).toEqual({ error: expect.stringContaining("Usage: npm run seed") });
      expect((parsed as { error: string }).error).not.toContain("\n");
    }
  });
});

describe.each(testDialects)("seeding on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let seeded: SeedSummary;
  let ownerId: number;

  const project = (key: string) =>
    db.selectFrom("projects").select(["id", "workspace_id", "next_issue_number"]).where("workspace_id", "=", seeded.workspaceId).where("key", "=", key).executeTakeFirstOrThrow();
  const issuesOf = (workspaceId: number) =>
    db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .where("projects.workspace_id", "=", workspaceId);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    db = handle.db;
    await migrateToLatest(handle);
    const result = await seedWorkspace(handle, { slug: "acme", issueCount, now });
    if ("refused" in result) throw new Error(result.refused);
    seeded = result;
    ownerId = (await db.selectFrom("users").select("id").where("email", "=", "ada@acme.example.com").executeTakeFirstOrThrow()).id;
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await database?.drop();
  });

  it("creates the team, projects, labels, issues, comments and activity it reports", async () => {
    const roles = await db
      .selectFrom("memberships")
      .select(["role", (eb) => eb.fn.countAll<number>().as("count")])
      .where("workspace_id", "=", seeded.workspaceId)
      .groupBy("role")
      .execute();
    expect(Object.fromEntries(roles.map((r) => [r.role, Number(r.count)]))).toEqual({ owner: 1, admin: 2, member: 7, viewer: 2 });
    expect(seeded).toMatchObject({ ownerEmail: "ada@acme.example.com", members: 12, issues: issueCount });

    const projects = await db.selectFrom("projects").select(["key", "next_issue_number"]).where("workspace_id", "=", seeded.workspaceId).execute();
    expect(projects.map((p) => p.key).sort()).toEqual(["API", "DOCS", "MOB", "OPS", "WEB"]);
    expect(seeded.projects.reduce((sum, p) => sum + p.issues, 0)).toBe(issueCount);

    const labels = await db.selectFrom("labels").select(["name", "color"]).where("workspace_id", "=", seeded.workspaceId).execute();
    expect(labels).toHaveLength(seeded.labels);
    for (const label of labels) expect(labelColors).toContain(label.color);

    const count = async (table: "comments" | "activities" | "issue_labels") =>
      Number(
        (
          await db
            .selectFrom(table)
            .innerJoin("issues", "issues.id", `${table}.issue_id`)
            .innerJoin("projects", "projects.id", "issues.project_id")
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where("projects.workspace_id", "=", seeded.workspaceId)
            .executeTakeFirstOrThrow()
        ).count,
      );
    expect(await count("comments")).toBe(seeded.comments);
    expect(await count("activities")).toBe(seeded.activities);
    expect(seeded.comments).toBeGreaterThan(issueCount / 2);
    expect(seeded.activities).toBeGreaterThan(issueCount);
    expect(await count("issue_labels")).toBeGreaterThan(issueCount / 2);
  });

  it("gives every issue a consistent history: numbers without gaps, a version per change, closed_at when closed", async () => {
    const issues = await issuesOf(seeded.workspaceId)
      .select(["issues.id", "issues.project_id", "issues.number", "issues.status", "issues.closed_at", "issues.version", "issues.created_at", "issues.updated_at", "issues.due_date"])
      .execute();
    const activities = await db
      .selectFrom("activities")
      .select(["issue_id", "kind", "issue_version", "created_at"])
      .where("issue_id", "in", issues.map((i) => i.id))
      .orderBy("issue_id")
      .orderBy("issue_version")
      .execute();
    const yearBefore = new Date(now.getTime() - 366 * 24 * 3600 * 1000).toISOString();
    for (const issue of issues) {
      const history = activities.filter((a) => a.issue_id === issue.id);
      expect(history[0]).toMatchObject({ kind: "created", issue_version: 1, created_at: issue.created_at });
      expect(history.map((a) => a.issue_version)).toEqual(history.map((_, i) => i + 1));
      expect(issue.version).toBe(history.length);
      expect(issue.closed_at !== null).toBe(closedStatuses.includes(issue.status));
      expect(issue.created_at >= yearBefore && issue.updated_at <= now.toISOString() && issue.created_at <= issue.updated_at).toBe(true);
      if (issue.due_date) expect(issue.due_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const { key, issues: total } of seeded.projects) {
      const { id, next_issue_number } = await project(key);
      const numbers = issues.filter((i) => i.project_id === id).map((i) => i.number).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(next_issue_number).toBe(total + 1);
    }
  });

  it("seeds the same workspace again from the same arguments", async () => {
    const again = await seedWorkspace(handle, { slug: "acme-again", issueCount, now });
    if ("refused" in again) throw new Error(again.refused);
    const contents = (workspaceId: number) =>
      issuesOf(workspaceId)
        .select(["projects.key", "issues.number", "issues.title", "issues.description", "issues.status", "issues.priority", "issues.due_date", "issues.updated_at"])
        .orderBy("projects.key")
        .orderBy("issues.number")
        .execute();
    expect(await contents(again.workspaceId)).toEqual(await contents(seeded.workspaceId));
    expect({ ...again, workspaceId: 0, ownerEmail: "" }).toEqual({ ...seeded, workspaceId: 0, ownerEmail: "", ownerIsInstanceAdmin: false });
  });

  it("makes the owner the instance admin only on an instance without accounts, and says which", async () => {
    expect(seeded.ownerIsInstanceAdmin).toBe(true);
    const later = await seedWorkspace(handle, { slug: "later", issueCount: 1, now });
    if ("refused" in later) throw new Error(later.refused);
    expect(later.ownerIsInstanceAdmin).toBe(false);
    const admins = await db.selectFrom("users").select("email").where("is_instance_admin", "=", 1).execute();
    expect(admins).toEqual([{ email: seeded.ownerEmail }]);
  });

  it("shows seeded issues in the list, its filters, the board, search and My issues", async () => {
    const web = await project("WEB");
    const webCount = seeded.projects.find((p) => p.key === "WEB")!.issues;
    const all = await listIssues(db, web.id, parseIssueFilters(new URLSearchParams()), ownerId);
    expect(all.total).toBe(webCount);
    expect(all.issues).toHaveLength(Math.min(50, webCount));
    expect(all.issues.some((issue) => issue.labels.length > 0)).toBe(true);

    const mine = await listIssues(db, web.id, parseIssueFilters(new URLSearchParams("status=open&assignee=me")), ownerId);
    expect(mine.total).toBeGreaterThan(0);
    for (const issue of mine.issues) {
      expect(closedStatuses).not.toContain(issue.status);
      expect(issue.assignee_id).toBe(ownerId);
    }

    const board = await loadBoard(db, web.id, parseIssueFilters(new URLSearchParams()), ownerId);
    expect(board.reduce((sum, column) => sum + column.total, 0)).toBe(webCount);
    expect(board.filter((column) => column.cards.length > 0).length).toBeGreaterThanOrEqual(4);

    const found = await searchIssues(handle, { workspaceId: seeded.workspaceId, q: "error" });
    expect(found.total).toBeGreaterThan(0);
    expect(found.results[0]!.title.toLowerCase() + found.results[0]!.snippet.toLowerCase()).toContain("error");

    const assigned = await myIssues(db, { workspaceId: seeded.workspaceId, userId: ownerId, view: "assigned", page: 1 });
    expect(assigned.issues.length).toBeGreaterThan(0);
    const reported = await myIssues(db, { workspaceId: seeded.workspaceId, userId: ownerId, view: "reported", page: 1 });
    expect(reported.issues.length).toBeGreaterThan(0);
  });

  it("numbers the next issue filed after the seeded ones", async () => {
    const api = await project("API");
    const filed = await createIssue(db, {
      project: api,
      reporterId: ownerId,
      fields: { title: "After the seed", description: "", status: "todo", priority: "none", assigneeId: null, labelIds: [], dueDate: null },
      now,
    });
    expect(filed).toEqual({ id: expect.any(Number), number: api.next_issue_number });
  });

  it("lets the owner, the instance admin here, sign in with the documented password", async () => {
    expect(await authenticate(db, "ada@acme.example.com", demoPassword)).toEqual({ id: ownerId });
    const owner = await db.selectFrom("users").select(["is_instance_admin", "last_workspace_id"]).where("id", "=", ownerId).executeTakeFirstOrThrow();
    expect(owner).toEqual({ is_instance_admin: 1, last_workspace_id: seeded.workspaceId });
  });

  it("refuses a workspace that exists already, changing nothing", async () => {
    const before = await db.selectFrom("issues").select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    expect(await seedWorkspace(handle, { slug: "acme", issueCount: 10, now })).toEqual({
      refused: 'A workspace with the slug "acme" exists already: seed another slug.',
    });
    const after = await db.selectFrom("issues").select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });
});

describe.each(testDialects)("npm run seed on %s", (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });

  afterAll(async () => {
    await database?.drop();
  });

  const seed = (...args: string[]) =>
    spawnSync(process.execPath, ["server.js", "seed", ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, ...database.env },
      encoding: "utf8",
    });

  it("migrates, seeds, says how long it took and how to sign in; then refuses the same slug", () => {
    const first = seed("--workspace", "demo", "--issues", "40");
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`Seeded workspace "demo" on ${dialect}: 12 members, 5 projects .*40 issues.* in [\\d.]+ s \\([\\d.]+ s per 10,000 issues\\)`));
    expect(first.stdout).toContain(`Sign in as ada@demo.example.com with the password ${demoPassword}`);
    expect(first.stdout).toContain("ada@demo.example.com owns the workspace and, as the first account of this instance, is its instance admin (/admin/monitoring).");

    const again = seed("--workspace", "demo", "--issues", "40");
    expect(again.status).toBe(1);
    expect(again.stderr).toBe('A workspace with the slug "demo" exists already: seed another slug.\n');

    // On an instance that has accounts already, the seeded owner is not its admin: the output says so.
    const other = seed("--workspace", "other", "--issues", "1");
    expect(other.status).toBe(0);
    expect(other.stdout).toContain("ada@other.example.com owns the workspace but is not this instance's admin");
    expect(other.stdout).not.toContain("is its instance admin");
  });

  it("refuses bad arguments with one line and exit code 1", () => {
    const bad = seed("--issues", "many");
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^Invalid --issues "many": .*Usage: npm run seed/)]);
  });
});
