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
import { PopoverMenu } from "./menu";

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
 */
export function IssueFilterBar({
  filters,
  members,
  labels,
  total,
  noun = "issue",
  csvHref,
  sortable = true,
}: {
  filters: IssueFilters;
  members: { userId: number; name: string }[];
  labels: { id: number; name: string; color: string }[];
  total: number;
  noun?: string;
  csvHref?: string;
  sortable?: boolean;
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
      <PopoverMenu
        id="filter-menu"
        label="Filter"
        triggerClassName="filter-button outlined"
        trigger={
          <>
            <ListFilter size={14} aria-hidden="true" /> Filter
          </>
        }
      >
        {() => (
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
        )}
      </PopoverMenu>

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
      {isFiltered(filters) ? (
        <Link to="?" className="text-xs text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400">
          Clear filters
        </Link>
      ) : null}

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
            className="h-7 w-44 rounded-md border border-zinc-300 bg-white px-2 text-sm placeholder:text-zinc-500 aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-950 dark:placeholder:text-zinc-400"
          />
        </label>
        {filters.refusedQuery ? (
          <span id="issue-search-error" className="text-xs text-red-700 dark:text-red-400">
            {filters.refusedQuery.message}
          </span>
        ) : null}
        {sortable ? (
          <PopoverMenu
            id="sort-menu"
            label={`Sort: ${sortLabels[filters.sort]}`}
            triggerClassName="filter-button"
            trigger={
              <>
                <ArrowUpDown size={14} aria-hidden="true" /> {sortLabels[filters.sort]}
              </>
            }
          >
            {() => (
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
            )}
          </PopoverMenu>
        ) : null}
        <span className="text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
          {total} {total === 1 ? noun : `${noun}s`}
        </span>
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
