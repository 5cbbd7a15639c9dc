/** The pure half of the @mention suggestions (mention-suggestions.tsx): find, rank, insert. */

export type MentionCandidate = { handle: string; name: string };

const handleChar = /[a-z0-9-]/i;
const maxQuery = 39;

/**
 * The `@query` the caret ends: from an `@` at the start of the text or after whitespace or one of
 * `([{"'` (so not the `@` of `ada@example.com`) up to the caret, only handle characters between.
 * Null when the caret is inside a longer token (a handle character follows it).
 */
export function activeMention(text: string, caret: number): { start: number; query: string } | null {
  if (caret < text.length && handleChar.test(text[caret]!)) return null;
  let at = caret - 1;
  while (at >= 0 && caret - at <= maxQuery + 1 && handleChar.test(text[at]!)) at--;
  if (at < 0 || text[at] !== "@") return null;
  const query = text.slice(at + 1, caret);
  if (query.length > maxQuery) return null;
  const before = text[at - 1];
  if (before !== undefined && !/\s/.test(before) && !`([{"'`.includes(before)) return null;
  return { start: at, query: query.toLowerCase() };
}

/** Handles starting with the query, then names with a word starting with it, then handles containing it. */
export function matchMembers(members: MentionCandidate[], query: string, limit = 6): MentionCandidate[] {
  const q = query.toLowerCase();
  const groups: MentionCandidate[][] = [[], [], []];
  for (const member of members) {
    const handle = member.handle.toLowerCase();
    if (handle.startsWith(q)) groups[0]!.push(member);
    else if (member.name.toLowerCase().split(/\s+/).some((word) => word.startsWith(q))) groups[1]!.push(member);
    else if (handle.includes(q)) groups[2]!.push(member);
  }
  return groups.flat().slice(0, limit);
}

/** Replaces `@query` with `@handle` and one space (or the whitespace already there); the caret goes after it. */
export function insertMention(text: string, mention: { start: number; query: string }, handle: string): { text: string; caret: number } {
  const before = `${text.slice(0, mention.start)}@${handle}`;
  const after = text.slice(mention.start + 1 + mention.query.length);
  const spaced = /^\s/.test(after) ? after : ` ${after}`;
  return { text: before + spaced, caret: before.length + 1 };
}
