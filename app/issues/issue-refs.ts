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
