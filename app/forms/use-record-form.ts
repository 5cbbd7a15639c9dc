import type { SubmissionResult } from "@conform-to/react";
import { useLayoutEffect, useMemo, useRef, useState } from "react";
import { useNavigation } from "react-router";

/** A form's values as its inputs hold them: one string, or a list for a repeated field (checkboxes). */
export type FormValues = Record<string, string | string[]>;

/** A record as an edit form shows it: which one, at which version, with which values. */
export type RecordSnapshot<Values extends FormValues> = { id: number; version: number; values: Values };

type Result = SubmissionResult<string[]>;

type State<Values extends FormValues> = {
  /** The snapshot the form's fields were last set from. */
  shown: RecordSnapshot<Values>;
  /** The snapshot whose version the save carries: `shown`, unless someone else changed a field being edited since. */
  base: RecordSnapshot<Values>;
  /** What the form starts from: `shown`, with the fields the person had changed and not saved. */
  defaultValue: Values;
  /** The last result taken into account; one that answered an older snapshot (not shown); the one the page was rendered with. */
  seen: Result | undefined;
  outdated: Result | undefined;
  served: Result | undefined;
};

/**
 * The edit form of one record (an issue), which must always show the record on screen and never
 * undo what others saved. Render the form with `key`: another record, or a new version of this one
 * (a quick change, a save, a revalidation), gives a fresh form from current values. Fields the
 * person changed and has not saved are carried over onto the new version. If someone else changed
 * one of those fields meanwhile, the form keeps sending the version the person started from, so
 * that the server refuses the save (409, naming who changed what) instead of overwriting it;
 * having been told, a retry carries the current version. The server reports a stale version as
 * the form's only form-level error; field problems are field errors.
 */
export function useRecordForm<Values extends FormValues>(formId: string, record: RecordSnapshot<Values>, lastResult: Result | undefined) {
  const formRef = useRef<HTMLFormElement>(null);
  const [state, setState] = useState<State<Values>>(() => ({
    shown: record,
    base: record,
    defaultValue: record.values,
    seen: lastResult,
    outdated: undefined,
    served: lastResult,
  }));

  // A refused save's answer comes while the page is still reloading the record (the 409 revalidates):
  // both are taken together, once the navigation is over.
  const settled = useNavigation().state === "idle";
  useLayoutEffect(() => {
    const moved = record.id !== state.shown.id || record.version !== state.shown.version;
    const fresh = lastResult !== state.seen;
    if (!settled || (!moved && !fresh)) return;
    let next: State<Values> = { ...state, seen: lastResult };
    if (record.id !== state.shown.id) {
      next = { ...next, shown: record, base: record, defaultValue: record.values, outdated: lastResult };
    } else if (moved) {
      // What the person changed and the new version does not already have (their own save has it).
      const edited = formRef.current ? editedValues(formRef.current, state.shown.values, record.values) : {};
      const theirs = Object.keys(edited).some((name) => !sameValue(record.values[name]!, state.base.values[name]!));
      next = {
        ...next,
        shown: record,
        base: theirs ? state.base : record,
        defaultValue: { ...record.values, ...edited },
        outdated: fresh ? state.outdated : lastResult,
      };
    }
    if (fresh && lastResult?.error?.[""]?.length) next.base = record;
    setState(next);
  }, [record, lastResult, state, settled]);

  // Computed here, not in the effect, so that the form never sees an answer a render late.
  const current = lastResult === state.outdated ? undefined : lastResult;
  const result = useMemo(() => (current === state.served ? current : withoutValues(current)), [current, state.served]);
  return {
    key: `${formId}-${state.shown.id}-${state.shown.version}`,
    formRef,
    defaultValue: state.defaultValue,
    version: state.base.version,
    lastResult: result,
  };
}

/**
 * A result without the values it was submitted with. Only a page rendered on the server takes its
 * values from the result (without JavaScript that is all there is); in the browser they come from
 * the snapshot and what the person typed, not from an answer about an older version.
 */
function withoutValues(result: Result | undefined) {
  return result && { ...result, initialValue: undefined };
}

const sameText = (a: string, b: string) => a.replace(/\r\n?/g, "\n") === b.replace(/\r\n?/g, "\n");

/** Repeated fields compare as sets. */
function sameValue(a: string | string[], b: string | string[]) {
  if (!Array.isArray(a) || !Array.isArray(b)) return typeof a === "string" && typeof b === "string" && sameText(a, b);
  return JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
}

/** The fields whose inputs hold neither the value the form was set from nor the new one. */
function editedValues<Values extends FormValues>(form: HTMLFormElement, shown: Values, next: Values): Partial<Values> {
  const data = new FormData(form);
  const edited: FormValues = {};
  for (const [name, value] of Object.entries(shown)) {
    if (!data.has(name)) continue;
    // In a repeated field an empty value only marks that the list is in the form (so none means none).
    const typed = Array.isArray(value) ? data.getAll(name).map(String).filter((v) => v !== "") : String(data.get(name));
    if (!sameValue(typed, value) && !sameValue(typed, next[name]!)) edited[name] = typed;
  }
  return edited as Partial<Values>;
}
