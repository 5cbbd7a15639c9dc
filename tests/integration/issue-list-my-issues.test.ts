/**
 * "My issues" (docs/product.md, Screens: open issues assigned to me, across projects): two views,
 * "Assigned to me" (open ones, by status in the workflow's order, then priority, then the latest
 * update) and "Reported by me" (open or closed, latest update first), each in pages of 50 like the
 * list, never an archived project's issues. (The page's tabs: my-issues-and-keyboard.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import type { Status } from "~/db/schema";
import { closedStatuses, priorities, statuses } from "~/issues/issue-fields";
import { issuePageSize } from "~/issues/issue-list.server";
import { myIssues, type MyIssuesView } from "~/issues/my-issues.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { seedTestWorkspace } from "../support/workspaces";

const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 9, minutes)).toISOString();

type Seeded = { key: "WEB" | "API" | "OLD"; number: number; status: Status; priority: number; assignee: "ada" | "grace"; reporter: "ada" | "grace"; updatedAt: string };

/** 150 issues over three projects (OLD is archived): about 70 open ones assigned to Ada in the live two. */
const seeded: Seeded[] = Array.from({ length: 150 }, (_, index) => {
  const i = index + 1;
  return {
    key: i % 10 === 0 ? "OLD" : i % 2 === 0 ? "WEB" : "API",
    number: i,
    status: statuses[i % 6]!,
    priority: (i * 7) % 5,
    assignee: i % 4 === 3 ? "grace" : "ada",
    reporter: i % 3 === 2 ? "grace" : "ada",
    // Every minute once (150 minutes, 53 prime to 150): an order other than the numbers'.
    updatedAt: at((i * 53) % 150),
  };
});

const open = (s: Seeded) => !closedStatuses.includes(s.status);
const expected = (view: MyIssuesView) =>
  seeded
    .filter((s) => s.key !== "OLD" && (view === "assigned" ? s.assignee === "ada" && open(s) : s.reporter === "ada"))
    .sort(
      (a, b) =>
        (view === "assigned" ? statuses.indexOf(a.status) - statuses.indexOf(b.status) || b.priority - a.priority : 0) ||
        b.updatedAt.localeCompare(a.updatedAt) ||
        0,
    )
    .map((s) => `${s.key}-${s.number}`);

describe.each(testDialects)("myIssues on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let workspaceId: number;
  let ada: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
    const acme = await seedTestWorkspace(db, {
      slug: "acme",
      at: new Date(at(0)),
      members: { Ada: "owner", Grace: "member" },
      projects: { WEB: "Website", API: "Backend", OLD: "Old" },
      labels: { Bug: "red" },
    });
    workspaceId = acme.id;
    ada = acme.users.Ada;
    const people = { ada, grace: acme.users.Grace };
    const inserted = await db
      .insertInto("issues")
      .values(
        seeded.map((s) => ({
          project_id: acme.projects[s.key].id,
          number: s.number,
          title: `Issue ${s.number}`,
          status: s.status,
          priority: s.priority,
          assignee_id: people[s.assignee],
          reporter_id: people[s.reporter],
          created_at: s.updatedAt,
          updated_at: s.updatedAt,
        })),
      )
      .returning(["id", "number"])
      .execute();
    await db
      .insertInto("issue_labels")
      .values(inserted.filter((row) => row.number % 5 === 1).map((row) => ({ issue_id: row.id, label_id: acme.labels.Bug })))
      .execute();
    await db.updateTable("projects").set({ archived_at: at(0) }).where("id", "=", acme.projects.OLD.id).execute();
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await database?.drop();
  });

  const pageOf = (view: MyIssuesView, page: number) => myIssues(db, { workspaceId, userId: ada, view, page });
  const keys = (found: Awaited<ReturnType<typeof pageOf>>) => found.issues.map((i) => `${i.projectKey}-${i.number}`);

  it.each(["assigned", "reported"] as const)("%s: pages of 50, in order, the whole of them once, a page beyond the last is the last", async (view) => {
    const all = expected(view);
    expect(all.length).toBeGreaterThan(issuePageSize);
    const first = await pageOf(view, 1);
    expect(first).toMatchObject({ view, total: all.length, page: 1, pageCount: Math.ceil(all.length / issuePageSize) });
    expect(keys(first)).toEqual(all.slice(0, issuePageSize));
    const second = await pageOf(view, 2);
    expect(second).toMatchObject({ total: all.length, page: 2 });
    expect(keys(second)).toEqual(all.slice(issuePageSize, 2 * issuePageSize));
    const beyond = await pageOf(view, 999);
    expect(beyond.page).toBe(first.pageCount);
    expect(keys(beyond)).toEqual(all.slice((first.pageCount - 1) * issuePageSize));
  });

  it("gives each status's number of issues over all pages, for the groups' headings", async () => {
    const first = await pageOf("assigned", 1);
    const assigned = seeded.filter((s) => s.key !== "OLD" && s.assignee === "ada" && open(s));
    for (const status of new Set(first.issues.map((i) => i.status))) {
      expect(first.statusTotals[status], status).toBe(assigned.filter((s) => s.status === status).length);
    }
  });

  it("gives each row what a row shows: its project's key, its assignee, its labels", async () => {
    const found = (await pageOf("reported", 1)).issues.find((i) => i.number % 5 === 1 && i.assignee?.id === ada)!;
    expect(found).toEqual({
      id: expect.any(Number),
      number: found.number,
      title: `Issue ${found.number}`,
      status: seeded[found.number - 1]!.status,
      priority: priorities[seeded[found.number - 1]!.priority],
      projectKey: seeded[found.number - 1]!.key,
      assignee: { id: ada, name: "Ada" },
      labels: [{ id: expect.any(Number), name: "Bug", color: "red" }],
      due_date: null,
      updated_at: seeded[found.number - 1]!.updatedAt,
    });
  });

  it("is empty for someone with nothing here", async () => {
    expect(await myIssues(db, { workspaceId, userId: 987654, view: "assigned", page: 3 })).toMatchObject({ issues: [], total: 0, page: 1, pageCount: 1 });
  });
});
