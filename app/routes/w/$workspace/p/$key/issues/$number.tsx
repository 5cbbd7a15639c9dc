import { getFormProps } from "@conform-to/react";
import { type ShouldRevalidateFunction, data, Form, Link, redirect, useFetcher, useLocation } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import { addComment, deleteComment, editComment, issueTimeline } from "~/comments/comments.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton } from "~/components/forms";
import { PriorityText, StatusBadge } from "~/components/issue-bits";
import { IssueFieldsForm, type IssueFormOptions } from "~/components/issue-fields-form";
import { LabelChip } from "~/components/label-chip";
import { NoScriptSubmit } from "~/components/no-script-submit";
import { parseForm } from "~/forms/parse-form.server";
import { useRecordForm } from "~/forms/use-record-form";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/host/app-context.server";
import { type EditIssueForm, issueActionSchema } from "~/issues/forms.server";
import { issueKey, priorities, priorityLabels, statuses, statusLabels } from "~/issues/issue-fields";
import { conflictMessage, findIssue, parseIssueNumber, updateIssue } from "~/issues/issues.server";
import { renderMarkdown } from "~/issues/markdown.server";
import { listLabels } from "~/labels/labels.server";
import { listProjects } from "~/projects/projects.server";
import { listMembers } from "~/workspaces/members.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/$number";

async function loadIssue(args: Route.LoaderArgs | Route.ActionArgs, permission: "workspace:read" | "issues:write") {
  const access = await requireProject(args, permission);
  const number = parseIssueNumber(args.params.number);
  const issue = number ? await findIssue(args.context.get(appContext).db, access.project.id, number) : undefined;
  if (!issue) throw data(`Issue ${access.project.key}-${args.params.number} not found.`, { status: 404 });
  return { ...access, issue };
}

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace, project, issue } = await loadIssue(args, "workspace:read");
  const { db } = args.context.get(appContext);
  const [timeline, members, labels, projects] = await Promise.all([
    issueTimeline(db, issue.id),
    listMembers(db, workspace.id),
    listLabels(db, workspace.id),
    listProjects(db, workspace.id),
  ]);
  const markdown = { workspaceSlug: workspace.slug, projectKeys: new Set(projects.map((p) => p.key)) };
  const writable = can(workspace.role, "issues:write") && !project.archived_at;
  return {
    issue: { ...issue, descriptionHtml: renderMarkdown(issue.description, markdown) },
    key: issueKey(project.key, issue.number),
    timeline: timeline.map((entry) => (entry.type === "comment" ? { ...entry, html: entry.deleted ? "" : renderMarkdown(entry.body, markdown) } : entry)),
    members: members.filter((m) => m.role !== "viewer").map((m) => ({ userId: m.userId, name: m.name })),
    labels,
    meId: user.id,
    writable,
    canDeleteAny: writable && can(workspace.role, "comments:delete-any"),
  };
}

export async function action(args: Route.ActionArgs) {
  const { user, workspace, issue } = await loadIssue(args, "issues:write");
  const { db } = args.context.get(appContext);
  const submission = await parseForm(args.request, issueActionSchema, { keepEmptyValues: true });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const form = submission.value;
  const now = new Date();
  // args.url, not request.url: with JavaScript the request is for the `.data` URL.
  const back = redirect(args.url.pathname + args.url.search);

  if (form.intent === "update" || form.intent === "status") {
    const changes =
      form.intent === "status"
        ? { status: form.status }
        : {
            title: form.title,
            description: form.description,
            status: form.status,
            priority: form.priority,
            assigneeId: form.assigneeId === undefined ? undefined : form.assigneeId === "" ? null : form.assigneeId,
            labelIds: form.labelIds,
            dueDate: form.dueDate === undefined ? undefined : form.dueDate || null,
          };
    const saved = await updateIssue(db, { issueId: issue.id, workspaceId: workspace.id, actorId: user.id, version: form.version, changes, now });
    if ("conflict" in saved) return data(submission.reply({ formErrors: [conflictMessage(saved)] }), { status: 409 });
    if ("field" in saved) return data(submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }), { status: 400 });
    return back;
  }
  if (form.intent === "comment") {
    await addComment(db, { issueId: issue.id, authorId: user.id, body: form.body, now });
    return back;
  }
  const changed =
    form.intent === "edit-comment"
      ? await editComment(db, { issueId: issue.id, commentId: form.commentId, actorId: user.id, body: form.body, now })
      : await deleteComment(db, {
          issueId: issue.id,
          commentId: form.commentId,
          actorId: user.id,
          canDeleteAny: can(workspace.role, "comments:delete-any"),
          now,
        });
  if (!changed.ok) throw data(changed.message, { status: changed.status });
  return back;
}

