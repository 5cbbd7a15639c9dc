import { ArrowUpDown, Download, ListFilter, X } from "~/components/icons/icon";
import type { ChangeEvent, ReactNode } from "react";
import { Form, Link, useSubmit } from "react-router";
import { type FilterName, filterParams, isFiltered, searchOf, withoutValue } from "~/issues/filter-params";
import { type IssueSort, issueSorts, priorities, priorityLabels, statuses, statusLabels } from "~/issues/issue-fields";
import type { IssueFilters } from "~/issues/issue-list.server";
import { labelChipClass } from "~/labels/palette";
import { Avatar } from "./avatar";
import { PriorityIcon } from "./icons/priority-icon";
import { StatusIcon } from "./icons/status-icon";
import { useMenuOnDemand } from "./menu";

export const sortLabels: Record<IssueSort, string> = {
  updated: "Recently updated",
  created: "Newest",
  priority: "Priority",
  due: "Due date",
  number: "Number",
};

type Option = { name: FilterName; value: string; label: string; icon?: ReactNode };

/**
 * The toolbar over a list or a board (DESIGN.md §3): a "Filter" menu (status, priority, assignee,
 * label; several values each), the active filters as removable chips, the search box, the sort menu,
 * the count and "Export CSV". It is one GET form, so a filtered view is a URL: with JavaScript a
 * change of a checkbox or the sort applies at once; without it each menu has an "Apply" button.
 * The menus are rendered only when open (`ToolbarMenu`): closed, what they hold is hidden fields.
 */
