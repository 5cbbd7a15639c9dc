import { sql } from "kysely";
import type { Database, DatabaseHandle } from "~/db/database.server";
import type { Status } from "~/db/schema";
import type { IssueRowData } from "~/issues/issue-refs";
import { parsePositiveInteger } from "~/forms/fields.server";
import { priorityOf } from "~/issues/issue-fields";
import { labelsOfIssues } from "~/issues/issue-list.server";
import { peopleOnce } from "~/issues/issue-refs";
import { type QueryWord, queryWords } from "./close-words.server";
import { latinFoldPairs } from "./latin-folding";
import { markdownText } from "./markdown-text.server";

/** docs/product.md, Limits. */
export const searchPageSize = 50;
/** Longer queries are cut: nobody types more, and it bounds the work a request can ask for. */
export const maxQueryLength = 200;
export const maxSearchTerms = 10;
/** About how long a result's snippet is, in characters. */
export const snippetLength = 160;

/** `[start, end)` of a matching word, in UTF-16 code units of the string it belongs to. */
export type HighlightRange = { start: number; end: number };

/** A result: the issue as a list row shows it, with the words to highlight and a snippet. */
export type SearchResult = IssueRowData & {
  projectKey: string;
  titleHighlights: HighlightRange[];
  /** Whitespace-collapsed text around the first match in the description or in the matching comment. */
  snippet: string;
  snippetHighlights: HighlightRange[];
};

export type SearchPage = { results: SearchResult[]; total: number; page: number; pageCount: number };

const wordPattern = /[\p{L}\p{N}]+/gu;

/**
 * The words of a query: runs of letters and digits, nothing else, so that no operator or quote of
 * either database's query language can come from the user. Distinct (ignoring case), at most
 * `maxSearchTerms`, from the first `maxQueryLength` characters.
 */
export function searchTerms(q: string): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const [word] of q.normalize("NFC").slice(0, maxQueryLength).matchAll(wordPattern)) {
    const folded = foldWord(word);
    if (seen.has(folded)) continue;
    seen.add(folded);
    terms.push(word);
    if (terms.length === maxSearchTerms) break;
  }
  return terms;
}

const foldMap: ReadonlyMap<string, string> = (() => {
  const [from, to] = latinFoldPairs();
  return new Map([...from].map((letter, i) => [letter, to[i]!]));
})();

const foldLetters = (text: string) => {
  let folded = "";
  for (const char of text) folded += foldMap.get(char) ?? char;
  return folded;
};

const ascii = /^[\x00-\x7f]*$/;

/** Lower case, accents of Latin letters removed: how both databases compare words. */
export function foldWord(word: string): string {
  // ASCII has no accents to fold: most words of most texts, letter by letter through a Map otherwise.
  return ascii.test(word) ? word.toLowerCase() : foldLetters(foldLetters(word).toLowerCase());
}

const noWords: ReadonlySet<string> = new Set();

/**
 * Where in `text` words start with one of the (folded) terms, or are one of the close words (folded
 * words of the workspace a typo away from a term): the words to wrap in <mark>.
 */
export function highlightRanges(text: string, foldedTerms: readonly string[], closeWords = noWords): HighlightRange[] {
  return [...matchingWords(text, foldedTerms, closeWords)];
}

/** The first word of `text` that matches, reading no further. */
const firstMatch = (text: string, foldedTerms: readonly string[], closeWords = noWords): HighlightRange | undefined =>
  matchingWords(text, foldedTerms, closeWords).next().value;

function* matchingWords(text: string, foldedTerms: readonly string[], closeWords: ReadonlySet<string>): Generator<HighlightRange, undefined> {
  if (!foldedTerms.length) return;
  for (const match of text.matchAll(wordPattern)) {
    const word = foldWord(match[0]);
    if (closeWords.has(word) || foldedTerms.some((term) => word.startsWith(term))) yield { start: match.index, end: match.index + match[0].length };
  }
}

/**
 * A short excerpt of `text` (whitespace collapsed) that starts at a word boundary a little before
 * its first match, with "…" where it was cut, and the ranges to highlight in it.
 */