/** After a conflict the page shows what the other person saved, and the version to save over it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

/** The fields of "Edit issue" as its inputs hold them. */
type EditIssueValues = Record<"title" | "description" | "status" | "priority" | "assigneeId" | "dueDate", string> & { labelIds: string[] };

const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (iso: string) => `${dateTime.format(new Date(iso))} UTC`;

const activityText: Record<string, (from: string | null, to: string | null) => string> = {
  created: () => "created the issue",
  title: (_from, to) => `renamed it to “${to}”`,
  description: () => "changed the description",
  status: (from, to) => `changed the status from ${from} to ${to}`,
  priority: (from, to) => `changed the priority from ${from} to ${to}`,
  assignee: (_from, to) => (to ? `assigned it to ${to}` : "unassigned it"),
  labels: (_from, to) => (to ? `set the labels to ${to}` : "removed the labels"),
  due_date: (_from, to) => (to ? `set the due date to ${to}` : "removed the due date"),
  comment_deleted: () => "deleted a comment",
};

export default function IssueDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { issue, key, timeline, members, labels, meId, writable, canDeleteAny } = loaderData;
  const location = useLocation();
  const listHref = `${location.pathname.replace(/\/\d+$/, "")}${location.search}`;
  const submitted = actionData?.initialValue as { intent?: string; commentId?: string; body?: string } | undefined;
  const lastIntent = submitted?.intent;
  const edit = useRecordForm<EditIssueValues>(
    "edit-issue",
    {
      id: issue.id,
      version: issue.version,
      values: {
        title: issue.title,
        description: issue.description,
        status: issue.status,
        priority: issue.priority,
        assigneeId: issue.assignee_id ? String(issue.assignee_id) : "",
        dueDate: issue.due_date ?? "",
        labelIds: issue.labels.map((l) => String(l.id)),
      },
    },
    lastIntent === "update" ? actionData : undefined,
  );
  // Refusals of the forms without fields of their own (status, delete-comment): every message at the top.
  const refusal =
    lastIntent !== "update" && lastIntent !== "comment" && lastIntent !== "edit-comment" && actionData?.error
      ? Object.values(actionData.error).flat().filter(Boolean)
      : [];
  const commentEditError = lastIntent === "edit-comment" ? Object.values(actionData?.error ?? {}).flat().filter((e): e is string => Boolean(e)) : [];

  return (
    <article aria-labelledby="issue-title" className="min-w-0">
      <Link to={listHref} className="text-sm text-indigo-700 underline xl:hidden dark:text-indigo-300">
        Back to the list
      </Link>
      <p className="font-mono text-sm text-zinc-600 dark:text-zinc-400">{key}</p>
      <h2 id="issue-title" className="text-xl font-semibold break-words">
        {issue.title}
      </h2>

      {refusal.length ? (
        <p role="alert" className="mt-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {refusal.join(" ")}
        </p>
      ) : null}

      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-zinc-600 dark:text-zinc-400">Status</dt>
        <dd>
          {writable ? (
            <QuickChange key={issue.id} name="status" label="Status" intent="status" value={issue.status} version={issue.version} options={statuses.map((s) => ({ value: s, label: statusLabels[s] }))} />
          ) : (
            <StatusBadge status={issue.status} />
          )}
        </dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Priority</dt>
        <dd>
          {writable ? (
            <QuickChange key={issue.id} name="priority" label="Priority" intent="update" value={issue.priority} version={issue.version} options={priorities.map((p) => ({ value: p, label: priorityLabels[p] }))} />
          ) : (
            <PriorityText priority={issue.priority} />
          )}
        </dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Assignee</dt>
        <dd>
          {writable ? (
            <QuickChange
              key={issue.id}
              name="assigneeId"
              label="Assignee"
              intent="update"
              value={issue.assignee_id ? String(issue.assignee_id) : ""}
              version={issue.version}
              options={[{ value: "", label: "Unassigned" }, ...members.map((m) => ({ value: String(m.userId), label: m.name }))]}
            />
          ) : (
            (issue.assigneeName ?? "Unassigned")
          )}
        </dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Labels</dt>
        <dd className="flex flex-wrap gap-1">
          {issue.labels.length ? issue.labels.map((label) => <LabelChip key={label.id} name={label.name} color={label.color} />) : "None"}
        </dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Due date</dt>
        <dd>{issue.due_date ?? "None"}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Reporter</dt>
        <dd>{issue.reporterName ?? "Someone"}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Created</dt>
        <dd>{when(issue.created_at)}</dd>
        <dt className="text-zinc-600 dark:text-zinc-400">Updated</dt>
        <dd>{when(issue.updated_at)}</dd>
        {issue.closed_at ? (
          <>
            <dt className="text-zinc-600 dark:text-zinc-400">Closed</dt>
            <dd>{when(issue.closed_at)}</dd>
          </>
        ) : null}
      </dl>

      <section aria-label="Description" className="prose-issue mt-6 break-words">
        {issue.description ? (
          <div dangerouslySetInnerHTML={{ __html: issue.descriptionHtml }} />
        ) : (
          <p className="text-zinc-600 dark:text-zinc-400">No description.</p>
        )}
      </section>

      {writable ? (
        <details key={issue.id} className="mt-6 rounded border border-zinc-200 p-3 dark:border-zinc-800" open={lastIntent === "update"}>
          <summary className="cursor-pointer font-medium">Edit issue</summary>
          <EditIssue key={edit.key} edit={edit} options={{ members, labels }} />
        </details>
      ) : null}

      <section aria-labelledby="activity-title" className="mt-8">
        <h3 id="activity-title" className="text-lg font-semibold">
          Activity
        </h3>
        <ol className="mt-3 space-y-3">
          {timeline.map((entry) =>
            entry.type === "activity" ? (
              <li key={`a${entry.id}`} className="text-sm text-zinc-700 dark:text-zinc-300">
                <strong>{entry.actorName ?? "Someone"}</strong> {activityText[entry.kind]?.(entry.from, entry.to)}{" "}
                <span className="text-zinc-600 dark:text-zinc-400">· {when(entry.at)}</span>
              </li>
            ) : (
              <li key={`c${entry.id}`} aria-label={`Comment by ${entry.authorName ?? "someone"}`} className="rounded border border-zinc-200 p-3 dark:border-zinc-800">
                {entry.deleted ? (
                  <p className="text-sm text-zinc-600 italic dark:text-zinc-400">Comment deleted</p>
                ) : (
                  <>
                    <p className="text-sm text-zinc-600 dark:text-zinc-400">
                      <strong className="text-zinc-900 dark:text-zinc-100">{entry.authorName ?? "Someone"}</strong> · {when(entry.at)}
                      {entry.edited ? " · edited" : ""}
                    </p>
                    <div className="prose-issue mt-2 break-words" dangerouslySetInnerHTML={{ __html: entry.html }} />
                    {writable && (entry.authorId === meId || canDeleteAny) ? (
                      <div className="mt-2 flex flex-wrap items-start gap-2 text-sm">
                        {entry.authorId === meId ? (
                          <CommentEditForm
                            comment={entry}
                            refused={submitted?.commentId === String(entry.id) ? { errors: commentEditError, body: submitted.body ?? "" } : undefined}
                          />
                        ) : null}
                        <Form method="post">
                          <input type="hidden" name="commentId" value={entry.id} />
                          <SubmitButton name="intent" value="delete-comment" match={{ commentId: entry.id }} variant="secondary">
                            Delete comment
                          </SubmitButton>
                        </Form>
                      </div>
                    ) : null}
                  </>
                )}
              </li>
            ),
          )}
        </ol>
        {writable ? <CommentForm lastResult={lastIntent === "comment" ? actionData : undefined} /> : null}
      </section>
    </article>
  );
}

