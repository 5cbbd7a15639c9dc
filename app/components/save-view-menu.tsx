import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import { ListFilter, Plus } from "./icons/icon";

/** The `menu` parameter that renders the "Save view" form open without JavaScript (decision record 010). */
export const saveViewMenuId = "save-view";
const panelId = "save-view-menu";
export const saveViewFetcherKey = "save-view";

/** What the list's action answers a refused "Save view" with. */
export type SaveViewResult = { saveView: SubmissionResult<string[]> };

/**
 * "Save view" in the list's toolbar: a link to the list with `?menu=save-view`, so that without
 * JavaScript the server renders the form open (SaveViewPanel); with it, a click shows the same form as a
 * popover anchored to the link. The toolbar is a GET form, so the POST form lives outside it.
 */
export function SaveViewButton() {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.set("menu", saveViewMenuId);
  return (
    <a
      href={`${location.pathname}?${params}`}
      aria-haspopup="dialog"
      className="filter-button"
      onClick={(event) => {
        const panel = document.getElementById(panelId);
        if (!panel?.hasAttribute("popover")) return;
        event.preventDefault();
        // `source` anchors the popover to the link (CSS anchor positioning); older browsers ignore it.
        (panel.showPopover as (options?: { source?: HTMLElement }) => void).call(panel, { source: event.currentTarget });
        panel.querySelector<HTMLElement>("input[name=name]")?.focus();
      }}
    >
      <Plus size={14} aria-hidden="true" /> Save view
    </a>
  );
}

/**
 * The "Save view" form (intent=save-view): a name, "Share with the workspace" (for those who may),
 * and the list's query string as a hidden field. It posts to the list at its current address, so a
 * refusal without JavaScript shows the same list with the form open and what was typed kept; with
 * JavaScript it goes through a fetcher and the popover stays open on a refusal. A success opens the
 * saved view.
 */
export function SaveViewPanel({ action, query, canShare, lastResult }: { action: string; query: string; canShare: boolean; lastResult?: SubmissionResult<string[]> }) {
  const location = useLocation();
  const fetcher = useFetcher<SaveViewResult>({ key: saveViewFetcherKey });
  const result = fetcher.data?.saveView ?? lastResult;
  // One form per page: once the list changes (the view saved, another filter) it starts afresh, under
  // a new Conform id (counted here: the first one must be the server's, for hydration).
  const [generation, setGeneration] = useState(0);
  const [form, fields] = useForm<{ name: string; shared: boolean }>({ id: `save-view-${generation}`, lastResult: result });
  const panel = useRef<HTMLDivElement>(null);
  const openOnServer = new URLSearchParams(location.search).get("menu") === saveViewMenuId || lastResult !== undefined;
  // A new page (the saved view, another filter) closes the popover and forgets an earlier refusal.
  const { reset } = fetcher;
  const shownKey = useRef(location.key);
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (panel.current?.matches(":popover-open")) panel.current.hidePopover();
    reset();
    setGeneration((count) => count + 1);
  }, [location.key, reset]);
  const closeParams = new URLSearchParams(location.search);
  closeParams.delete("menu");
  const pending = fetcher.state !== "idle";

  const content = (
    <fetcher.Form key={generation} method="post" action={action} {...getFormProps(form)} aria-label="Save view" className="w-64 space-y-2 p-2">
      <input type="hidden" name="intent" value="save-view" />
      <input type="hidden" name="query" value={query} />
      <p className="menu-title px-0">Save these filters and sort as a view</p>
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className="field-error">
          {form.errors.join(" ")}
        </p>
      ) : null}
      <div>
        <label htmlFor={fields.name.id} className="block text-xs font-medium">
          View name
        </label>
        <input
          {...getInputProps(fields.name, { type: "text" })}
          key={fields.name.key}
          autoComplete="off"
          className="mt-1 h-8 w-full rounded-md border border-zinc-300 bg-white px-2 text-sm aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-950"
        />
        {fields.name.errors?.length ? (
          <p id={fields.name.errorId} className="field-error mt-1 text-xs">
            {fields.name.errors.join(" ")}
          </p>
        ) : null}
      </div>
      {canShare ? (
        <label className="flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.shared, { type: "checkbox" })} key={fields.shared.key} className="accent-indigo-600" />
          Share with the workspace
        </label>
      ) : (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">Only you will see this view.</p>
      )}
      <div className="flex items-center justify-end gap-2 pt-1">
        {openOnServer ? (
          <Link to={`${location.pathname}${closeParams.size ? `?${closeParams}` : ""}`} preventScrollReset className="filter-button">
            Cancel
          </Link>
        ) : null}
        <button type="submit" aria-disabled={pending || undefined} className="btn-primary">
          {pending ? "Saving…" : "Save view"}
        </button>
      </div>
    </fetcher.Form>
  );

  if (openOnServer) {
    // Without JavaScript (or before it runs): the form under the toolbar, over the list's first rows.
    return (
      <div className="relative">
        <div id={panelId} role="group" aria-label="Save view" className="menu-panel absolute top-1 left-4 md:left-6">
          {content}
        </div>
      </div>
    );
  }
  return (
    <div id={panelId} ref={panel} popover="auto" role="dialog" aria-label="Save view" className="menu-panel">
      {content}
    </div>
  );
}

/** In place of "Save view" while the list shows a saved view: its name, leading to its page (rename, delete). */
export function CurrentViewLink({ href, name }: { href: string; name: string }) {
  return (
    <Link to={href} aria-label={`View: ${name} (rename or delete)`} className="filter-button max-w-56">
      <ListFilter size={14} aria-hidden="true" />
      <span className="truncate">{name}</span>
    </Link>
  );
}
