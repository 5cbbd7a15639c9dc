import { CalendarDays, Check, Tag } from "~/components/icons/icon";
import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { primaryButtonClass } from "~/components/app-shell";
import { Avatar } from "~/components/avatar";
import { PriorityIcon } from "~/components/icons/priority-icon";
import { StatusIcon } from "~/components/icons/status-icon";
import { LabelChip } from "~/components/label-chip";
import { ChoiceForm, menuItemClass, PopoverMenu, triggerClass, useChoice } from "~/components/menu";
import { DueDate, RelativeTime } from "~/components/time";
import { type Priority, priorities, priorityLabels, type Status, statuses, statusLabels } from "~/issues/issue-fields";

/**
 * The issue's properties panel (DESIGN.md §3, Issue): each property a value that opens a menu of
 * choices, each choice a submit button of a real form (intent=status, or intent=update with only
 * that field and the version). Without JavaScript the form posts and the page comes back; with it a
 * fetcher saves it and the value changes at once (`useChoice`). A refusal (409: someone else saved
 * first) shows its message at the property.
 */

type Label = { id: number; name: string; color: string };
type Person = { id: number; name: string };

export type PropertiesIssue = {
  id: number;
  version: number;
  status: Status;
  priority: Priority;
  assignee: Person | null;
  labels: Label[];
  dueDate: string | null;
  reporter: Person | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
};

/** The properties a menu changes, by the field its form posts. */
export type Property = "status" | "priority" | "assigneeId" | "labelIds" | "dueDate";

type Refusals = Partial<Record<Property, string>>;

const fetcherKey = (issueId: number, property: Property) => `issue-${issueId}-${property}`;

/** The message of a refused save, from a fetcher's answer (with JavaScript). */
function useRefusal(issueId: number, property: Property, fromPage: string | undefined) {
  const fetcher = useFetcher<{ error?: Record<string, string[] | null> }>({ key: fetcherKey(issueId, property) });
  const fromFetcher = Object.values(fetcher.data?.error ?? {})
    .flat()
    .filter(Boolean)
    .join(" ");
  return fromFetcher || fromPage;
}

function Refusal({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="prop-refusal">
      {message}
    </p>
  );
}

const valueTriggerClass = `${triggerClass} prop-btn`;

