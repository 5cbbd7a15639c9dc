// One table of accent folding for the search migrations (PostgreSQL's `cairn_search_text`) and for
// the query words of app/search/search.server.ts, so that text and queries fold alike.

/**
 * Accented Latin letters and the base letter each folds to: those whose canonical decomposition is
 * an ASCII letter followed by combining marks (é → e, Å → a, ự → u), as SQLite's remove_diacritics.
 * Letters without one (ø, æ, ß) and other scripts (й) stay as they are.
 */
export function latinFoldPairs(): [from: string, to: string] {
  let from = "";
  let to = "";
  for (const [low, high] of [[0xc0, 0x24f], [0x1e00, 0x1eff]] as const) {
    for (let code = low; code <= high; code++) {
      const letter = String.fromCodePoint(code);
      const decomposed = letter.normalize("NFD");
      if (/^[A-Za-z]\p{M}+$/u.test(decomposed)) {
        from += letter;
        to += decomposed[0]!.toLowerCase();
      }
    }
  }
  return [from, to];
}
