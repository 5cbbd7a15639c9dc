import { withoutCode } from "./mentions";

/**
 * `WEB-42` in Markdown text: a project key (2–6 capital letters, see projectKeyField) and an issue
 * number, as a whole word. The renderer links it (app/issues/markdown.server.ts) and a save records
 * it on the issue it names ("mentioned in WEB-7"): one pattern, so both agree.
 */
export const issueReferencePattern = /(?<![\p{L}\p{N}_-])([A-Z]{2,6})-([1-9]\d{0,9})(?![\p{L}\p{N}_-])/gu;

/** Issue numbers are PostgreSQL integers: a larger one names no issue. */
const largestIssueNumber = 2_147_483_647;

/** Distinct references a text may resolve at most: more in one text are left as plain text. */
export const referenceLimit = 500;

/** One reference: `key` is how it is written (`WEB-42`). */
export type IssueReference = { key: string; projectKey: string; number: number };

/** The issue a reference's pattern match names, or undefined for a number no issue can have. */
export function referenceOf(match: RegExpMatchArray): IssueReference | undefined {
  const number = Number(match[2]);
  if (!Number.isSafeInteger(number) || number > largestIssueNumber) return undefined;
  return { key: match[0], projectKey: match[1]!, number };
}

/** The issues a text references outside code, each once, in the order they first appear (at most `referenceLimit`). */
export function referencedIssues(text: string): IssueReference[] {
  const found = new Map<string, IssueReference>();
  for (const match of withoutCode(text).matchAll(issueReferencePattern)) {
    const reference = referenceOf(match);
    if (reference && !found.has(reference.key)) found.set(reference.key, reference);
    if (found.size === referenceLimit) break;
  }
  return [...found.values()];
}

/** References in `after` and not in `before`: an edit records only those it adds. */
export function newlyReferenced(before: string, after: string): IssueReference[] {
  const already = new Set(referencedIssues(before).map((r) => r.key));
  return referencedIssues(after).filter((r) => !already.has(r.key));
}

/** An issue's page, from its key (`WEB-42` → `/w/acme/p/WEB/issues/42`). */
export function issuePath(workspaceSlug: string, key: string): string {
  const dash = key.lastIndexOf("-");
  return `/w/${encodeURIComponent(workspaceSlug)}/p/${key.slice(0, dash)}/issues/${key.slice(dash + 1)}`;
}