export function IssueFilterBar({
  filters,
  members,
  labels,
  total,
  noun = "issue",
  csvHref,
  sortable = true,
  saveView,
}: {
  filters: IssueFilters;
  members: { userId: number; name: string }[];
  labels: { id: number; name: string; color: string }[];
  total: number;
  noun?: string;
  csvHref?: string;
  sortable?: boolean;
  /** The list's "Save view" (app/components/save-view-menu.tsx), after the active filters. */
  saveView?: ReactNode;
}) {
  const submit = useSubmit();
  const current = filterParams(filters, { sort: sortable && filters.sort !== "updated" ? filters.sort : null });
  const isCurrent = (name: string, value: string) => current.getAll(name).includes(value);
  /** A box or the sort applies at once (the search text on Enter); the URL keeps only what narrows or orders the view. */
  const apply = (event: ChangeEvent<HTMLInputElement>) => {
    const fields = new FormData(event.currentTarget.form!);
    if (!fields.get("q")) fields.delete("q");
    if (fields.get("sort") === "updated") fields.delete("sort");
    void submit(fields, { method: "get", replace: true, preventScrollReset: true });
  };

  const groups: { title: string; options: Option[] }[] = [
    { title: "Status", options: statuses.map((s) => ({ name: "status", value: s, label: statusLabels[s], icon: <StatusIcon status={s} /> })) },
    { title: "Priority", options: priorities.map((p) => ({ name: "priority", value: p, label: priorityLabels[p], icon: <PriorityIcon priority={p} /> })) },
    {
      title: "Assignee",
      options: [
        { name: "assignee", value: "me", label: "Me" },
        { name: "assignee", value: "unassigned", label: "Unassigned", icon: <Avatar user={null} decorative /> },
        ...members.map((m): Option => ({ name: "assignee", value: String(m.userId), label: m.name, icon: <Avatar user={{ id: m.userId, name: m.name }} decorative /> })),
      ],
    },
    { title: "Label", options: labels.map((l) => ({ name: "label", value: String(l.id), label: l.name, icon: <LabelDot color={l.color} /> })) },
  ];
  const active = groups.flatMap((group) =>
    group.options.filter((option) => current.getAll(option.name).includes(option.value)).map((option) => ({ ...option, group: group.title })),
  );

  return (
    <Form
      method="get"
      role="search"
      aria-label="Filter issues"
      className="filter-bar"
    >
      {/* The form's default button, so that Enter in the search box submits it rather than opening a menu. */}
      <button type="submit" hidden tabIndex={-1} />
      <ToolbarMenu
        id="filter"
        label="Filter"
        triggerClassName="filter-button outlined"
        trigger={
          <>
            <ListFilter size={14} aria-hidden="true" /> Filter
          </>
        }
        values={groups.flatMap((group) => group.options.filter((option) => isCurrent(option.name, option.value)))}
      >
        <div className="w-64">
          {groups.map((group) =>
            group.options.length ? (
              <fieldset key={group.title} className="mb-1">
                <legend className="filter-legend">{group.title}</legend>
                {group.options.map((option) => (
                  <label key={option.value}>
                    <input
                      type="checkbox"
                      name={option.name}
                      value={option.value}
                      // Not controlled: a click shows at once, and the box is drawn anew only when
                      // the URL's answer differs (the back button), so the menu stays open meanwhile.
                      key={`${option.value}:${isCurrent(option.name, option.value)}`}
                      defaultChecked={isCurrent(option.name, option.value)}
                      onChange={apply}
                    />
                    {option.icon}
                    <span>{option.label}</span>
                  </label>
                ))}
              </fieldset>
            ) : null,
          )}
          <ApplyButton />
        </div>
      </ToolbarMenu>

      {active.map((option) => (
        <Link
          key={`${option.name}=${option.value}`}
          to={searchOf(withoutValue(current, option.name, option.value)) || "?"}
          aria-label={`Remove filter ${option.group}: ${option.label}`}
          preventScrollReset
          className="filter-chip"
        >
          <span className="text-zinc-600 dark:text-zinc-400">{option.group}:</span>
          {option.icon}
          <span className="truncate">{option.label}</span>
          <X size={12} aria-hidden="true" />
        </Link>
      ))}
      {filters.parent ? (
        // The sub-issues of one issue (its page's "View in list"): kept by the form, removable as a chip.
        <>
          <input type="hidden" name="parent" value={filters.parent} />
          <Link
            to={searchOf(withoutValue(current, "parent", filters.parent)) || "?"}
            aria-label={`Remove filter Parent: ${filters.parent}`}
            preventScrollReset
            className="filter-chip"
          >
            <span className="text-zinc-600 dark:text-zinc-400">Parent:</span>
            <span className="truncate font-mono text-xs">{filters.parent}</span>
            <X size={12} aria-hidden="true" />
          </Link>
        </>
      ) : null}
      {isFiltered(filters) ? (
        <Link to="?" className="text-xs text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400">
          Clear filters
        </Link>
      ) : null}
      {saveView}

      <div className="ml-auto flex flex-wrap items-center gap-2">
        <label className="relative">
          <span className="sr-only">Search</span>
          <input
            type="search"
            name="q"
            key={filters.refusedQuery?.value ?? filters.q}
            placeholder="Search in these…"
            defaultValue={filters.refusedQuery?.value ?? filters.q}
            aria-invalid={filters.refusedQuery ? true : undefined}
            aria-describedby={filters.refusedQuery ? "issue-search-error" : undefined}
            className="filter-search"
          />
        </label>
        {filters.refusedQuery ? (
          <span id="issue-search-error" className="text-xs text-red-700 dark:text-red-400">
            {filters.refusedQuery.message}
          </span>
        ) : null}
        {sortable ? (
          <ToolbarMenu
            id="sort"
            label={`Sort: ${sortLabels[filters.sort]}`}
            triggerClassName="filter-button"
            trigger={
              <>
                <ArrowUpDown size={14} aria-hidden="true" /> {sortLabels[filters.sort]}
              </>
            }
            values={current.has("sort") ? [{ name: "sort", value: filters.sort }] : []}
          >
            <fieldset className="w-48">
              <legend className="filter-legend">Sort</legend>
              {issueSorts.map((sort) => (
                <label key={sort}>
                  <input type="radio" name="sort" value={sort} key={`${sort}:${filters.sort === sort}`} defaultChecked={filters.sort === sort} onChange={apply} />
                  <span>{sortLabels[sort]}</span>
                </label>
              ))}
              <ApplyButton />
            </fieldset>
          </ToolbarMenu>
        ) : null}
        <span className="filter-count">{`${total} ${total === 1 ? noun : `${noun}s`}`}</span>
        {csvHref ? (
          // A document request (reloadDocument), so that the browser downloads it, with or without JavaScript.
          <Link reloadDocument to={csvHref} className="filter-button">
            <Download size={14} aria-hidden="true" /> Export CSV
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/**
 * A menu of the toolbar's form, rendered only while open, since its boxes are most of a list's
 * toolbar (decision record 011, as for a row's menus). Closed, the form carries what it has chosen as
 * hidden fields. The button submits the form with `menu=<id>`: without JavaScript the server renders
 * the page with the menu open, keeping what was typed in the search box; with it the click opens
 * the menu in place as a popover.
 */
function ToolbarMenu({
  id,
  label,
  trigger,
  triggerClassName,
  values,
  children,
}: {
  id: "filter" | "sort";
  label: string;
  trigger: ReactNode;
  triggerClassName: string;
  /** The menu's current choices: the hidden fields that stand for it while it is closed. */
  values: { name: string; value: string }[];
  children: ReactNode;
}) {
  const { openOnServer, open, setOpen, button, panel } = useMenuOnDemand<HTMLButtonElement>(id, "input");

  const isOpen = open || openOnServer;
  return (
    <span className={openOnServer && !open ? "inline-flex" : "contents"}>
      <button
        ref={button}
        type="submit"
        name="menu"
        value={id}
        aria-label={label}
        aria-haspopup="true"
        aria-expanded={isOpen}
        className={openOnServer && !open ? `${triggerClassName} menu-anchor` : triggerClassName}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {trigger}
      </button>
      {open ? (
        <div
          ref={panel}
          id={`${id}-menu`}
          popover="auto"
          className="menu-panel"
          onToggle={(event) => {
            if (event.nativeEvent.newState === "closed") setOpen(false);
          }}
        >
          {children}
        </div>
      ) : openOnServer ? (
        <div id={`${id}-menu`} role="group" aria-label={label} className="menu-panel server-open">
          {children}
        </div>
      ) : (
        values.map((value) => <input key={`${value.name}=${value.value}`} type="hidden" name={value.name} value={value.value} />)
      )}
    </span>
  );
}

/** Without JavaScript a menu's choices apply when this is pressed; with it they apply at once. */
function ApplyButton() {
  return (
    <div className="no-js-only filter-apply">
      <button type="submit">
        Apply
      </button>
    </div>
  );
}

function LabelDot({ color }: { color: string }) {
  return <span aria-hidden="true" className={`label-dot ${labelChipClass(color)}`} />;
}
