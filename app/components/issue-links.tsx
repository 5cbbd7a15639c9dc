import { Link, useFetcher } from "react-router";
import { primaryButtonClass } from "~/components/app-shell";
import { Plus, X } from "~/components/icons/icon";
import { StatusIcon } from "~/components/icons/status-icon";
import { menuItemClass, PopoverMenu, triggerClass } from "~/components/menu";
import { PropertyRow } from "~/components/issue-properties";
import {
  type IssueRelation,
  type LinkedIssue,
  progressText,
  relationChoices,
  relationLabels,
  type SubIssueProgress,
} from "~/issues/issue-links";
import { statusLabels } from "~/issues/issue-fields";
import { issuePath } from "~/issues/references";

/**
 * Sub-issues and relations on screen (decision record 021): the markers of a row or a card, the
 * issue page's "Sub-issue of" line and "Sub-issues" section, and its "Parent" and "Relations"
 * properties. The property forms are real forms (intent=set-parent|add-relation|remove-relation)
 * in popovers, as the other properties' menus are: without JavaScript they post and the page comes
 * back; with it a fetcher posts them. A refusal shows at its property, with what was typed kept.
 */

/** "Sub-issue of WEB-12 Title", above an issue's title. */
export function ParentLine({ parent, workspaceSlug }: { parent: LinkedIssue; workspaceSlug: string }) {
  return (
    <p className="parent-line">
      <span>Sub-issue of</span>
      <Link to={issuePath(workspaceSlug, parent.key)} className="parent-link">
        <StatusIcon status={parent.status} />
        <span className="issue-key">{parent.key}</span>
        <span className="truncate">{parent.title}</span>
      </Link>
    </p>
  );
}