export function makeSnippet(text: string, foldedTerms: readonly string[], closeWords = noWords): { snippet: string; highlights: HighlightRange[] } {
  const length = snippetLength;
  const flat = text.replace(/\s+/g, " ").trim();
  const first = firstMatch(flat, foldedTerms, closeWords);
  let start = 0;
  if (first && first.end > length - 20) {
    // About a quarter of the snippet before the match, from the start of a word.
    const space = flat.indexOf(" ", Math.max(0, first.start - Math.floor(length / 4)));
    start = space !== -1 && space < first.start ? space + 1 : first.start;
  }
  let end = Math.min(flat.length, start + length);
  if (end < flat.length) {
    const space = flat.lastIndexOf(" ", end);
    if (space > start && (!first || space >= first.end)) end = space;
    // Never cut a character outside the Basic Multilingual Plane (an emoji) in half.
    const code = flat.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  }
  const snippet = (start > 0 ? "… " : "") + flat.slice(start, end).trimEnd() + (end < flat.length ? " …" : "");
  return { snippet, highlights: highlightRanges(snippet, foldedTerms, closeWords) };
}

/** Markdown read around a match: this many characters of it before and after, to whole lines. */
const excerptReach = 500;

/**
 * The text of Markdown `source` as it reads (markdownText) around its first word that matches, and
 * whether a word still matches there (a word of a link's URL is no longer in the text); else its
 * beginning. Only an excerpt is read, to whole lines (a line longer than twice `excerptReach` is cut
 * at a space), marked "…" where it was cut: a page of long descriptions costs no more than a page of
 * short ones.
 */
function readableExcerpt(source: string, foldedTerms: readonly string[], closeWords: ReadonlySet<string>): { text: string; matches: boolean } {
  const first = firstMatch(source, foldedTerms, closeWords);
  if (first) {
    const text = excerpt(source, first);
    if (firstMatch(text, foldedTerms, closeWords)) return { text, matches: true };
  }
  return { text: excerpt(source, { start: 0, end: 0 }), matches: false };
}

function excerpt(source: string, around: HighlightRange): string {
  let start = source.lastIndexOf("\n", Math.max(0, around.start - excerptReach)) + 1;
  const earliest = around.start - 2 * excerptReach;
  if (start < earliest) {
    const space = source.indexOf(" ", earliest);
    start = space !== -1 && space < around.start ? space + 1 : earliest;
  }
  let end = source.indexOf("\n", around.end + excerptReach);
  const latest = around.end + 2 * excerptReach;
  if (end === -1) end = source.length;
  if (end > latest) {
    const space = source.lastIndexOf(" ", latest);
    end = space > around.end ? space : latest;
  }
  return (start > 0 ? "… " : "") + markdownText(source.slice(start, end)) + (end < source.length ? " …" : "");
}

type Hit = {
  issue_id: number;
  number: number;
  title: string;
  status: Status;
  priority: number;
  due_date: string | null;
  updated_at: string;
  assignee_id: number | null;
  assignee_name: string | null;
  description: string;
  project_key: string;
  total: number;
};

/**
 * FTS5: the workspace's word, and each word of the query a string (double-quoted, so never an
 * operator), prefix-matched or, when `close`, one of its close words; all required, in the issue's
 * own columns (never its workspace's word).
 */
function sqliteMatch(workspaceId: number, words: readonly QueryWord[], close: boolean) {
  const word = ({ term, closeWords }: QueryWord) => (close ? `("${term}"* ${closeWords.map((closeWord) => `OR "${closeWord}"`).join(" ")})` : `"${term}"*`);
  return `workspace : "w${workspaceId}" AND {title body comments} : (${words.map(word).join(" AND ")})`;
}

/** PostgreSQL: each word of the query a quoted lexeme, folded as the index is, prefix-matched or one of its close words; all required. */
function postgresQuery(words: readonly QueryWord[], close: boolean) {
  return words.map(({ folded, closeWords }) => (close ? `('${folded}':* ${closeWords.map((word) => `| '${word}'`).join(" ")})` : `'${folded}':*`)).join(" & ");
}

/**
 * One page of results, each row with the number of matching issues: first the issues that match the
 * words as typed, best first; then those that match only with close words, best first. The page is
 * chosen (and the matches counted) on the index alone; only its 50 issues are then read whole.
 */