/** One property: its term and its value (or menu). */
export function PropertyRow({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="prop-term">{term}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

const Row = PropertyRow;

export function IssueProperties({
  issue,
  members,
  labels,
  writable,
  refusals,
  children,
}: {
  issue: PropertiesIssue;
  members: Person[];
  labels: Label[];
  writable: boolean;
  /** Refusals the page was rendered with (without JavaScript), by property. */
  refusals: Refusals;
  /** Properties of the page's own (parent, relations), after the due date. */
  children?: ReactNode;
}) {
  return (
    <dl className="props">
      <Row term="Status">{writable ? <StatusMenu issue={issue} refusal={refusals.status} /> : <StatusValue status={issue.status} />}</Row>
      <Row term="Priority">{writable ? <PriorityMenu issue={issue} refusal={refusals.priority} /> : <PriorityValue priority={issue.priority} />}</Row>
      <Row term="Assignee">
        {writable ? <AssigneeMenu issue={issue} members={members} refusal={refusals.assigneeId} /> : <PersonValue person={issue.assignee} none="Unassigned" />}
      </Row>
      <Row term="Labels">{writable ? <LabelsMenu issue={issue} labels={labels} refusal={refusals.labelIds} /> : <LabelsValue labels={issue.labels} />}</Row>
      <Row term="Due date">{writable ? <DueDateMenu issue={issue} refusal={refusals.dueDate} /> : <DueDateValue date={issue.dueDate} />}</Row>
      {children}
      <Row term="Reporter">
        <PersonValue person={issue.reporter} none="Someone" />
      </Row>
      <Row term="Created">
        <span className="prop-text">
          <RelativeTime at={issue.createdAt} />
        </span>
      </Row>
      <Row term="Updated">
        <span className="prop-text">
          <RelativeTime at={issue.updatedAt} />
        </span>
      </Row>
      {issue.closedAt ? (
        <Row term="Closed">
          <span className="prop-text">
            <RelativeTime at={issue.closedAt} />
          </span>
        </Row>
      ) : null}
    </dl>
  );
}

function StatusValue({ status }: { status: Status }) {
  return (
    <span className="prop-value">
      <StatusIcon status={status} />
      {statusLabels[status]}
    </span>
  );
}

function PriorityValue({ priority }: { priority: Priority }) {
  return (
    <span className={priority === "urgent" ? "prop-value font-medium text-orange-700 dark:text-orange-400" : "prop-value"}>
      <PriorityIcon priority={priority} />
      {priorityLabels[priority]}
    </span>
  );
}

function PersonValue({ person, none }: { person: Person | null; none: string }) {
  return (
    <span className="prop-value min-w-0">
      <Avatar user={person} decorative />
      <span className="truncate">{person?.name ?? none}</span>
    </span>
  );
}

function LabelsValue({ labels }: { labels: Label[] }) {
  if (!labels.length) return <span className="prop-text muted">None</span>;
  return (
    <span className="flex min-h-7 flex-wrap items-center gap-1">
      {labels.map((label) => (
        <LabelChip key={label.id} name={label.name} color={label.color} />
      ))}
    </span>
  );
}

function DueDateValue({ date }: { date: string | null }) {
  return (
    <span className="prop-value">
      <CalendarDays size={14} aria-hidden="true" className="text-zinc-500" />
      {date ? <DueDate date={date} /> : <span className="muted">None</span>}
    </span>
  );
}

function StatusMenu({ issue, refusal }: { issue: PropertiesIssue; refusal?: string }) {
  const key = fetcherKey(issue.id, "status");
  const shown = useChoice(key, "status", issue.status) as Status;
  return (
    <>
      <PopoverMenu label="Status" triggerClassName={valueTriggerClass} trigger={<StatusValue status={shown} />}>
        {(close) => (
          <ChoiceForm
            fetcherKey={key}
            title="Status"
            name="status"
            current={shown}
            choices={statuses.map((s) => ({ value: s, label: statusLabels[s], icon: <StatusIcon status={s} /> }))}
            hidden={{ intent: "status", version: issue.version }}
            onSubmitted={close}
          />
        )}
      </PopoverMenu>
      <Refusal message={useRefusal(issue.id, "status", refusal)} />
    </>
  );
}

function PriorityMenu({ issue, refusal }: { issue: PropertiesIssue; refusal?: string }) {
  const key = fetcherKey(issue.id, "priority");
  const shown = useChoice(key, "priority", issue.priority) as Priority;
  return (
    <>
      <PopoverMenu label="Priority" triggerClassName={valueTriggerClass} trigger={<PriorityValue priority={shown} />}>
        {(close) => (
          <ChoiceForm
            fetcherKey={key}
            title="Priority"
            name="priority"
            current={shown}
            choices={priorities.map((p) => ({ value: p, label: priorityLabels[p], icon: <PriorityIcon priority={p} /> }))}
            hidden={{ intent: "update", version: issue.version }}
            onSubmitted={close}
          />
        )}
      </PopoverMenu>
      <Refusal message={useRefusal(issue.id, "priority", refusal)} />
    </>
  );
}

function AssigneeMenu({ issue, members, refusal }: { issue: PropertiesIssue; members: Person[]; refusal?: string }) {
  const key = fetcherKey(issue.id, "assigneeId");
  const shownId = useChoice(key, "assigneeId", issue.assignee ? String(issue.assignee.id) : "");
  // The pending choice, or the stored assignee (who may no longer be in the menu: a viewer now).
  const shown = shownId === String(issue.assignee?.id ?? "") ? issue.assignee : (members.find((m) => String(m.id) === shownId) ?? null);
  return (
    <>
      <PopoverMenu label="Assignee" triggerClassName={valueTriggerClass} trigger={<PersonValue person={shown} none="Unassigned" />}>
        {(close) => (
          <ChoiceForm
            fetcherKey={key}
            title="Assignee"
            name="assigneeId"
            current={shownId}
            choices={[
              { value: "", label: "Unassigned", icon: <Avatar user={null} decorative /> },
              ...members.map((m) => ({ value: String(m.id), label: m.name, icon: <Avatar user={m} decorative /> })),
            ]}
            hidden={{ intent: "update", version: issue.version }}
            onSubmitted={close}
          />
        )}
      </PopoverMenu>
      <Refusal message={useRefusal(issue.id, "assigneeId", refusal)} />
    </>
  );
}

/**
 * Labels: one form per label, whose button toggles it by posting the whole new set (an empty
 * `labelIds` says "labels are in this form", so that the last one can be removed).
 */
function LabelsMenu({ issue, labels, refusal }: { issue: PropertiesIssue; labels: Label[]; refusal?: string }) {
  const key = fetcherKey(issue.id, "labelIds");
  const fetcher = useFetcher({ key });
  const pending = fetcher.formData?.getAll("labelIds").map(String).filter(Boolean);
  const chosenIds = pending ?? issue.labels.map((l) => String(l.id));
  const chosen = labels.filter((l) => chosenIds.includes(String(l.id)));
  return (
    <>
      <PopoverMenu
        label="Labels"
        triggerClassName={valueTriggerClass}
        trigger={
          chosen.length ? (
            <LabelsValue labels={chosen} />
          ) : (
            <span className="muted inline-flex items-center gap-1.5">
              <Tag size={14} aria-hidden="true" /> None
            </span>
          )
        }
      >
        {(close) => (
          <div>
            <p className="menu-title">Labels</p>
            {labels.length ? (
              <ul>
                {labels.map((label) => {
                  const on = chosenIds.includes(String(label.id));
                  const next = on ? chosenIds.filter((id) => id !== String(label.id)) : [...chosenIds, String(label.id)];
                  return (
                    <li key={label.id}>
                      {/* Closes on a choice, as the page does without JavaScript: the next toggle needs the new version. */}
                      <fetcher.Form method="post" onSubmit={close}>
                        <input type="hidden" name="intent" value="update" />
                        <input type="hidden" name="version" value={issue.version} />
                        <input type="hidden" name="labelIds" value="" />
                        {next.map((id) => (
                          <input key={id} type="hidden" name="labelIds" value={id} />
                        ))}
                        <button type="submit" aria-pressed={on} className={menuItemClass}>
                          <span className="inline-flex w-3.5 justify-center">{on ? <Check size={14} aria-hidden="true" /> : null}</span>
                          <LabelChip name={label.name} color={label.color} />
                        </button>
                      </fetcher.Form>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <p className="muted px-2 py-1.5">This workspace has no labels yet.</p>
            )}
          </div>
        )}
      </PopoverMenu>
      <Refusal message={useRefusal(issue.id, "labelIds", refusal)} />
    </>
  );
}

/** Due date: a date input with "Save", and "Clear" once there is one. */
function DueDateMenu({ issue, refusal }: { issue: PropertiesIssue; refusal?: string }) {
  const key = fetcherKey(issue.id, "dueDate");
  const fetcher = useFetcher({ key });
  const pending = fetcher.formData?.get("dueDate");
  const shown = typeof pending === "string" ? pending || null : issue.dueDate;
  return (
    <>
      <PopoverMenu label="Due date" triggerClassName={valueTriggerClass} trigger={<DueDateValue date={shown} />}>
        {(close) => (
          <div className="p-1">
            <fetcher.Form method="post" onSubmit={close} className="flex items-end gap-2">
              <input type="hidden" name="intent" value="update" />
              <input type="hidden" name="version" value={issue.version} />
              <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">
                Date
                <input
                  type="date"
                  name="dueDate"
                  required
                  defaultValue={shown ?? ""}
                  className="h-7 rounded border border-zinc-300 bg-white px-2 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
                />
              </label>
              <button type="submit" className={primaryButtonClass}>
                Save
              </button>
            </fetcher.Form>
            {shown ? (
              <fetcher.Form method="post" onSubmit={close} className="mt-1">
                <input type="hidden" name="intent" value="update" />
                <input type="hidden" name="version" value={issue.version} />
                <input type="hidden" name="dueDate" value="" />
                <button type="submit" className={menuItemClass}>
                  Clear due date
                </button>
              </fetcher.Form>
            ) : null}
          </div>
        )}
      </PopoverMenu>
      <Refusal message={useRefusal(issue.id, "dueDate", refusal)} />
    </>
  );
}
