import { type MouseEvent, type ReactNode, useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { Avatar } from "~/components/avatar";
import { PriorityIcon } from "~/components/icons/priority-icon";
import { StatusIcon } from "~/components/icons/status-icon";
import { LabelChip } from "~/components/label-chip";
import { ChoiceForm, OnDemandMenu } from "~/components/menu";
import { issueLinkSelector } from "~/components/issue-link";
import { BlockedMarker, ProgressMarker } from "~/components/link-markers";
import { DueDate, RelativeTime } from "~/components/time";
import type { IssueRowData } from "~/issues/issue-refs";
import { isClosed, issueKey, type Priority, priorities, priorityLabels, type Status, statuses, statusLabels } from "~/issues/issue-fields";

/**
 * How the rows of a list can be edited, made once per list: where their menus post, who can be
 * assigned, which menu is open, and what is on its way.
 */
export type RowEditing = {
  action: string;
  members: { userId: number; name: string }[];
  /** Called as a change is submitted, so that the list can show that fetcher's refusal. */
  onChange: (issueId: number) => void;
  /** This page's path, and its query without `menu` then "&" (or ""): a row's menu link is `?${query}menu=<id>`. */
  path: string;
  query: string;
  /** The menu open in the browser (a click opened it), if any. */
  openMenu: string | null;
  /** The menu the page's URL opens (`?menu=`): the server renders it open, for browsers without JavaScript. */
  urlMenu: string | null;
  /** Closes the menu opened in the browser. */
  closeMenu: () => void;
  /** The choices on their way (a row's fetcher's form data), by issue id: the row shows them at once. */
  pending: ReadonlyMap<number, FormData>;
  /** The bulk edit's selection: each row has a box (`issueIds`) of the form `form`, which lies outside the rows. */
  selection?: { form: string; selected: ReadonlySet<number>; toggle: (issueId: number, selected: boolean) => void };
};

/** One fetcher per row: its status, priority and assignee menus post the row's one version. */
export const rowFetcherKey = (issueId: number) => `issue-row-${issueId}`;

/** The issue a row fetcher's key names (see `rowFetcherKey`), or null. */
export const rowFetcherIssue = (key: string) => (key.startsWith("issue-row-") ? Number(key.slice(10)) : null);

/** Labels a row shows before "+N". */
const shownLabels = 2;

/**
 * The rows' container, and one click listener for all of its links (rather than a React Router
 * `<Link>` and its hooks per row): a title opens its issue in the app, and with `onMenu` a row's
 * menu link opens that menu in the browser. Without JavaScript both are plain links (a menu's loads
 * the page with the menu open).
 */
export function IssueRows({ label, onMenu, children }: { label: string; onMenu?: (menuId: string) => void; children: ReactNode }) {
  const navigate = useNavigate();
  const follow = (event: MouseEvent<HTMLUListElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest<HTMLAnchorElement>("a[href]");
    if (!link || !event.currentTarget.contains(link)) return;
    if (link.matches(issueLinkSelector)) {
      event.preventDefault();
      const href = link.getAttribute("href")!;
      // As a <Link> does: to the page it is on, it replaces rather than adds a history entry.
      void navigate(href, { replace: href === window.location.pathname + window.location.search });
      return;
    }
    const menuId = onMenu && link.hasAttribute("aria-haspopup") ? new URL(link.href).searchParams.get("menu") : null;
    if (!menuId) return;
    event.preventDefault();
    onMenu!(menuId);
  };
  return (
    <ul aria-label={label} className="rows" onClick={follow}>
      {children}
    </ul>
  );
}

/**
 * One issue on one line (DESIGN.md §3): priority, key, status, title, labels, due date, assignee,
 * updated. With `editing`, status, priority and assignee are menus that post to the list's action;
 * without it (viewers, archived projects, My issues, search) they are plain values. A closed menu is
 * a link (`?menu=`), so that only an open one costs its form.
 */
export function IssueRow({
  issue,
  projectKey = issue.projectKey ?? "",
  href,
  current = false,
  editing,
  title,
  children,
}: {
  issue: IssueRowData;
  projectKey?: string;
  href: string;
  current?: boolean;
  editing?: RowEditing;
  /** The title as shown (search highlights it); the plain title is always its tooltip. */
  title?: ReactNode;
  /** A second line under the row (a search result's snippet). */
  children?: ReactNode;
}) {
  const key = issueKey(projectKey, issue.number);
  const pending = editing?.pending.get(issue.id);
  const chosen = (name: string, stored: string) => {
    const value = pending?.get(name);
    return typeof value === "string" ? value : stored;
  };
  const status = chosen("status", issue.status) as Status;
  const priority = chosen("priority", issue.priority) as Priority;
  const assigneeId = chosen("assigneeId", issue.assignee ? String(issue.assignee.id) : "");
  const assignee = assigneeId === "" ? null : assigneeId === String(issue.assignee?.id) ? issue.assignee : memberAsUser(editing, assigneeId);
  const extraLabels = issue.labels.length - shownLabels;
  const menu = (property: "status" | "priority" | "assignee", label: string, icon: ReactNode) => (
    <RowProperty editing={editing} issue={issue} property={property} label={label} icon={icon} current={property === "assignee" ? assigneeId : property === "status" ? status : priority} />
  );

  const selection = editing?.selection;
  const line = (
    <>
      {selection ? (
        <input
          type="checkbox"
          form={selection.form}
          name="issueIds"
          value={issue.id}
          aria-label={`Select ${key}`}
          checked={selection.selected.has(issue.id)}
          onChange={(event) => selection.toggle(issue.id, event.currentTarget.checked)}
          className="row-check"
        />
      ) : null}
      {menu("priority", `Priority of ${key}: ${priorityLabels[priority]}`, <PriorityIcon priority={priority} />)}
      <span className="row-key">{key}</span>
      {menu("status", `Status of ${key}: ${statusLabels[status]}`, <StatusIcon status={status} />)}
      {/* Followed by IssueRows, which knows it as the row's link without a popup (`issueLinkSelector`). */}
      <a href={href} title={issue.title}>
        {title ?? issue.title}
      </a>
      {issue.blocked ? <BlockedMarker /> : null}
      {issue.progress ? <ProgressMarker progress={issue.progress} /> : null}
      {issue.labels.length ? (
        <span className="row-labels">
          {issue.labels.slice(0, shownLabels).map((label) => (
            <LabelChip key={label.id} name={label.name} color={label.color} />
          ))}
          {extraLabels > 0 ? (
            <span title={issue.labels.slice(shownLabels).map((l) => l.name).join(", ")} className="row-more">
              +{extraLabels}
              <span className="sr-only"> more labels</span>
            </span>
          ) : null}
        </span>
      ) : null}
      {issue.due_date ? <DueDate date={issue.due_date} closed={isClosed(status)} className="row-due" /> : null}
      {menu("assignee", `Assignee of ${key}: ${assignee?.name ?? "Unassigned"}`, <Avatar user={assignee} decorative />)}
      <RelativeTime at={issue.updated_at} style="short" className="row-time" />
    </>
  );
  return children ? (
    <li aria-current={current ? "true" : undefined}>
      <div className="row">{line}</div>
      {children}
    </li>
  ) : (
    <li aria-current={current ? "true" : undefined} className="row">
      {line}
    </li>
  );
}

function memberAsUser(editing: RowEditing | undefined, userId: string) {
  const member = editing?.members.find((m) => String(m.userId) === userId);
  return member ? { id: member.userId, name: member.name } : null;
}

/**
 * A row's property: a menu when the row can be edited, else the value alone (named for screen
 * readers). A closed menu is only a link; the open one is rendered as the server renders it
 * (`?menu=`, for browsers without JavaScript) or as a popover (a click opened it).
 */
function RowProperty({
  editing,
  issue,
  property,
  label,
  icon,
  current,
}: {
  editing: RowEditing | undefined;
  issue: IssueRowData;
  property: "status" | "priority" | "assignee";
  label: string;
  icon: ReactNode;
  current: string;
}) {
  if (!editing) {
    return (
      <span role="img" aria-label={label} title={label} className="row-value">
        {icon}
      </span>
    );
  }
  const menuId = `${property}-${issue.id}`;
  const href = `?${editing.query}menu=${menuId}`;
  const choices = (returnTo: string, submitted: () => void) => (
    <ChoiceForm
      fetcherKey={rowFetcherKey(issue.id)}
      action={editing.action}
      onSubmitted={() => {
        editing.onChange(issue.id);
        submitted();
      }}
      hidden={{ intent: property, issueId: issue.id, version: issue.version ?? 0, returnTo }}
      current={current}
      {...menuChoices(property, editing)}
    />
  );
  if (editing.openMenu === null && editing.urlMenu === menuId) {
    // As the server renders it (without JavaScript, or before it runs): a panel under the button.
    return (
      <OnDemandMenu menuId={menuId} label={label} trigger={icon} triggerClassName="row-menu">
        {({ close, returnTo }) => choices(returnTo, close)}
      </OnDemandMenu>
    );
  }
  const open = editing.openMenu === menuId;
  // One shape open or closed, so that the link stays the same element (and keeps the focus).
  // `aria-expanded` only while open: ARIA's menu-button pattern leaves it out when closed. Styled
  // as `.row-menu` by its aria-haspopup (list.css), which saves each row three class attributes.
  return (
    <>
      <a href={href} aria-label={label} aria-haspopup="true" aria-expanded={open || undefined}>
        {icon}
      </a>
      {open ? <PopoverPanel onClosed={editing.closeMenu}>{(close) => choices(`${editing.path}${closeSearch(editing.query)}`, close)}</PopoverPanel> : null}
    </>
  );
}

/** `?…` of the page's query without the menu, or "". */
const closeSearch = (query: string) => (query ? `?${query.slice(0, -1)}` : "");

function menuChoices(property: "status" | "priority" | "assignee", editing: RowEditing) {
  switch (property) {
    case "status":
      return { title: "Status", name: "status", choices: statuses.map((s) => ({ value: s, label: statusLabels[s], icon: <StatusIcon status={s} /> })) };
    case "priority":
      return {
        title: "Priority",
        name: "priority",
        choices: [...priorities].reverse().map((p) => ({ value: p, label: priorityLabels[p], icon: <PriorityIcon priority={p} /> })),
      };
    case "assignee":
      return {
        title: "Assignee",
        name: "assigneeId",
        choices: [
          { value: "", label: "Unassigned", icon: <Avatar user={null} decorative /> },
          ...editing.members.map((m) => ({ value: String(m.userId), label: m.name, icon: <Avatar user={{ id: m.userId, name: m.name }} decorative /> })),
        ],
      };
  }
}

/** The panel of menus (as menu.tsx draws it): only one is ever open on a list. */
const panelClass =
  "menu-panel z-40 min-w-44 max-w-72 rounded-md border border-zinc-200 bg-white p-1 text-sm text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

/** The panel of a menu a click opened: a popover anchored to its link (just before it), focused on the current choice. */
function PopoverPanel({ onClosed, children }: { onClosed: () => void; children: (close: () => void) => ReactNode }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = panel.current;
    if (!element) return;
    // `source` anchors the popover to its button (CSS anchor positioning); older browsers ignore it.
    (element.showPopover as (options?: { source?: Element }) => void).call(element, { source: element.previousElementSibling ?? undefined });
    element.querySelector<HTMLButtonElement>("button[aria-current=true], button")?.focus();
  }, []);
  return (
    <div
      ref={panel}
      popover="auto"
      className={panelClass}
      onToggle={(event) => {
        if (event.nativeEvent.newState === "closed") onClosed();
      }}
    >
      {children(() => panel.current?.hidePopover())}
    </div>
  );
}
