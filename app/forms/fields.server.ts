import { z } from "zod";
import { passwordProblem } from "~/auth/password.server";

/**
 * The largest value of PostgreSQL's `integer`, the type of every id, number, version and position
 * column. SQLite has no such limit; it gets the same bound so that both databases answer alike.
 */
export const maxInteger = 2_147_483_647;

/** A positive integer written plainly in a URL (`42`, not `042`, `4e1` or ` 42`), or null. */
export function parsePositiveInteger(raw: string | null | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const value = Number(raw);
  return value <= maxInteger ? value : null;
}

/*
 * Characters no text field takes (issue 11):
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
const lineBreak = /[\n\r\u0085\u2028\u2029]/;
const singleLineControl = /[\u0000-\u001f\u007f-\u009f]/;
const multiLineControl = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const bidiControl = /[\u202a-\u202e\u2066-\u2069]/;
const bidiOverride = /[\u202d\u202e]/;
const loneSurrogate = /\p{Cs}/u;

export const singleLineMessage = "Use a single line, without line breaks.";
export const brokenCharacterMessage = "Retype this text: it has a broken character (half of an emoji or symbol).";

const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** Why `text` cannot be saved as it is, in words for the person who typed it; undefined when it can. */
export function textProblem(text: string, lines: "single" | "multiple"): string | undefined {
  if (loneSurrogate.test(text)) return brokenCharacterMessage;
  if (lines === "single" && lineBreak.test(text)) return singleLineMessage;
  const control = (lines === "single" ? singleLineControl : multiLineControl).exec(text);
  if (control) return `Remove the invisible control character (${codePoint(control[0])}).`;
  const bidi = (lines === "single" ? bidiControl : bidiOverride).exec(text);
  if (bidi) return `Remove the invisible character that changes the direction of text (${codePoint(bidi[0])}).`;
  return undefined;
}

/** The check of textProblem, as the first of a field's checks: the others would only add noise. */
const allowedCharacters = (lines: "single" | "multiple") => (text: string, ctx: z.RefinementCtx) => {
  const problem = textProblem(text, lines);
  if (problem) ctx.addIssue({ code: "custom", message: problem, continue: false });
};

/**
 * A one-line text field (a title, a name, a slug …): trimmed, of allowed characters, `empty` when
 * nothing is left, and at most `max` characters if given. Chain the field's own rules after it.
 */
export function singleLineText({ empty, max }: { empty: string; max?: number }) {
  const text = z.string({ error: empty }).trim().superRefine(allowedCharacters("single")).min(1, { message: empty, abort: true });
  return max === undefined ? text : text.max(max, `Use at most ${max.toLocaleString("en")} characters.`);
}

/**
 * A multi-line Markdown field (a description, a comment): of allowed characters, `empty` when
 * required and blank, at most `max` characters. Trimmed unless `trim` is false (leading spaces
 * can be Markdown: an indented code block).
 */
export function multiLineText({ max, empty, trim = true }: { max: number; empty?: string; trim?: boolean }) {
  const string = z.string(empty ? { error: empty } : undefined);
  const text = (trim ? string.trim() : string).superRefine(allowedCharacters("multiple"));
  return (empty ? text.min(1, empty) : text).max(max, `Use at most ${max.toLocaleString("en")} characters.`);
}

/**
 * A free-text query parameter (a search box): trimmed and cut to `max` characters. `problem` says
 * why it cannot be used, for the page to show at its field; the page then searches for nothing.
 */
export function queryText(params: URLSearchParams, name: string, max: number): { value: string; problem?: string } {
  const value = (params.get(name) ?? "").trim().slice(0, max);
  const problem = textProblem(value, "single");
  return problem ? { value, problem } : { value };
}

/**
 * The User-Agent header, as sessions and monitoring store it. A browser cannot be asked to fix its
 * header, so it is cleaned rather than refused: control and direction characters dropped, broken
 * characters replaced, at most 500 characters; null when nothing is left.
 */
export function storedUserAgent(request: Request): string | null {
  const cleaned = (request.headers.get("user-agent") ?? "")
    .replace(new RegExp(`${singleLineControl.source}|${bidiControl.source}`, "g"), "")
    .replace(new RegExp(loneSurrogate.source, "gu"), "\ufffd")
    .trim()
    .slice(0, 500);
  return cleaned || null;
}

/** Field rules of SPEC §5 that several forms share; each message says how to fix the value. */
export const emailField = z
  .string({ error: "Enter an email address." })
  .trim()
  .toLowerCase()
  .max(254, "Use at most 254 characters.")
  .pipe(z.email("Enter a valid email address."));

export const userNameField = singleLineText({ empty: "Enter a name.", max: 80 });

/** A new password: length and the common-password list here; "not the email" needs the form's email too. */
export const newPasswordField = z.string({ error: "Enter a password." }).superRefine((password, ctx) => {
  const problem = passwordProblem(password, "");
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/**
 * A positive integer of a form (an id, a version): a larger number than the columns hold is refused
 * here, not by PostgreSQL.
 */
export const positiveIntegerField = (message: string) =>
  z.coerce
    .number({ error: message })
    .int({ message, abort: true })
    .positive({ message, abort: true })
    .max(maxInteger, message);

/** Ids of the entries a form names. */
export const idField = positiveIntegerField("Choose an entry.");
