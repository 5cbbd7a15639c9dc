import { z } from "zod";
import { passwordProblem } from "~/auth/password.server";
import { controlCharacter, directionCharacter, type Lines, lineBreak, loneSurrogate, refusedCharacters, storableText } from "./text-characters";

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

export const singleLineMessage = "Use a single line, without line breaks.";
export const brokenCharacterMessage = "Retype this text: it has a broken character (half of an emoji or symbol).";

const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** Why `text` cannot be saved as it is, in words for the person who typed it; undefined when it can. */
export function textProblem(text: string, lines: Lines): string | undefined {
  if (loneSurrogate.test(text)) return brokenCharacterMessage;
  if (lines === "single" && lineBreak.test(text)) return singleLineMessage;
  const control = controlCharacter[lines].exec(text);
  if (control) return `Remove the invisible control character (${codePoint(control[0])}).`;
  const direction = directionCharacter[lines].exec(text);
  if (direction) return `Remove the invisible character that changes the direction of text (${codePoint(direction[0])}).`;
  return undefined;
}

/** The check of textProblem, as the first of a field's checks: the others would only add noise. */
const allowedCharacters = (lines: Lines) => (text: string, ctx: z.RefinementCtx) => {
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
 * Line breaks as one character, "\n". Browsers send a form's line breaks as "\r\n", but a script's
 * FormData (React Router's, with JavaScript, sent urlencoded) as "\n": the same text, kept two ways,
 * read as changed when it was not.
 */
export const normalizeLineBreaks = (text: string) => text.replace(/\r\n?/g, "\n");

/**
 * A multi-line Markdown field (a description, a comment): its line breaks "\n", of allowed
 * characters, `empty` when required and blank, at most `max` characters. Trimmed unless `trim` is
 * false (leading spaces can be Markdown: an indented code block).
 */
export function multiLineText({ max, empty, trim = true }: { max: number; empty?: string; trim?: boolean }) {
  const string = z.string(empty ? { error: empty } : undefined).overwrite(normalizeLineBreaks);
  const text = (trim ? string.trim() : string).superRefine(allowedCharacters("multiple"));
  return (empty ? text.min(1, empty) : text).max(max, `Use at most ${max.toLocaleString("en")} characters.`);
}

/**
 * A free-text query parameter (a search box): trimmed and cut to `max` characters, never between the
 * two halves of one (a long query is not refused for half an emoji that the cut made). `problem`
 * says why it cannot be used, for the page to show at its field; the page then searches for nothing.
 */
export function queryText(params: URLSearchParams, name: string, max: number): { value: string; problem?: string } {
  const text = (params.get(name) ?? "").trim();
  const halvesCut = /[\ud800-\udbff]/.test(text.charAt(max - 1)) && /[\udc00-\udfff]/.test(text.charAt(max));
  const value = text.slice(0, halvesCut ? max - 1 : max);
  const problem = textProblem(value, "single");
  return problem ? { value, problem } : { value };
}

/**
 * The User-Agent header, as sessions and monitoring store it. A browser cannot be asked to fix its
 * header, so it is cleaned rather than refused: what a one-line field refuses is dropped, and it is
 * cut to 500 characters; null when nothing is left.
 */
export function storedUserAgent(request: Request): string | null {
  const cleaned = (request.headers.get("user-agent") ?? "").replace(refusedCharacters.single, "").trim();
  return cleaned ? storableText(cleaned, "single", 500) : null;
}

/** Field rules of docs/product.md, Rules for what is submitted that several forms share; each message says how to fix the value. */
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

/** A checkbox: sent (`on`, or any value) when checked, absent when not. */
export const checkboxField = z.preprocess((value) => value !== undefined && value !== "", z.boolean());

/** Ids of the entries a form names. */
export const idField = positiveIntegerField("Choose an entry.");