/** "Edit issue": the fields as the issue is now, with what the person changed and has not saved yet. */
function EditIssue({ edit, options }: { edit: ReturnType<typeof useRecordForm<EditIssueValues>>; options: IssueFormOptions }) {
  const [form, fields] = useRouteForm<EditIssueForm>({ id: edit.key, defaultValue: edit.defaultValue, lastResult: edit.lastResult });
  return (
    <Form method="post" ref={edit.formRef} {...getFormProps(form)} className="mt-4 space-y-4">
      <FormSummary form={form} hiddenFields={["version"]} />
      <input type="hidden" name="version" value={edit.version} />
      <IssueFieldsForm fields={fields} options={options} />
      <SubmitButton name="intent" value="update" pendingText="Saving…">
        Save changes
      </SubmitButton>
    </Form>
  );
}

/** Editing one's own comment; a refused edit reopens with the message and what was typed. */
function CommentEditForm({ comment, refused }: { comment: { id: number; body: string }; refused?: { errors: string[]; body: string } }) {
  const errorId = `comment-${comment.id}-error`;
  return (
    <details open={refused !== undefined}>
      <summary className="cursor-pointer text-indigo-700 dark:text-indigo-300">Edit comment</summary>
      <Form method="post" className="mt-2 space-y-2">
        <input type="hidden" name="commentId" value={comment.id} />
        <label className="block">
          <span className="sr-only">Comment</span>
          <textarea
            name="body"
            defaultValue={refused?.body ?? comment.body}
            rows={3}
            aria-invalid={refused?.errors.length ? true : undefined}
            aria-describedby={refused?.errors.length ? errorId : undefined}
            className="block w-full rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
        {refused?.errors.length ? (
          <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
            {refused.errors.join(" ")}
          </p>
        ) : null}
        <SubmitButton name="intent" value="edit-comment" match={{ commentId: comment.id }} variant="secondary">
          Save comment
        </SubmitButton>
      </Form>
    </details>
  );
}