/** The "Sub-issues" section under the description: progress, rows, and "Add sub-issue". */
export function SubIssues({
  subIssues,
  progress,
  workspaceSlug,
  addHref,
  listHref,
}: {
  subIssues: LinkedIssue[];
  progress: SubIssueProgress;
  workspaceSlug: string;
  /** The new-issue form with this issue as parent; none for who cannot write. */
  addHref?: string;
  /** The project's list filtered to these sub-issues. */
  listHref: string;
}) {
  if (!subIssues.length && !addHref) return null;
  return (
    <section aria-labelledby="sub-issues-title" className="sub-issues">
      <div className="sub-issues-head">
        <h3 id="sub-issues-title" className="text-sm font-semibold">
          Sub-issues
        </h3>
        {subIssues.length ? (
          <>
            <progress max={progress.total} value={progress.done} aria-hidden="true" className="thin-bar w-20" />
            <span className="muted text-[13px] tabular-nums">{progressText(progress)}</span>
            <Link to={listHref} className="quiet-link ml-auto text-[13px]">
              View in list
            </Link>
          </>
        ) : null}
      </div>
      {subIssues.length ? (
        <ul aria-label="Sub-issues" className="sub-issue-rows">
          {subIssues.map((sub) => (
            <li key={sub.id}>
              <span role="img" aria-label={statusLabels[sub.status]} title={statusLabels[sub.status]} className="inline-flex">
                <StatusIcon status={sub.status} />
              </span>
              <span className="issue-key muted">{sub.key}</span>
              <Link to={issuePath(workspaceSlug, sub.key)} title={sub.title} className="min-w-0 flex-1 truncate hover:underline">
                {sub.title}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {addHref ? (
        <Link to={addHref} className="quiet-link mt-1 inline-flex items-center gap-1 text-[13px]">
          <Plus size={14} aria-hidden="true" /> Add sub-issue
        </Link>
      ) : null}
    </section>
  );
}

type ActionAnswer = { error?: Record<string, string[] | null> };

/** The message of a refused link change: the fetcher's answer (with JavaScript), else the page's. */
function useLinkRefusal(fetcherKey: string, fromPage: string | undefined) {
  const fetcher = useFetcher<ActionAnswer>({ key: fetcherKey });
  const fromFetcher = Object.values(fetcher.data?.error ?? {})
    .flat()
    .filter(Boolean)
    .join(" ");
  return { fetcher, message: fromFetcher || fromPage };
}

function Refusal({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="prop-refusal">
      {message}
    </p>
  );
}

const inputClass = "link-input";

/** The field for another issue's key (WEB-12), marked invalid and described by `errorId` when refused. */
function IssueKeyInput({ name, defaultValue, errorId }: { name: "parent" | "target"; defaultValue: string; errorId: string | undefined }) {
  return (
    <input
      name={name}
      required
      defaultValue={defaultValue}
      placeholder="WEB-12"
      autoComplete="off"
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
      className={inputClass}
    />
  );
}

/** "Parent": the parent as a value; its menu sets one by key, or removes it. */
export function ParentProperty({
  issueId,
  parent,
  writable,
  refusal,
  typed,
}: {
  issueId: number;
  parent: LinkedIssue | null;
  writable: boolean;
  /** The refusal the page was rendered with (without JavaScript), and what was typed. */
  refusal?: string;
  typed?: string;
}) {
  const { fetcher, message } = useLinkRefusal(`issue-${issueId}-parent`, refusal);
  const pending = fetcher.state !== "idle";
  const value = parent ? (
    <span className="prop-value min-w-0">
      <StatusIcon status={parent.status} />
      <span className="issue-key">{parent.key}</span>
    </span>
  ) : (
    <span className="prop-text muted">None</span>
  );
  if (!writable) return <PropertyRow term="Parent">{value}</PropertyRow>;
  const errorId = `parent-${issueId}-error`;
  return (
    <PropertyRow term="Parent">
      <PopoverMenu label={parent ? `Parent: ${parent.key}` : "Parent: none"} triggerClassName={`${triggerClass} prop-btn`} trigger={value}>
        {(close) => (
          <div className="w-64 p-1">
            <fetcher.Form method="post" onSubmit={close} className="flex items-end gap-2">
              <label className="link-label flex-1">
                Parent issue
                <IssueKeyInput name="parent" defaultValue={typed ?? parent?.key ?? ""} errorId={message ? errorId : undefined} />
              </label>
              <button type="submit" name="intent" value="set-parent" className={primaryButtonClass}>
                {pending ? "Saving…" : "Set parent"}
              </button>
            </fetcher.Form>
            {parent ? (
              <fetcher.Form method="post" onSubmit={close} className="mt-1">
                <input type="hidden" name="parent" value="" />
                <button type="submit" name="intent" value="set-parent" className={menuItemClass}>
                  Remove parent
                </button>
              </fetcher.Form>
            ) : null}
          </div>
        )}
      </PopoverMenu>
      <Refusal id={errorId} message={message} />
    </PropertyRow>
  );
}

/** Consecutive relations of one kind, as one group. */
function relationGroups(relations: IssueRelation[]) {
  const groups: { view: IssueRelation["view"]; members: IssueRelation[] }[] = [];
  for (const relation of relations) {
    const last = groups.at(-1);
    if (last?.view === relation.view) last.members.push(relation);
    else groups.push({ view: relation.view, members: [relation] });
  }
  return groups;
}

/** "Relations": the related issues by kind ("Blocked by": WEB-9 …), each with its remove button, and a form to add one. */
export function RelationsProperty({
  issueId,
  relations,
  workspaceSlug,
  writable,
  refusal,
  typed,
}: {
  issueId: number;
  relations: IssueRelation[];
  workspaceSlug: string;
  writable: boolean;
  refusal?: string;
  typed?: { type?: string; target?: string };
}) {
  const { fetcher, message } = useLinkRefusal(`issue-${issueId}-relations`, refusal);
  const pending = fetcher.state !== "idle";
  const errorId = `relations-${issueId}-error`;
  return (
    <PropertyRow term="Relations">
      {relations.length ? (
        // Grouped by kind (they come in relationOrder), a line per issue: its key whole, its title
        // cut to the room left, the remove button at the end of the line.
        <ul aria-label="Relations" className="relations">
          {relationGroups(relations).map(({ view, members }) => (
            <li key={view}>
              <span className="relation-kind">{relationLabels[view]}</span>
              <ul aria-label={relationLabels[view]}>
                {members.map((relation) => (
                  <li key={relation.id}>
                    <Link to={issuePath(workspaceSlug, relation.issue.key)} title={relation.issue.title} className="relation-link">
                      <StatusIcon status={relation.issue.status} />
                      <span className="issue-key">{relation.issue.key}</span>
                      <span className="truncate">{relation.issue.title}</span>
                    </Link>
                    {writable ? (
                      <fetcher.Form method="post" className="shrink-0">
                        <input type="hidden" name="relationId" value={relation.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="remove-relation"
                          aria-label={`Remove relation: ${relationLabels[view]} ${relation.issue.key}`}
                          title="Remove"
                          className="relation-remove"
                        >
                          <X size={12} aria-hidden="true" />
                        </button>
                      </fetcher.Form>
                    ) : null}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      ) : writable ? null : (
        <span className="prop-text muted">None</span>
      )}
      {writable ? (
        <PopoverMenu
          label="Add relation"
          triggerClassName={`${triggerClass} prop-btn muted text-[13px]`}
          trigger={
            <>
              <Plus size={14} aria-hidden="true" /> {pending ? "Saving…" : "Add relation"}
            </>
          }
        >
          {(close) => (
            <fetcher.Form method="post" onSubmit={close} className="w-64 space-y-2 p-1">
              <label className="link-label">
                Relation
                <select name="type" defaultValue={typed?.type ?? "blocked_by"} className={inputClass}>
                  {relationChoices.map((choice) => (
                    <option key={choice} value={choice}>
                      {relationLabels[choice]}
                    </option>
                  ))}
                </select>
              </label>
              <label className="link-label">
                Issue
                <IssueKeyInput name="target" defaultValue={typed?.target ?? ""} errorId={message ? errorId : undefined} />
              </label>
              <button type="submit" name="intent" value="add-relation" className={primaryButtonClass}>
                Add relation
              </button>
            </fetcher.Form>
          )}
        </PopoverMenu>
      ) : null}
      <Refusal id={errorId} message={message} />
    </PropertyRow>
  );
}
