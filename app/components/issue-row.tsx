import type { ReactNode } from "react";
import { Link } from "react-router";
import { Avatar } from "~/components/avatar";
import { PriorityIcon } from "~/components/icons/priority-icon";
import { StatusIcon } from "~/components/icons/status-icon";
import { LabelChip } from "~/components/label-chip";
import { ChoiceForm, OnDemandMenu, useChoice } from "~/components/menu";
import { DueDate, RelativeTime } from "~/components/time";
import { isClosed, issueKey, type Priority, priorities, priorityLabels, type Status, statuses, statusLabels } from "~/issues/issue-fields";

/** One issue as a list row shows it (the project list, My issues, search results). */
export type IssueRowData = {
  id: number;
  number: number;
  title: string;
  status: Status;
  priority: Priority;
  projectKey: string;
  assignee: { id: number; name: string } | null;
  labels: { id: number; name: string; color: string }[];
  due_date: string | null;
  updated_at: string;
  version: number;
};

/** Where a row's menus post (the list's action), who can be assigned, and who hears of a change. */
export type RowEditing = {
  action: string;
  members: { userId: number; name: string }[];
  /** Called as a change is submitted, so that the list can show that fetcher's refusal. */
  onChange: (issueId: number) => void;
};

/** One fetcher per row: its status, priority and assignee menus post the row's one version. */
export const rowFetcherKey = (issueId: number) => `issue-row-${issueId}`;

/** Labels a row shows before "+N". */
const shownLabels = 2;

/** The rows' container; a container query lets each row drop columns when the list is narrow (split view, phone). */
export function IssueRows({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul aria-label={label} className="@container">
      {children}
    </ul>
  );
}

/**
 * One issue on one line (DESIGN.md §3): priority, key, status, title, labels, due date, assignee,
 * updated. With `editing`, status, priority and assignee are menus that post to the list's action;
 * without it (viewers, archived projects, My issues, search) they are plain values.
 */
