import type { RelationType } from "~/db/schema";
import type { Status } from "./issue-fields";

/** The limits of sub-issues (docs/product.md, Limits). */
export const maxSubIssues = 100;
export const maxIssueLevels = 5;

/** The relations a person adds (`type` of intent=add-relation). */
export const relationChoices = ["blocks", "blocked_by", "relates_to", "duplicate_of"] as const;
export type RelationChoice = (typeof relationChoices)[number];

/** A relation as one of its two issues sees it: a stored `blocks` reads "blocked by" from the other side. */
export const relationViews = ["blocks", "blocked_by", "relates_to", "duplicate_of", "duplicated_by"] as const;
export type RelationView = (typeof relationViews)[number];

export const relationLabels: Record<RelationView, string> = {
  blocks: "Blocks",
  blocked_by: "Blocked by",
  relates_to: "Related to",
  duplicate_of: "Duplicate of",
  duplicated_by: "Duplicated by",
};

/** A stored relation as its `to` issue sees it (its `from` issue sees its type). */
export const toSideView: Record<RelationType, RelationView> = { blocks: "blocked_by", relates_to: "relates_to", duplicate_of: "duplicated_by" };

/** The order the relations area lists them in: what holds the issue up first. */
export const relationOrder: Record<RelationView, number> = { blocked_by: 0, blocks: 1, duplicate_of: 2, duplicated_by: 3, relates_to: 4 };

/** Another issue as a link to it shows it. */
export type LinkedIssue = { id: number; key: string; title: string; status: Status };

/** One relation of an issue, from that issue's side. */
export type IssueRelation = { id: number; view: RelationView; issue: LinkedIssue };

/** "3 of 5 done": closed sub-issues (done or canceled) of all of them. */
export type SubIssueProgress = { done: number; total: number };

export const progressText = ({ done, total }: SubIssueProgress) => `${done} of ${total} done`;

/**
 * An issue key as typed: `WEB-12` (any case, spaces around), or a bare `12` (`projectKey` null: the
 * project the form is on). Null when it is no key at all.
 */
export function parseIssueRef(text: string): { projectKey: string | null; number: number } | null {
  const match = /^\s*(?:([a-z]{2,6})-)?#?([1-9]\d{0,9})\s*$/i.exec(text);
  if (!match) return null;
  const number = Number(match[2]);
  if (number > 2_147_483_647) return null;
  return { projectKey: match[1]?.toUpperCase() ?? null, number };
}

/** How a relation's activity value reads it: "blocked by WEB-9", "a duplicate of WEB-3". */
export function relationPhrase(view: RelationView, key: string): string {
  switch (view) {
    case "blocks":
      return `blocking ${key}`;
    case "blocked_by":
      return `blocked by ${key}`;
    case "relates_to":
      return `related to ${key}`;
    case "duplicate_of":
      return `a duplicate of ${key}`;
    case "duplicated_by":
      return `duplicated by ${key}`;
  }
}

/** A relation's activity value: its view from the issue, then the other issue's key (`blocked_by WEB-9`). */
export const relationValue = (view: RelationView, key: string) => `${view} ${key}`;

export function parseRelationValue(value: string): { view: RelationView; key: string } | undefined {
  const [view, key] = value.split(" ");
  return key && (relationViews as readonly string[]).includes(view ?? "") ? { view: view as RelationView, key } : undefined;
}
