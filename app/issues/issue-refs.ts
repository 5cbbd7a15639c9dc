import type { Priority, Status } from "./issue-fields";
import type { SubIssueProgress } from "./issue-links";

/**
 * The label and the person as rows and cards show them. Each is one object wherever it appears on
 * a page, so that the hydration payload (which keeps one copy of each object and refers to it after
 * that) names it once.
 */
export type LabelRef = { id: number; name: string; color: string };
export type PersonRef = { id: number; name: string };

/** Makes each person's object once: call the returned function with an assignee's id and name. */
export function peopleOnce() {
  const people = new Map<number, PersonRef>();
  return (id: number | null, name: string | null): PersonRef | null => {
    if (id === null || name === null) return null;
    let person = people.get(id);
    if (!person) people.set(id, (person = { id, name }));
    return person;
  };
}

/**
 * One issue as a list row shows it (the project list, My issues, search results), and nothing
 * more: the loader data of a page of rows is in the page twice (markup and hydration payload).
 */
export type IssueRowData = {
  id: number;
  number: number;
  title: string;
  status: Status;
  priority: Priority;
  /** Rows across projects (My issues, search) name their project; a project's list gives it once. */
  projectKey?: string;
  assignee: PersonRef | null;
  labels: LabelRef[];
  due_date: string | null;
  updated_at: string;
  /** Only rows that can be edited need it (their menus post it). */
  version?: number;
  /** A project's list tells a parent's progress and whether an open issue blocks it. */
  progress?: SubIssueProgress | null;
  blocked?: boolean;
};
