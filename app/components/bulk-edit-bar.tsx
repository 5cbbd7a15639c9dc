import { type ReactNode, useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { primaryButtonClass } from "~/components/app-shell";
import { type BulkChoice, keepAssignee } from "~/issues/bulk-choice";
import type { LabelRef } from "~/issues/issue-refs";
import { priorities, priorityLabels, statuses, statusLabels } from "~/issues/issue-fields";

/** The bulk edit's form: the rows' boxes belong to it by this id (`form=`), as they sit outside it. */
export const bulkFormId = "bulk-edit";

/**
 * The rows selected for a bulk edit, on this page. It starts from the refused edit the server
 * answered with (its selection comes back), or all rows for `?select=all` (the way to select them
 * all without JavaScript), else none; it empties once an edit went through.
 */
export function useBulkSelection({ rowIds, refused, selectAll }: { rowIds: readonly number[]; refused: BulkChoice | undefined; selectAll: boolean }) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set(refused ? refused.issueIds.map(Number) : selectAll ? rowIds : []));
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "bulk";
  const submitted = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (submitting) submitted.current = true;
    else if (navigation.state === "idle" && submitted.current) {
      submitted.current = false;
      // Applied: the selection and the choices are done with. Refused: both stay for another try.
      if (!refused) {
        setSelected(new Set());
        form.current?.reset();
      }
    }
  }, [submitting, navigation.state, refused]);
  // Only this page's rows count: a selection made on another page or under other filters is not sent.
  const onPage = rowIds.filter((id) => selected.has(id));
  return {
    form,
    selected,
    count: onPage.length,
    all: rowIds.length > 0 && onPage.length === rowIds.length,
    submitting,
    /** The pending edit's form data while it is on its way (rows show its values at once). */
    pending: submitting ? navigation.formData : undefined,
    toggle(issueId: number, on: boolean) {
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(issueId);
        else next.delete(issueId);
        return next;
      });
    },
    setAll(on: boolean) {
      setSelected(new Set(on ? rowIds : []));
    },
  };
}

export type BulkSelection = ReturnType<typeof useBulkSelection>;

/**
 * What a row shows while a bulk edit is on its way: the fields the edit sets, as a row menu's form
 * data names them (a menu's "No change" leaves the row's value).
 */
export function pendingRowChoice(formData: FormData): FormData {
  const shown = new FormData();
  for (const field of ["status", "priority"]) {
    const value = formData.get(field);
    if (typeof value === "string" && value !== "") shown.set(field, value);
  }
  const assignee = formData.get("assigneeId");
  if (typeof assignee === "string" && assignee !== keepAssignee) shown.set("assigneeId", assignee);
  return shown;
}

/**
 * The bulk edit of the list (DESIGN.md: quiet, above the rows): a strip with the box that selects the
 * page's rows, then, once some are, "N selected", a menu per change and "Apply to selected". It is one
 * `<form method="post">` (intent=bulk) that the rows' boxes belong to. Without JavaScript the menus are
 * always there, and "Select all on this page" is a link to the page with every box ticked.
 */
export function BulkEditBar({
  action,
  returnTo,
  members,
  labels,
  selection,
  refused,
  selectAllHref,
  clearHref,
}: {
  /** The list's URL with its filters and page: a refused edit (without JavaScript) shows that list again. */
  action: string;
  returnTo: string;
  members: { userId: number; name: string }[];
  labels: LabelRef[];
  selection: BulkSelection;
  /** The refused edit, whose choices come back. */
  refused: BulkChoice | undefined;
  /** This page with every box ticked, and with none (without JavaScript). */
  selectAllHref: string;
  clearHref: string | null;
}) {
  const box = useRef<HTMLInputElement>(null);
  const some = selection.count > 0 && !selection.all;
  useEffect(() => {
    if (box.current) box.current.indeterminate = some;
  }, [some]);

  return (
    <Form ref={selection.form} id={bulkFormId} method="post" action={action} preventScrollReset aria-label="Bulk edit" className="bulk-bar" data-empty={selection.count === 0 || undefined}>
      <input type="hidden" name="intent" value="bulk" />
      <input type="hidden" name="returnTo" value={returnTo} />
      <input
        ref={box}
        type="checkbox"
        aria-label="Select all issues on this page"
        checked={selection.all}
        onChange={(event) => selection.setAll(event.currentTarget.checked)}
        className="row-check js-only"
      />
      <span className="bulk-count js-only" aria-live="polite">
        {selection.count ? `${selection.count} selected` : "Select issues to change them together"}
      </span>
      <span className="no-js-only">
        {clearHref ? <Link to={clearHref}>Clear selection</Link> : <Link to={selectAllHref}>Select all on this page</Link>}
      </span>
      <span className="bulk-controls">
        <BulkSelect name="status" label="Status" unchanged="" defaultValue={refused?.status}>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {statusLabels[s]}
            </option>
          ))}
        </BulkSelect>
        <BulkSelect name="priority" label="Priority" unchanged="" defaultValue={refused?.priority}>
          {[...priorities].reverse().map((p) => (
            <option key={p} value={p}>
              {priorityLabels[p]}
            </option>
          ))}
        </BulkSelect>
        <BulkSelect name="assigneeId" label="Assignee" unchanged={keepAssignee} defaultValue={refused?.assigneeId}>
          <option value="">Unassigned</option>
          {members.map((m) => (
            <option key={m.userId} value={m.userId}>
              {m.name}
            </option>
          ))}
        </BulkSelect>
        {labels.length ? (
          <>
            <BulkSelect name="addLabelId" label="Add label" unchanged="" defaultValue={refused?.addLabelId}>
              {labels.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </BulkSelect>
            <BulkSelect name="removeLabelId" label="Remove label" unchanged="" defaultValue={refused?.removeLabelId}>
              {labels.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </BulkSelect>
          </>
        ) : null}
        <button type="submit" disabled={selection.submitting} className={primaryButtonClass}>
          {selection.submitting ? "Applying…" : "Apply to selected"}
        </button>
        <button type="button" onClick={() => selection.setAll(false)} className="bulk-clear js-only">
          Clear
        </button>
      </span>
    </Form>
  );
}

/** One change of the bulk edit: a native select whose first choice, named after the field, changes nothing. */
function BulkSelect({ name, label, unchanged, defaultValue, children }: { name: string; label: string; unchanged: string; defaultValue: string | undefined; children: ReactNode }) {
  // A label beside the select, not around it: around, its name would repeat the shown choice.
  const id = `bulk-${name}`;
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue ?? unchanged} className="bulk-select">
        <option value={unchanged}>{label}</option>
        {children}
      </select>
    </>
  );
}
