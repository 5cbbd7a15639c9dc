import type { Database } from "~/db/database.server";
import { issueKey, priorityLabels, priorityOf, statusLabels } from "./issue-fields";
import { afterIssueCursor, applyIssueFilters, type IssueCursor, issueCursorColumns, issueCursorOf, type IssueFilters, orderIssues } from "./issue-list.server";

/*
 * The issue list as CSV (docs/product.md, Screens: `GET /w/:workspace/p/:key/issues.csv`): every issue the list's
 * filters match, on all its pages, in the list's order. RFC 4180 (comma, CRLF, quoted when needed,
 * quotes doubled), UTF-8 with a byte order mark so that spreadsheet programs read accents right,
 * and cells that a spreadsheet would run as a formula neutralised (OWASP "CSV injection").
 */

/** Issues read per query: the most rows of issues the export ever holds at once. */
export const csvBatchSize = 500;

export const issuesCsvColumns = [
  "Key",
  "Title",
  "Status",
  "Priority",
  "Assignee",
  "Reporter",
  "Labels",
  "Due date",
  "Created",
  "Updated",
  "Closed",
] as const;

/** The byte order mark: Excel otherwise reads UTF-8 as the local 8-bit code page. */
const bom = "\uFEFF";

/** A spreadsheet runs a cell that starts with one of these as a formula (or may: tab and CR). */
const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/** One cell: neutralised if a spreadsheet would take it for a formula, then quoted if it must be. */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = formulaStart.test(text) ? `'${text}` : text;
  return needsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One record, CRLF-terminated. */
export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

export const issuesCsvFileName = (projectKey: string) => `${projectKey}-issues.csv`;

export type IssuesCsvOptions = {
  project: { id: number; key: string };
  filters: IssueFilters;
  /** Who "assignee=me" is. */
  meId: number;
  /** The request's: once it is aborted no further batch is read. */
  signal?: AbortSignal;
  /** Called with an error that ends the stream after the response has started (the status is sent by then). */
  onError?: (error: unknown) => void;
  batchSize?: number;
};

/** One batch of issues after `cursor`, with the names the CSV shows: two queries. */
async function readBatch(db: Database, options: IssuesCsvOptions, cursor: IssueCursor | null, limit: number) {
  const { project, filters, meId } = options;
  let query = applyIssueFilters(db.selectFrom("issues"), project.id, filters, meId);
  if (cursor) query = afterIssueCursor(query, filters.sort, cursor);
  const issues = await orderIssues(query, filters.sort)
    .leftJoin("users as assignee", "assignee.id", "issues.assignee_id")
    .leftJoin("users as reporter", "reporter.id", "issues.reporter_id")
    .select([
      "issues.id",
      "issues.number",
      "issues.title",
      "issues.status",
      "issues.priority",
      "issues.due_date",
      "issues.created_at",
      "issues.updated_at",
      "issues.closed_at",
      "assignee.name as assigneeName",
      "reporter.name as reporterName",
    ])
    .select(issueCursorColumns)
    .limit(limit)
    .execute();
  const labels = issues.length
    ? await db
        .selectFrom("issue_labels")
        .innerJoin("labels", "labels.id", "issue_labels.label_id")
        .select(["issue_labels.issue_id", "labels.name"])
        .where(
          "issue_labels.issue_id",
          "in",
          issues.map((issue) => issue.id),
        )
        .orderBy("labels.name")
        .execute()
    : [];
  const labelNames = new Map<number, string[]>();
  for (const label of labels) {
    const names = labelNames.get(label.issue_id);
    if (names) names.push(label.name);
    else labelNames.set(label.issue_id, [label.name]);
  }
  const last = issues.at(-1);
  const next = last ? issueCursorOf(last) : null;
  const text = issues
    .map((issue) =>
      csvRow([
        issueKey(project.key, issue.number),
        issue.title,
        statusLabels[issue.status],
        priorityLabels[priorityOf(issue.priority)],
        issue.assigneeName,
        issue.reporterName,
        (labelNames.get(issue.id) ?? []).join(", "),
        issue.due_date,
        issue.created_at,
        issue.updated_at,
        issue.closed_at,
      ]),
    )
    .join("");
  return { text, count: issues.length, next };
}

/**
 * The CSV as a byte stream that reads one batch at a time, only when the reader wants more
 * (pull-based: a slow client holds back the queries, and at most one batch waits ahead of it).
 * The first batch is read before this resolves, so that a failure there is an ordinary error
 * response rather than a truncated download.
 */
export async function streamIssuesCsv(db: Database, options: IssuesCsvOptions): Promise<ReadableStream<Uint8Array>> {
  const { signal } = options;
  const batchSize = options.batchSize ?? csvBatchSize;
  const encoder = new TextEncoder();
  let cursor: IssueCursor | null = null;
  let finished = false;
  let cancelled = false;

  async function nextBatch(): Promise<string> {
    const batch = await readBatch(db, options, cursor, batchSize);
    cursor = batch.next;
    if (batch.count < batchSize) finished = true;
    return batch.text;
  }

  let first: string | null = bom + csvRow(issuesCsvColumns) + (await nextBatch());

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          let text: string;
          if (first !== null) {
            text = first;
            first = null;
          } else {
            signal?.throwIfAborted();
            text = await nextBatch();
            // The reader went away while the batch was read.
            if (cancelled) return;
            signal?.throwIfAborted();
          }
          if (text) controller.enqueue(encoder.encode(text));
          if (finished) controller.close();
        } catch (error) {
          if (cancelled) return;
          if (!signal?.aborted) options.onError?.(error);
          controller.error(error);
        }
      },
      cancel() {
        cancelled = true;
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
}