async function findHits({ db, dialect }: DatabaseHandle, workspaceId: number, words: readonly QueryWord[], page: number): Promise<Hit[]> {
  const limit = searchPageSize;
  const offset = (page - 1) * searchPageSize;
  const close = words.some((word) => word.closeWords.length > 0);
  if (dialect === "sqlite") {
    // One row per issue, scoped to the workspace by the index (migrations/0011). bm25: lower is
    // better; a title counts ten times a description or the comments, the workspace's word nothing.
    const exact = sqliteMatch(workspaceId, words, false);
    const closeOnly = `${sqliteMatch(workspaceId, words, true)} NOT {title body comments} : (${words.map(({ term }) => `"${term}"*`).join(" AND ")})`;
    const ranked = (tier: number, match: string) =>
      sql`select rowid as issue_id, ${sql.lit(tier)} as tier, bm25(search_index, 0.0, 10.0, 1.0, 1.0) as rank from search_index where search_index match ${match}`;
    const count = (match: string) => sql`(select count(*) from search_index where search_index match ${match})`;
    const result = await sql<Hit>`
      with page as (
        select issue_id, tier, rank from (${ranked(0, exact)}${close ? sql` union all ${ranked(1, closeOnly)}` : sql``})
        order by tier, rank, issue_id desc
        limit ${limit} offset ${offset}
      )
      select r.issue_id, i.number, i.title, i.status, i.priority, i.due_date, i.updated_at, i.assignee_id,
             u.name as assignee_name, i.description, p.key as project_key,
             ${count(exact)}${close ? sql` + ${count(closeOnly)}` : sql``} as total
      from page r
      join issues i on i.id = r.issue_id
      join projects p on p.id = i.project_id
      left join users u on u.id = i.assignee_id
      order by r.tier, r.rank, r.issue_id desc`.execute(db);
    return result.rows;
  }
  // One row per issue (migrations/0011). ts_rank: higher is better; weights A (title) 1.0,
  // B (description) 0.4, D (comments) 0.1.
  const matches = (tier: number) => (tier === 0 ? sql`s.vector @@ query.exact` : sql`s.vector @@ query.close and not s.vector @@ query.exact`);
  const ranked = (tier: number) =>
    sql`select s.issue_id, ${sql.lit(tier)} as tier, ts_rank(s.vector, ${tier === 0 ? sql`query.exact` : sql`query.close`}) as rank
        from query, search_index s where s.workspace_id = ${workspaceId} and ${matches(tier)}`;
  const count = (tier: number) => sql`(select count(*) from query, search_index s where s.workspace_id = ${workspaceId} and ${matches(tier)})`;
  const result = await sql<Hit>`
    with query as (select to_tsquery('simple', ${postgresQuery(words, false)}) as exact, to_tsquery('simple', ${postgresQuery(words, close)}) as close),
    page as (
      select issue_id, tier, rank from (${ranked(0)}${close ? sql` union all ${ranked(1)}` : sql``}) as ranked
      order by tier, rank desc, issue_id desc
      limit ${limit} offset ${offset}
    )
    select r.issue_id, i.number, i.title, i.status, i.priority, i.due_date, i.updated_at, i.assignee_id,
           u.name as assignee_name, i.description, p.key as project_key,
           ${count(0)}${close ? sql` + ${count(1)}` : sql``} as total
    from page r
    join issues i on i.id = r.issue_id
    join projects p on p.id = i.project_id
    left join users u on u.id = i.assignee_id
    order by r.tier, r.rank desc, r.issue_id desc`.execute(db);
  return result.rows;
}

/**
 * Full-text search over the titles, descriptions and live comments of a workspace's issues
 * (docs/product.md, Screens): every word must match (as a word or the start of one), case and Latin
 * accents ignored, wherever in the issue it is (migrations/0011); titles rank above descriptions and
 * comments. After those, the issues that match only when a word is read as one of the workspace's
 * words a typo or two away from it ("footr" finds "footer"; migrations/0026). The snippet is the text
 * as it reads (no Markdown), from the description if it matches, else from the first matching
 * comment. Any input is safe: only the query's words and the workspace's own words reach the
 * database, as bound parameters; a query without words finds nothing.
 */
