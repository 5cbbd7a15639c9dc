import { sql } from "kysely";
import type { DatabaseHandle } from "~/db/database.server";

// Typo tolerance (docs/decisions/025-typo-tolerant-search.md): the words of a workspace a typo or two
// away from a query's word, from its vocabulary (migrations/0024), for searchIssues to look for too.

/** A word of the query, and the words of the workspace a typo or two away from it (folded). */
export type QueryWord = { term: string; folded: string; closeWords: readonly string[] };

/** Query words shorter than this are taken as typed: too many short words are a letter apart. */
const shortestCorrected = 4;
/** The vocabulary keeps words up to this long (migrations/0024). */
const longestCorrected = 40;
/** Close words looked for per query word: the most alike, by trigrams, of the workspace's words. */
const candidatesRead = 50;
/** Close words searched for per query word, the closest first. */
const closeWordsSearched = 10;
/** pg_trgm's default threshold for `%`: how alike (shared trigrams) a close word must be. */
const similarityThreshold = 0.3;

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

/** pg_trgm's similarity of two words: the trigrams they share, of all of theirs. */
export function trigramSimilarity(a: string, b: string): number {
  const ours = trigramsOf(a);
  const theirs = trigramsOf(b);
  let shared = 0;
  for (const trigram of ours) if (theirs.has(trigram)) shared++;
  return shared / (ours.size + theirs.size - shared);
}

/**
 * `word` with two neighbouring characters swapped, every way: a common typo that trigrams miss in
 * short words ("stpes" shares only 2 of 10 trigrams with "steps").
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
 * Of the workspace's words that look like `folded` — `alike`, sharing trigrams with it, and `swapped`,
 * it with two neighbours swapped — those a typo or two away: not already found by it (a word it
 * starts), alike as much as pg_trgm's `%` requires (or swapped), within the typos its length allows;
 * the closest first.
 */
function closeWordsOf(folded: string, alike: readonly string[], swapped: readonly string[]): string[] {
  const allowed = typosAllowed(folded);
  const candidates = new Set([...alike.filter((word) => trigramSimilarity(folded, word) >= similarityThreshold), ...swapped]);
  return [...candidates]
    .filter((word) => wholeWord.test(word) && !word.startsWith(folded))
    .map((word) => ({ word, distance: editDistance(folded, word), similarity: trigramSimilarity(folded, word) }))
    .filter(({ distance }) => distance <= allowed)
    .sort((a, b) => a.distance - b.distance || b.similarity - a.similarity || (a.word < b.word ? -1 : 1))
    .slice(0, closeWordsSearched)
    .map(({ word }) => word);
}

/**
 * The query's words, each with its close words: of the workspace's words (migrations/0024), those
 * that share the most trigrams with it or are it with two letters swapped, kept when a typo or two
 * away (closeWordsOf).
 */
export async function queryWords({ db, dialect }: DatabaseHandle, workspaceId: number, terms: readonly { term: string; folded: string }[]): Promise<QueryWord[]> {
  const words = terms.map(({ term, folded }) => ({ term, folded, closeWords: [] as string[] }));
  const corrected = words.filter(({ folded }) => typosAllowed(folded) > 0);
  if (!corrected.length) return words;
  const swaps = new Map(corrected.map(({ folded }) => [folded, swapsOf(folded)]));
  // Each query word's alike words (by trigrams), and which of its swaps are the workspace's words.
  const alike = new Map<string, string[]>();
  const swapped = new Set<string>();
  const found = (rows: { folded: string | null; word: string }[]) => {
    for (const { folded, word } of rows) {
      if (folded === null) swapped.add(word);
      else alike.set(folded, [...(alike.get(folded) ?? []), word]);
    }
  };
  if (dialect === "sqlite") {
    // FTS5's trigram tokenizer over the padded words: those sharing the most trigrams rank first.
    for (const { folded } of corrected) {
      const anyTrigram = [...trigramsOf(folded)].map((trigram) => `"${trigram}"`).join(" OR ");
      const wordSwaps = swaps.get(folded)!;
      const { rows } = await sql<{ folded: string | null; word: string }>`
        select * from (
          select ${folded} as folded, w.word from search_word_trigrams t join search_words w on w.id = t.rowid
          where t.search_word_trigrams match ${anyTrigram} and w.workspace_id = ${workspaceId}
          order by t.rank limit ${candidatesRead}
        )
        ${wordSwaps.length ? sql`union all select null, word from search_words where workspace_id = ${workspaceId} and word in (${sql.join(wordSwaps)})` : sql``}`.execute(db);
      found(rows);
    }
  } else {
    // pg_trgm: `%` (similarity of at least 0.3) through the GIN index, the most alike first.
    const { rows } = await sql<{ folded: string | null; word: string }>`
      select q.folded, c.word from unnest(${corrected.map(({ folded }) => folded)}::text[]) as q(folded)
      cross join lateral (
        select word from search_words where workspace_id = ${workspaceId} and word % q.folded
        order by similarity(word, q.folded) desc, word limit ${candidatesRead}
      ) c
      union all
      select null, word from search_words where workspace_id = ${workspaceId} and word = any(${[...new Set([...swaps.values()].flat())]}::text[])`.execute(db);
    found(rows);
  }
  for (const word of corrected) {
    word.closeWords = closeWordsOf(word.folded, alike.get(word.folded) ?? [], swaps.get(word.folded)!.filter((swap) => swapped.has(swap)));
  }
  return words;
}
