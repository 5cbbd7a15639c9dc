/*
 * Characters no text Cairn stores may hold (issue 11), shared by the form rules on the server
 * (app/forms/fields.server.ts) and the browser's error reports, which must send only what the
 * server accepts:
 * - NUL and the other control characters: invisible, and PostgreSQL refuses NUL outright. Tabs and
 *   line breaks are text in multi-line fields only.
 * - Lone surrogates: half of a character, which no UTF-8 database can store as typed.
 * - Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they make a
 *   title, a name or a label show in another order than it reads ("exe.txt" shown for "txt.exe").
 *   A single line has no use for them. Multi-line Markdown refuses only the two overrides (U+202D,
 *   U+202E), which force characters into reverse order and serve only to disguise text ("Trojan
 *   Source"); right-to-left prose mixed with other scripts may need the embeddings and isolates,
 *   and their effect ends with the paragraph, which the same author wrote.
 * The marks U+200E, U+200F and U+061C stay allowed everywhere: they order only the punctuation
 * next to them, and right-to-left names need them.
 */

export type Lines = "single" | "multiple";

export const lineBreak = /[\n\r\u0085\u2028\u2029]/;
export const controlCharacter: Record<Lines, RegExp> = {
  single: /[\u0000-\u001f\u007f-\u009f]/,
  multiple: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/,
};
export const directionCharacter: Record<Lines, RegExp> = { single: /[\u202a-\u202e\u2066-\u2069]/, multiple: /[\u202d\u202e]/ };
export const loneSurrogate = /\p{Cs}/u;

/** Every character a field of the kind refuses (global: for `replace`). */
export const refusedCharacters: Record<Lines, RegExp> = {
  single: new RegExp(`${lineBreak.source}|${controlCharacter.single.source}|${directionCharacter.single.source}|${loneSurrogate.source}`, "gu"),
  multiple: new RegExp(`${controlCharacter.multiple.source}|${directionCharacter.multiple.source}|${loneSurrogate.source}`, "gu"),
};

/**
 * `text` with every refused character replaced by U+FFFD and cut to at most `max` UTF-16 units
 * (an ellipsis marks the cut), never between the two halves of a character.
 */
export function storableText(text: string, lines: Lines, max: number): string {
  const clean = text.replace(refusedCharacters[lines], "\ufffd");
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}