function CommentForm({ lastResult }: { lastResult: Parameters<typeof useRouteForm>[0]["lastResult"] }) {
  const [form, fields] = useRouteForm<{ body: string }>({ id: "comment", lastResult });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 space-y-2">
      <label htmlFor={fields.body.id} className="block text-sm font-medium">
        Comment
      </label>
      <textarea
        id={fields.body.id}
        name={fields.body.name}
        key={fields.body.key}
        defaultValue={fields.body.initialValue}
        aria-invalid={fields.body.errors ? true : undefined}
        aria-describedby={fields.body.errors ? fields.body.errorId : undefined}
        rows={4}
        className="block w-full rounded border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
      />
      {fields.body.errors ? (
        <p id={fields.body.errorId} className="text-sm text-red-700 dark:text-red-400">
          {fields.body.errors.join(" ")}
        </p>
      ) : null}
      <SubmitButton name="intent" value="comment" pendingText="Commenting…">
        Add comment
      </SubmitButton>
    </Form>
  );
}

/**
 * Changes one field (status, priority, assignee) from the detail screen. With JavaScript it applies
 * at once and is rolled back — the loader's value shows again, with the server's message — if the
 * save is refused; without, the button submits it.
 */
function QuickChange({
  name,
  label,
  intent,
  value,
  version,
  options,
}: {
  name: "status" | "priority" | "assigneeId";
  label: string;
  intent: "status" | "update";
  value: string;
  version: number;
  options: { value: string; label: string }[];
}) {
  const fetcher = useFetcher<{ error?: Record<string, string[] | null> }>();
  const shown = (fetcher.formData?.get(name) as string | undefined) ?? value;
  const refusal = Object.values(fetcher.data?.error ?? {}).flat().filter(Boolean).join(" ");
  return (
    <fetcher.Form method="post" className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="intent" value={intent} />
      <select
        name={name}
        aria-label={label}
        value={shown}
        onChange={(event) => fetcher.submit(event.currentTarget.form)}
        className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <NoScriptSubmit className="rounded border border-zinc-300 px-2 py-1 text-xs dark:border-zinc-700">Set {label.toLowerCase()}</NoScriptSubmit>
      {refusal ? (
        <span role="alert" className="text-red-700 dark:text-red-400">
          {refusal}
        </span>
      ) : null}
    </fetcher.Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
