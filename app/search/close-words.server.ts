import { sql } from "kysely";
import type { DatabaseHandle } from "~/db/database.server";

// Typo tolerance (docs/decisions/029-typo-tolerant-search.md): the words of a workspace a typo or two
// away from a query's word, from its vocabulary (migrations/0026), for searchIssues to look for too.

/** A word of the query, and the words of the workspace a typo or two away from it (folded). */
export type QueryWord = { term: string; folded: string; closeWords: readonly string[] };

/** Query words shorter than this are taken as typed: too many short words are a letter apart. */
const shortestCorrected = 4;
/** The vocabulary keeps words up to this long (migrations/0026). */
const longestCorrected = 40;
/** Close words searched for per query word, the closest first. */
const closeWordsSearched = 10;

/** How many typos a query word may have: one from 4 letters, two from 8; none in a number. */
export function typosAllowed(folded: string): number {
  const length = [...folded].length;
  if (length < shortestCorrected || length > longestCorrected || /[0-9]/.test(folded)) return 0;
  return length < 8 ? 1 : 2;
}

/**
 * The fewest edits — a character inserted, deleted or replaced, or two neighbours swapped — that
 * turn `a` into `b` (optimal string alignment distance), by code point.
 */
export function editDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      let distance = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) distance = Math.min(distance, before[j - 2]! + 1);
      row.push(distance);
    }
    before = previous;
    previous = row;
  }
  return previous[t.length]!;
}

/** A word's trigrams as pg_trgm takes them: of the word padded "  word ". */
function trigramsOf(word: string): Set<string> {
  const characters = [...`  ${word} `];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= characters.length; i++) trigrams.add(characters.slice(i, i + 3).join(""));
  return trigrams;
}

/** How alike two words are: the trigrams they share, of all of theirs (pg_trgm's similarity). */
export function trigramSimilarity(a: string, b: string): number {
  const ours = trigramsOf(a);
  const theirs = trigramsOf(b);
  let shared = 0;
  for (const trigram of ours) if (theirs.has(trigram)) shared++;
  return shared / (ours.size + theirs.size - shared);
}

/**
 * `folded` padded as the vocabulary's index holds words ("  word "), cut into pieces of 3 characters
 * or more (what a trigram index can find), and how many of them a word `typos` edits away — letters
 * inserted, left out or changed — still has whole, each edit breaking at most one piece (the
 * pigeonhole principle): two of `typos` + 2 pieces where the word is long enough, else one of
 * `typos` + 1. The first piece is at the word's start, the last at its end.
 */
function piecesOf(folded: string, typos: number): { pieces: string[]; whole: number } {
  const characters = [...`  ${folded} `];
  const whole = characters.length >= 3 * (typos + 2) ? 2 : 1;
  const count = typos + whole;
  const pieces = Array.from({ length: count }, (_, i) =>
    characters.slice(Math.floor((i * characters.length) / count), Math.floor(((i + 1) * characters.length) / count)).join(""),
  );
  return { pieces, whole };
}

/** The ways to choose `size` (1 or 2) of `pieces`. */
const choices = (pieces: readonly string[], size: number): string[][] =>
  size === 1 ? pieces.map((piece) => [piece]) : pieces.flatMap((piece, i) => pieces.slice(i + 1).map((other) => [piece, other]));

/** A piece as a LIKE pattern on the unpadded word: the first piece its start, the last its end. */
const likePattern = (piece: string) => `${piece.startsWith(" ") ? "" : "%"}${piece.trim()}${piece.endsWith(" ") ? "" : "%"}`;

/**
 * `word` with two neighbouring characters swapped, every way: one typo that breaks two pieces when
 * it straddles them ("stpes" for "steps").
 */
function swapsOf(word: string): string[] {
  const characters = [...word];
  const swaps = new Set<string>();
  for (let i = 0; i + 1 < characters.length; i++) {
    if (characters[i] === characters[i + 1]) continue;
    const swapped = [...characters];
    [swapped[i], swapped[i + 1]] = [characters[i + 1]!, characters[i]!];
    swaps.add(swapped.join(""));
  }
  return [...swaps];
}

const wholeWord = /^[\p{L}\p{N}]+$/u;

/**
 * Of the workspace's words that may be a typo or two away from `folded` (candidates), those that
 * are, but for those it already finds (words it starts); the closest first (fewest edits, then most
 * trigrams shared).
 */
function closeWordsOf(folded: string, candidates: Iterable<string>): string[] {
  const allowed = typosAllowed(folded);
  return [...new Set(candidates)]
    .filter((word) => wholeWord.test(word) && !word.startsWith(folded))
    .map((word) => ({ word, distance: editDistance(folded, word) }))
    .filter(({ distance }) => distance <= allowed)
    .map(({ word, distance }) => ({ word, distance, similarity: trigramSimilarity(folded, word) }))
    .sort((a, b) => a.distance - b.distance || b.similarity - a.similarity || (a.word < b.word ? -1 : 1))
    .slice(0, closeWordsSearched)
    .map(({ word }) => word);
}

/**
 * The query's words, each with its close words: the workspace's words (migrations/0026) of about its
 * length that have enough of its pieces (piecesOf) or are it with two neighbours swapped, kept when a
 * typo or two away (closeWordsOf). One query on either database: the trigram index finds the
 * pieces (FTS5's trigram tokenizer on SQLite, pg_trgm's LIKE on PostgreSQL).
 */
export async function queryWords({ db, dialect }: DatabaseHandle, workspaceId: number, terms: readonly { term: string; folded: string }[]): Promise<QueryWord[]> {
  const words = terms.map(({ term, folded }) => ({ term, folded, closeWords: [] as string[] }));
  const corrected = words.filter(({ folded }) => typosAllowed(folded) > 0);
  if (!corrected.length) return words;
  const candidates = corrected.map(({ folded }) => {
    const typos = typosAllowed(folded);
    const length = [...folded].length;
    const { pieces, whole } = piecesOf(folded, typos);
    const enough = choices(pieces, whole);
    return dialect === "sqlite"
      ? sql`select ${folded} as folded, w.word from search_word_trigrams t join search_words w on w.id = t.rowid
            where t.search_word_trigrams match ${enough.map((choice) => `(${choice.map((piece) => `"${piece}"`).join(" AND ")})`).join(" OR ")}
              and w.workspace_id = ${workspaceId} and length(w.word) between ${length - typos} and ${length + typos}`
      : sql`select ${folded}::text as folded, word from search_words
            where workspace_id = ${workspaceId} and char_length(word) between ${length - typos} and ${length + typos}
              and (${sql.join(
                enough.map((choice) => sql`(${sql.join(choice.map((piece) => sql`word like ${likePattern(piece)}`), sql` and `)})`),
                sql` or `,
              )})`;
  });
  const swaps = [...new Set(corrected.flatMap(({ folded }) => swapsOf(folded)))];
  const swapped = sql`select ${dialect === "sqlite" ? sql`null` : sql`null::text`} as folded, word from search_words where workspace_id = ${workspaceId} and word in (${sql.join(swaps)})`;
  const { rows } = await sql<{ folded: string | null; word: string }>`${sql.join(swaps.length ? [...candidates, swapped] : candidates, sql` union all `)}`.execute(db);
  const existingSwaps = new Set(rows.filter((row) => row.folded === null).map((row) => row.word));
  for (const word of corrected) {
    const own = rows.filter((row) => row.folded === word.folded).map((row) => row.word);
    word.closeWords = closeWordsOf(word.folded, [...own, ...swapsOf(word.folded).filter((swap) => existingSwaps.has(swap))]);
  }
  return words;
}