export function IssueRow({
  issue,
  href,
  current = false,
  editing,
  title,
  children,
}: {
  issue: IssueRowData;
  href: string;
  current?: boolean;
  editing?: RowEditing;
  /** The title as shown (search highlights it); the plain title is always its tooltip. */
  title?: ReactNode;
  /** A second line under the row (a search result's snippet). */
  children?: ReactNode;
}) {
  const key = issueKey(issue.projectKey, issue.number);
  const fetcherKey = rowFetcherKey(issue.id);
  const status = useChoice(fetcherKey, "status", issue.status) as Status;
  const priority = useChoice(fetcherKey, "priority", issue.priority) as Priority;
  const assigneeId = useChoice(fetcherKey, "assigneeId", issue.assignee ? String(issue.assignee.id) : "");
  const assignee = assigneeId === "" ? null : assigneeId === String(issue.assignee?.id) ? issue.assignee : memberAsUser(editing, assigneeId);
  const extraLabels = issue.labels.length - shownLabels;

  return (
    <li
      aria-current={current ? "true" : undefined}
      className="border-b border-zinc-100 aria-[current]:bg-indigo-50 dark:border-zinc-800/70 dark:aria-[current]:bg-indigo-950/60"
    >
      <div className="flex h-9 items-center gap-2 px-4 hover:bg-zinc-50 md:px-6 dark:hover:bg-zinc-900/60">
        <RowProperty
          editing={editing}
          issueId={issue.id}
          menuId={`priority-${issue.id}`}
          label={`Priority of ${key}: ${priorityLabels[priority]}`}
          icon={<PriorityIcon priority={priority} />}
        >
          {(menu) => (
            <ChoiceForm
              fetcherKey={fetcherKey}
              action={editing?.action}
              title="Priority"
              name="priority"
              current={priority}
              choices={[...priorities].reverse().map((p) => ({ value: p, label: priorityLabels[p], icon: <PriorityIcon priority={p} /> }))}
              hidden={{ intent: "priority", issueId: issue.id, version: issue.version, returnTo: menu.returnTo }}
              onSubmitted={menu.submitted}
            />
          )}
        </RowProperty>
        <span className="w-16 shrink-0 truncate font-mono text-xs text-zinc-600 dark:text-zinc-400">{key}</span>
        <RowProperty editing={editing} issueId={issue.id} menuId={`status-${issue.id}`} label={`Status of ${key}: ${statusLabels[status]}`} icon={<StatusIcon status={status} />}>
          {(menu) => (
            <ChoiceForm
              fetcherKey={fetcherKey}
              action={editing?.action}
              title="Status"
              name="status"
              current={status}
              choices={statuses.map((s) => ({ value: s, label: statusLabels[s], icon: <StatusIcon status={s} /> }))}
              hidden={{ intent: "status", issueId: issue.id, version: issue.version, returnTo: menu.returnTo }}
              onSubmitted={menu.submitted}
            />
          )}
        </RowProperty>
        <Link to={href} title={issue.title} data-issue-link className="min-w-0 flex-1 truncate text-zinc-900 hover:underline dark:text-zinc-100">
          {title ?? issue.title}
        </Link>
        {issue.labels.length ? (
          <span className="hidden shrink-0 items-center gap-1 @3xl:flex">
            {issue.labels.slice(0, shownLabels).map((label) => (
              <LabelChip key={label.id} name={label.name} color={label.color} />
            ))}
            {extraLabels > 0 ? (
              <span title={issue.labels.slice(shownLabels).map((l) => l.name).join(", ")} className="text-xs text-zinc-600 dark:text-zinc-400">
                +{extraLabels}
                <span className="sr-only"> more labels</span>
              </span>
            ) : null}
          </span>
        ) : null}
        {issue.due_date ? <DueDate date={issue.due_date} closed={isClosed(status)} className="hidden shrink-0 text-xs @xl:inline" /> : null}
        <RowProperty
          editing={editing}
          issueId={issue.id}
          menuId={`assignee-${issue.id}`}
          alignEnd
          label={`Assignee of ${key}: ${assignee?.name ?? "Unassigned"}`}
          icon={<Avatar user={assignee} decorative />}
        >
          {(menu) => (
            <ChoiceForm
              fetcherKey={fetcherKey}
              action={editing?.action}
              title="Assignee"
              name="assigneeId"
              current={assigneeId}
              choices={[
                { value: "", label: "Unassigned", icon: <Avatar user={null} decorative /> },
                ...(editing?.members ?? []).map((m) => ({ value: String(m.userId), label: m.name, icon: <Avatar user={{ id: m.userId, name: m.name }} decorative /> })),
              ]}
              hidden={{ intent: "assignee", issueId: issue.id, version: issue.version, returnTo: menu.returnTo }}
              onSubmitted={menu.submitted}
            />
          )}
        </RowProperty>
        <RelativeTime at={issue.updated_at} style="short" className="hidden w-12 shrink-0 text-right text-xs text-zinc-600 @lg:inline dark:text-zinc-400" />
      </div>
      {children}
    </li>
  );
}

function memberAsUser(editing: RowEditing | undefined, userId: string) {
  const member = editing?.members.find((m) => String(m.userId) === userId);
  return member ? { id: member.userId, name: member.name } : null;
}

/** A row's property: a menu when the row can be edited, else the value alone (named for screen readers). */
function RowProperty({
  editing,
  issueId,
  menuId,
  label,
  icon,
  alignEnd = false,
  children,
}: {
  editing: RowEditing | undefined;
  issueId: number;
  menuId: string;
  /** The menu at the row's end: without JavaScript its panel opens leftwards, so the page never scrolls sideways. */
  alignEnd?: boolean;
  label: string;
  icon: ReactNode;
  children: (menu: { returnTo: string; submitted: () => void }) => ReactNode;
}) {
  if (!editing) {
    return (
      <span role="img" aria-label={label} title={label} className="inline-flex shrink-0 p-1">
        {icon}
      </span>
    );
  }
  const menu = (
    <OnDemandMenu menuId={menuId} label={label} trigger={icon} triggerClassName={rowTriggerClass}>
      {({ close, returnTo }) =>
        children({
          returnTo,
          submitted: () => {
            editing.onChange(issueId);
            close();
          },
        })
      }
    </OnDemandMenu>
  );
  return alignEnd ? <span className="inline-flex shrink-0 [&_[role=group]]:right-0 [&_[role=group]]:left-auto">{menu}</span> : menu;
}

const rowTriggerClass = "inline-flex shrink-0 items-center rounded p-1 hover:bg-zinc-200/70 aria-expanded:bg-zinc-200/70 dark:hover:bg-zinc-800 dark:aria-expanded:bg-zinc-800";
