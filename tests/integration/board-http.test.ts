/**
 * What one board request renders, over HTTP (docs/product.md, Limits "board cards"; decision record
 * 025): a column shows 50 cards, "Show N more" adds 50 at a time up to 200 a column and 600 on the
 * whole board, and past either cap the column leads to its issues in the list instead. A URL that
 * asks for more (`show.<status>=500` for every column, as anyone who can read the project may send)
 * gets the capped board, not a refusal, and each column says where the rest is. SQLite: the rules do
 * not depend on the database (tests/integration/board.test.ts shares the cap out on both).
 *
 *   acme: Ada (owner), Vic (viewer); WEB with 260 issues in Backlog, Todo and In progress each,
 *   30 in review, 210 done and none canceled — each column in number order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/database.server";
import { type Status, statuses } from "~/issues/issue-fields";
import { type BrowserlessClient, signUpOverHttp } from "../support/browserless-client";
import { createTestDatabase, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

const board = "/w/acme/p/WEB/board";
const filed: Record<Status, number> = { backlog: 260, todo: 260, in_progress: 260, in_review: 30, done: 210, canceled: 0 };
/** What the issue-30 report sent: every column asked for 500 cards. */
const everyColumnAt500 = statuses.map((status) => `show.${status}=500`).join("&");

/** The page without its scripts (their hydration data repeats the cards) and React's text separators. */
const visible = (page: string) => page.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replaceAll("<!-- -->", "");

type ShownColumn = { total: number; cards: string[]; link: { text: string; href: string } | null };

/** Each column of a board page: its total (in its heading), its cards' keys, and the link at its foot. */
function columnsOf(page: string): Record<Status, ShownColumn> {
  const sections = visible(page).split('<section aria-labelledby="column-title-').slice(1);
  const columns = sections.map((section): [Status, ShownColumn] => {
    const status = /^[a-z_]+/.exec(section)![0] as Status;
    const link = /<a ([^>]*class="board-more"[^>]*)>([^<]*)/.exec(section);
    return [
      status,
      {
        total: Number(/<h2[^>]*>.*?<span>(\d+)<\/span><\/h2>/.exec(section)![1]),
        cards: [...section.matchAll(/<li id="card-(WEB-\d+)"/g)].map((match) => match[1]!),
        link: link ? { text: link[2]!.trim(), href: /href="([^"]*)"/.exec(link[1]!)![1]!.replaceAll("&amp;", "&") } : null,
      },
    ];
  });
  return Object.fromEntries(columns) as Record<Status, ShownColumn>;
}

const shownCounts = (columns: Record<Status, ShownColumn>) => Object.fromEntries(statuses.map((status) => [status, columns[status].cards.length]));
const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, count) => total + count, 0);