export async function searchIssues(
  handle: DatabaseHandle,
  { workspaceId, q, page = 1 }: { workspaceId: number; q: string; page?: number },
): Promise<SearchPage> {
  const terms = searchTerms(q);
  if (!terms.length) return { results: [], total: 0, page: 1, pageCount: 1 };
  const words = await queryWords(
    handle,
    workspaceId,
    terms.map((term) => ({ term, folded: foldWord(term) })),
  );
  let current = Number.isSafeInteger(page) && page > 1 ? page : 1;
  let rows = await findHits(handle, workspaceId, words, current);
  if (!rows.length && current > 1) {
    // Past the last page (an old link): show the last one.
    const first = await findHits(handle, workspaceId, words, 1);
    const total = first.length ? Number(first[0]!.total) : 0;
    current = Math.max(1, Math.ceil(total / searchPageSize));
    rows = current === 1 ? first : await findHits(handle, workspaceId, words, current);
  }
  const total = rows.length ? Number(rows[0]!.total) : 0;
  const folded = words.map((word) => word.folded);
  const closeWords = new Set(words.flatMap((word) => word.closeWords));
  const labels = await labelsOfIssues(
    handle.db,
    rows.map((row) => Number(row.issue_id)),
  );
  const descriptions = new Map(rows.map((row) => [Number(row.issue_id), readableExcerpt(row.description, folded, closeWords)]));
  const comments = await matchingComments(
    handle.db,
    rows.map((row) => Number(row.issue_id)).filter((id) => !descriptions.get(id)!.matches),
    folded,
    closeWords,
  );
  const person = peopleOnce();
  const results = rows.map((row): SearchResult => {
    const id = Number(row.issue_id);
    const { snippet, highlights } = makeSnippet(comments.get(id) ?? descriptions.get(id)!.text, folded, closeWords);
    return {
      id,
      projectKey: row.project_key,
      number: Number(row.number),
      title: row.title,
      status: row.status,
      priority: priorityOf(Number(row.priority)),
      assignee: person(row.assignee_id === null ? null : Number(row.assignee_id), row.assignee_name),
      labels: labels.get(id) ?? [],
      due_date: row.due_date,
      updated_at: row.updated_at,
      titleHighlights: highlightRanges(row.title, folded, closeWords),
      snippet,
      snippetHighlights: highlights,
    };
  });
  return { results, total, page: current, pageCount: Math.max(1, Math.ceil(total / searchPageSize)) };
}

/** Comments of an issue read to find its snippet, at most: its first ones. */
const snippetCommentsRead = 20;

/**
 * For the results whose title alone matched (or whose words are spread over the issue), the text as
 * it reads of the first of its live comments with a matching word, by issue: where their snippet
 * comes from.
 */
async function matchingComments(db: Database, issueIds: number[], foldedTerms: readonly string[], closeWords: ReadonlySet<string>): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  if (!issueIds.length) return found;
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("comments")
        .select(["issue_id", "id", "body", sql<number>`row_number() over (partition by issue_id order by id)`.as("n")])
        .where("issue_id", "in", issueIds)
        .where("deleted_at", "is", null)
        .as("first_comments"),
    )
    .select(["issue_id", "body"])
    .where("n", "<=", snippetCommentsRead)
    .orderBy("id")
    .execute();
  for (const { issue_id, body } of rows) {
    if (found.has(issue_id)) continue;
    const comment = readableExcerpt(body, foldedTerms, closeWords);
    if (comment.matches) found.set(issue_id, comment.text);
  }
  return found;
}

/** `WEB-42` (any case, spaces around allowed): a project key and an issue number. */
export function parseIssueKey(text: string): { projectKey: string; number: number } | null {
  const match = /^\s*([A-Za-z]{2,6})-([1-9]\d{0,9})\s*$/.exec(text);
  const number = match && parsePositiveInteger(match[2]);
  return number ? { projectKey: match[1]!.toUpperCase(), number } : null;
}

/** The issue a key like `WEB-42` names in the workspace, if there is one: where "jump to" goes. */
export async function findIssueByKey(
  db: Database,
  workspaceId: number,
  text: string,
): Promise<{ issueId: number; projectKey: string; number: number } | undefined> {
  const key = parseIssueKey(text);
  if (!key) return undefined;
  const issue = await db
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .select(["issues.id", "projects.key", "issues.number"])
    .where("projects.workspace_id", "=", workspaceId)
    .where("projects.key", "=", key.projectKey)
    .where("issues.number", "=", key.number)
    .executeTakeFirst();
  return issue && { issueId: issue.id, projectKey: issue.key, number: issue.number };
}