describe("what one board request renders, over HTTP", () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: RunningServer;
  let ada: BrowserlessClient;
  let vic: BrowserlessClient;
  /** The numbers of each column's issues, top to bottom. */
  const numbers = {} as Record<Status, number[]>;

  async function columns(client: BrowserlessClient, path: string) {
    const response = await client.get(path);
    expect(response.status, path).toBe(200);
    return columnsOf(await response.text());
  }

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer(database.env);
    handle = database.open();
    const { db } = handle;
    ada = await signUpOverHttp(server.url, "Ada Admin", "ada@example.com");
    vic = await signUpOverHttp(server.url, "Vic Viewer", "vic@example.com");
    expect((await ada.post("/w/new", { name: "Acme", slug: "acme" })).status).toBe(302);
    expect((await ada.post("/w/acme/projects/new", { name: "Website", key: "WEB", description: "" })).status).toBe(302);
    const workspace = await db.selectFrom("workspaces").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow();
    const project = await db.selectFrom("projects").select("id").where("key", "=", "WEB").executeTakeFirstOrThrow();
    const users = await db.selectFrom("users").select(["id", "email"]).execute();
    const adaId = users.find((u) => u.email === "ada@example.com")!.id;
    const vicId = users.find((u) => u.email === "vic@example.com")!.id;
    const now = new Date().toISOString();
    await db.insertInto("memberships").values({ workspace_id: workspace.id, user_id: vicId, role: "viewer", created_at: now, updated_at: now }).execute();

    // Straight into the table (filing 1,000 issues one by one would take most of a minute).
    const rows = statuses.flatMap((status) => Array.from({ length: filed[status] }, () => status)).map((status, index) => ({
      project_id: project.id,
      number: index + 1,
      title: `Issue ${index + 1}`,
      description: "",
      status,
      priority: 0,
      reporter_id: adaId,
      sort_order: index + 1,
      version: 1,
      closed_at: status === "done" || status === "canceled" ? now : null,
      created_at: now,
      updated_at: now,
    }));
    for (let start = 0; start < rows.length; start += 200) await db.insertInto("issues").values(rows.slice(start, start + 200)).execute();
    await db.updateTable("projects").set({ next_issue_number: rows.length + 1 }).where("id", "=", project.id).execute();
    for (const status of statuses) numbers[status] = rows.filter((row) => row.status === status).map((row) => row.number);
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await server?.stop();
    await database?.drop();
  });

  it("renders at most 600 cards, 200 a column, whatever show.<status> asks for, and each column leads to the rest in the list", async () => {
    const shown = await columns(vic, `${board}?${everyColumnAt500}`);
    // Under the cap each column would show 200 (or all it has): 830 in all. The columns that want
    // the least keep theirs (30 in review, none canceled); the others share the rest equally.
    expect(shownCounts(shown)).toEqual({ backlog: 142, todo: 142, in_progress: 143, in_review: 30, done: 143, canceled: 0 });
    expect(sum(shownCounts(shown))).toBe(600);
    for (const status of statuses) {
      const column = shown[status];
      expect(column.total, status).toBe(filed[status]);
      // The top of each column, in its order.
      expect(column.cards, status).toEqual(numbers[status].slice(0, column.cards.length).map((number) => `WEB-${number}`));
      // The board is full: no "Show N more"; where a column has more, its issues in the list.
      if (column.cards.length < column.total) {
        expect(column.link, status).toEqual({ text: `See all ${column.total} in the list`, href: `/w/acme/p/WEB/issues?status=${status}` });
      } else {
        expect(column.link, status).toBeNull();
      }
    }
  });

  it("leads from a column to its issues in the list, a page at a time, with and without the board's other parameters", async () => {
    const { todo } = await columns(vic, `${board}?${everyColumnAt500}&assignee=unassigned`);
    expect(todo.link!.href).toBe("/w/acme/p/WEB/issues?assignee=unassigned&status=todo");
    const list = visible(await (await vic.get(todo.link!.href)).text());
    expect(list).toContain("260 issues");
    expect(list).toContain("Page 1 of 6");
    expect(list).toMatch(/href="[^"]*page=2[^"]*" rel="next"|rel="next" href="[^"]*page=2/);
  });

  it('adds 50 cards at a time with "Show N more", up to 200 in a column, then leads to the list', async () => {
    let path = board;
    const seen: number[] = [];
    for (;;) {
      const { todo } = await columns(vic, path);
      seen.push(todo.cards.length);
      expect(todo.cards).toEqual(numbers.todo.slice(0, todo.cards.length).map((number) => `WEB-${number}`));
      if (!todo.link!.text.startsWith("Show ")) {
        expect(todo.link).toEqual({ text: "See all 260 in the list", href: "/w/acme/p/WEB/issues?status=todo" });
        break;
      }
      expect(todo.link!.text).toBe("Show 50 more");
      // Back to the last card shown so far.
      expect(todo.link!.href).toBe(`${board}?show.todo=${todo.cards.length + 50}#card-${todo.cards.at(-1)}`);
      path = todo.link!.href.replace(/#.*/, "");
    }
    expect(seen).toEqual([50, 100, 150, 200]);
  });

  it("offers no more than the board has room for, and the list once it is full", async () => {
    // 200 + 200 + 50 + 30 + 50: room for 70 more.
    const at530 = await columns(ada, `${board}?show.backlog=200&show.todo=200`);
    expect(sum(shownCounts(at530))).toBe(530);
    expect(at530.in_progress.link!.text).toBe("Show 50 more");
    expect(at530.done.link!.text).toBe("Show 50 more");
    const at580 = await columns(ada, at530.in_progress.link!.href.replace(/#.*/, ""));
    expect(shownCounts(at580)).toMatchObject({ in_progress: 100, done: 50 });
    expect(at580.in_progress.link!.text).toBe("Show 20 more");
    expect(at580.done.link!.text).toBe("Show 20 more");
    const full = await columns(ada, at580.in_progress.link!.href.replace(/#.*/, ""));
    expect(shownCounts(full)).toEqual({ backlog: 200, todo: 200, in_progress: 120, in_review: 30, done: 50, canceled: 0 });
    for (const status of ["backlog", "todo", "in_progress", "done"] as const) {
      expect(full[status].link, status).toEqual({ text: `See all ${filed[status]} in the list`, href: `/w/acme/p/WEB/issues?status=${status}` });
    }
  });

  it("reads the same caps with JavaScript: the data request carries at most 600 cards", async () => {
    const response = await vic.get(`${board}.data?${everyColumnAt500}`);
    expect(response.status).toBe(200);
    const payload = await response.text();
    // Each card's title is in the payload once.
    expect(payload.match(/"Issue \d+"/g)).toHaveLength(600);
  });
});
