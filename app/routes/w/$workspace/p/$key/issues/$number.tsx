import { getFormProps } from "@conform-to/react";
import { ArrowLeft, CirclePlus, MessageSquareX, Pencil, type LucideIcon, Tag, CalendarDays, UserRound, CircleDot, SignalHigh, FileText, Link2, ListTree, Paperclip } from "~/components/icons/icon";
import { useEffect, useRef, useState } from "react";
import { type ShouldRevalidateFunction, data, Form, Link, redirect, useFetcher, useLocation, useNavigation, useParams } from "react-router";
import { type AttachmentItem, attachmentIdsIn, attachmentPath, isPreviewable, isTooLargeToPreview } from "~/attachments/attachments";
import { attachFiles, claimAttachments, deleteAttachment } from "~/attachments/attachments.server";
import { receiveUploads } from "~/attachments/upload-receiver.server";
import { admitToProject, admitToWorkspace, requireProject } from "~/auth/authorization.server";
import { addComment, deleteComment, editComment } from "~/comments/comments.server";
import { pageTitle, secondaryButtonClass } from "~/components/app-shell";
import { AttachmentsSection, CommentFiles, FileDropZone, FileField } from "~/components/attachments";
import { Avatar } from "~/components/avatar";
import { ConfirmAction } from "~/components/confirm";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { SubmitButton } from "~/components/forms";
import { type EditIssueValues, IssueEditor } from "~/components/issue-editor";
import { IssueProperties, type Property } from "~/components/issue-properties";
import { ParentLine, ParentProperty, RelationsProperty, SubIssues } from "~/components/issue-links";
import { unwatchIssue, watchIssue } from "~/issues/watching.server";
import { RelativeTime } from "~/components/time";
import { parseForm } from "~/forms/parse-form.server";
import { withTemporaryFiles } from "~/forms/temporary-files.server";
import { flashHeader } from "~/flash/flash.server";
import { useRecordForm } from "~/forms/use-record-form";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import { issueActionSchema } from "~/issues/forms.server";
import { issueKey } from "~/issues/issue-fields";
import { conflictMessage, findIssue, findIssueDetail, parseIssueNumber, updateIssue } from "~/issues/issues.server";
import { addRelation, removeRelation, setParent } from "~/issues/issue-links.server";
import { renderMarkdown } from "~/issues/markdown.server";
import { markdownOptions, previewDescription } from "~/issues/markdown-options.server";
import { issuePath } from "~/issues/references";
import { describeChanges, groupTimeline, issueKeysOf, namedChange } from "~/issues/timeline";
import { markIssueRead } from "~/notifications/notifications.server";
import { MentionSuggestions } from "~/components/mention-suggestions";
import type { MentionCandidate } from "~/components/mention-query";
import { listLabels } from "~/labels/labels.server";
import { listMembers } from "~/workspaces/members.server";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/$number";

/** The issue of an action, for anyone who may see it: what they may do with it depends on the form. */
async function loadIssue(args: Route.ActionArgs) {
  const access = await requireProject(args, "workspace:read");
  const number = parseIssueNumber(args.params.number);
  const issue = number ? await findIssue(args.context.get(appContext).db, access.project.id, number) : undefined;
  if (!issue)
    throw data(`Issue ${access.project.key}-${args.params.number} not found.`, {
      status: 404,
    });
  return { ...access, issue };
}

/**
 * An activity line as the page shows it: who, what (one sentence), the icon of its first change,
 * when; the dates and the issue keys (`links`) in its sentence are marked up as such.
 */
export type ActivityItem = { type: "changes"; id: number; who: string | null; kind: string; text: string; dates?: string[]; links?: { text: string; href: string }[]; at: string };
/** A comment as the page shows it; its Markdown source only where it can be edited (one's own). */
export type CommentItem = {
  type: "comment";
  id: number;
  at: string;
  authorId: number | null;
  authorName: string | null;
  html: string;
  body?: string;
  edited: boolean;
  deleted: boolean;
  /** Files sent with it that its text does not show (chosen in the form rather than dropped into the text). */
  files?: AttachmentItem[];
};


/**
 * The issue, its timeline, and the members and labels its menus offer. One query of its own: the
 * session, the workspace (with its projects, members and labels) and the project come from the
 * request's shared lookups.
 */
export async function loader(args: Route.LoaderArgs) {
  const { user, workspace, project } = await requireProject(args, "workspace:read");
  const { db, config } = args.context.get(appContext);
  const number = parseIssueNumber(args.params.number);
  const [found, members, labels] = await Promise.all([
    number ? findIssueDetail(db, project.id, number, user.id) : undefined,
    listMembers(db, workspace.id),
    listLabels(db, workspace.id),
  ]);
  if (!found) throw data(`Issue ${project.key}-${args.params.number} not found.`, { status: 404 });
  const { issue, timeline, links, attachments, watching, unread } = found;
  // Opening the issue reads its notification.
  if (unread) await markIssueRead(db, { userId: user.id, issueId: issue.id, now: new Date() });
  const texts = [issue.description, ...timeline.flatMap((entry) => (entry.type === "comment" && !entry.deleted ? [entry.body] : []))];
  const markdown = await markdownOptions(db, workspace, project.key, members, texts, attachments);
  const writable = can(workspace.role, "issues:write") && !project.archived_at;
  const canDeleteAnyFile = can(workspace.role, "attachments:delete-any");
  const files = attachments.map(
    (file): AttachmentItem => ({
      id: file.id,
      filename: file.filename,
      url: attachmentPath(workspace.slug, file.id, file.filename),
      size: file.size,
      image: isPreviewable(file),
      tooLargeToPreview: isTooLargeToPreview(file),
      // Only an image shown has its size in the page.
      width: isPreviewable(file) ? file.width : null,
      height: isPreviewable(file) ? file.height : null,
      uploaderName: file.uploaderName,
      createdAt: file.createdAt,
      deletable: writable && (file.uploaderId === user.id || canDeleteAnyFile),
    }),
  );
  const labelNames = new Map(labels.map((label) => [label.id, label.name]));
  const named = timeline.map((entry) => (entry.type === "activity" ? namedChange(entry, labelNames) : entry));
  const items = groupTimeline(named).map((item): ActivityItem | CommentItem => {
    if (item.type === "changes") {
      const dates = item.changes.filter((c) => c.kind === "due_date" && c.to).map((c) => c.to!);
      const keys = [...new Set(item.changes.flatMap(issueKeysOf))];
      return {
        type: "changes",
        id: item.id,
        who: item.actorName,
        kind: item.changes[0]!.kind,
        text: describeChanges(item.changes),
        ...(dates.length ? { dates } : {}),
        ...(keys.length ? { links: keys.map((key) => ({ text: key, href: issuePath(workspace.slug, key) })) } : {}),
        at: item.changes.at(-1)!.at,
      };
    }
    const { body, ...comment } = item;
    const shown = new Set(attachmentIdsIn(body, workspace.slug));
    const sent = comment.deleted ? [] : files.filter((file) => attachments.find((a) => a.id === file.id)!.commentId === comment.id && !shown.has(file.id));
    return {
      ...comment,
      html: comment.deleted ? "" : renderMarkdown(body, markdown),
      ...(sent.length ? { files: sent } : {}),
      ...(writable && comment.authorId === user.id && !comment.deleted ? { body } : {}),
    };
  });
  return {
    issue: {
      id: issue.id,
      title: issue.title,
      description: writable ? issue.description : "",
      descriptionHtml: issue.description ? renderMarkdown(issue.description, markdown) : "",
      version: issue.version,
      status: issue.status,
      priority: issue.priority,
      assignee: issue.assignee_id ? { id: issue.assignee_id, name: issue.assigneeName ?? "Someone" } : null,
      labels: issue.labels,
      dueDate: issue.due_date,
      reporter: issue.reporter_id ? { id: issue.reporter_id, name: issue.reporterName ?? "Someone" } : null,
      createdAt: issue.created_at,
      updatedAt: issue.updated_at,
      closedAt: issue.closed_at,
    },
    key: issueKey(project.key, issue.number),
    links,
    attachments: files,
    attachmentMaxBytes: config.attachments.maxBytes,
    timeline: items,
    members: writable ? members.filter((m) => m.role !== "viewer").map((m) => ({ id: m.userId, name: m.name })) : [],
    labels: writable ? labels.map(({ id, name, color }) => ({ id, name, color })) : [],
    // Whom `@` offers while writing: everyone who can see the workspace.
    mentionable: writable ? members.map((m) => ({ handle: m.handle, name: m.name })) : [],
    meId: user.id,
    watching,
    writable,
    canDeleteAny: writable && can(workspace.role, "comments:delete-any"),
  };
}

/** Parameters that only open something on the page (the editor, a confirmation): an answer leaves them. */
const transientParams = ["edit", "confirm"];

/** Files sent with a comment or attached are received into temporary files, removed once the form is answered. */
export const middleware: Route.MiddlewareFunction[] = [withTemporaryFiles];

export async function action(args: Route.ActionArgs) {
  const services = args.context.get(appContext);
  const { db, config } = services;
  const { mail } = config;
  // Who may see the issue is known before its form is read: a form with files is large.
  const { user, workspace, project, issue } = await loadIssue(args);
  const uploads = receiveUploads(args.context, workspace.id);
  const submission = await parseForm(args.request, issueActionSchema, { keepEmptyValues: true, files: uploads });
  // Watching is for anyone who can see the issue (viewers, archived projects); the rest is writing.
  const watchIntent = submission.status === "success" && (submission.value.intent === "watch" || submission.value.intent === "unwatch");
  if (!watchIntent) {
    admitToWorkspace(workspace, "issues:write");
    admitToProject(project, project.key, "issues:write");
  }
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const form = submission.value;
  const now = new Date();
  // args.url, not request.url: with JavaScript the request is for the `.data` URL.
  const params = new URLSearchParams(args.url.search);
  for (const name of transientParams) params.delete(name);
  const backTo = `${args.url.pathname}${params.size ? `?${params}` : ""}`;
  const back = redirect(backTo);
  const claim = (text: string, commentId?: number) =>
    claimAttachments(db, { project, issueId: issue.id, commentId, uploaderId: user.id, ids: attachmentIdsIn(text, workspace.slug), now, mail });

  if (form.intent === "watch" || form.intent === "unwatch") {
    const watch = { project, issueId: issue.id, userId: user.id, now };
    await (form.intent === "watch" ? watchIssue(db, watch) : unwatchIssue(db, watch));
    return back;
  }
  if (form.intent === "preview" || form.intent === "write") {
    if (form.intent === "write") return submission.reply();
    return { ...submission.reply(), previewHtml: await previewDescription(db, workspace, project.key, form.description) };
  }
  if (form.intent === "set-parent" || form.intent === "add-relation" || form.intent === "remove-relation") {
    const change = { project, issueId: issue.id, actorId: user.id, now, mail };
    const linked =
      form.intent === "set-parent"
        ? await setParent(db, { ...change, parentKey: form.parent })
        : form.intent === "add-relation"
          ? await addRelation(db, { ...change, type: form.type, targetKey: form.target })
          : await removeRelation(db, { ...change, relationId: form.relationId });
    // A key nobody here can see is 404 at its field, as one that names no issue: nothing is revealed.
    if ("field" in linked) return data(submission.reply({ fieldErrors: { [linked.field]: [linked.message] } }), { status: linked.status });
    if (!linked.ok) throw data(linked.message, { status: linked.status });
    return back;
  }
  if (form.intent === "attach") {
    const refused = uploads.refused;
    if (refused) return data(submission.reply({ fieldErrors: { file: [refused.message] } }), { status: refused.status });
    const attached = await attachFiles(services, { project, issueId: issue.id, uploaderId: user.id, files: form.file, limits: config.attachments, now, mail });
    if (!attached.ok && attached.status === 404) throw data(attached.message, { status: 404 });
    if (!attached.ok) return data(submission.reply({ fieldErrors: { file: [attached.message] } }), { status: attached.status });
    return back;
  }
  if (form.intent === "delete-attachment") {
    const canDeleteAny = can(workspace.role, "attachments:delete-any");
    const removed = await deleteAttachment(db, { project, issueId: issue.id, attachmentId: form.attachmentId, actorId: user.id, canDeleteAny, now, mail });
    if (!removed.ok) throw data(removed.message, { status: removed.status });
    return back;
  }
  if (form.intent === "comment") {
    // The files were checked as they arrived, before the comment is written: a refusal loses nothing.
    const refused = uploads.refused;
    if (refused) return data(submission.reply({ fieldErrors: { file: [refused.message] } }), { status: refused.status });
    const added = await addComment(db, { project, issueId: issue.id, authorId: user.id, body: form.body, now, mail });
    if (!added.ok) throw data(added.message, { status: added.status });
    await claim(form.body, added.commentId);
    if (form.file.length) {
      const attached = await attachFiles(services, { project, issueId: issue.id, commentId: added.commentId, uploaderId: user.id, files: form.file, limits: config.attachments, now, mail });
      // Only another upload filling the workspace in between can refuse them now: the comment stands, and says so.
      if (!attached.ok) {
        const flash = { text: `The comment was added, but its files were not attached: ${attached.message}` };
        return redirect(backTo, { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
      }
    }
    return back;
  }
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
    const saved = await updateIssue(db, {
      project,
      issueId: issue.id,
      actorId: user.id,
      version: form.version,
      changes,
      now,
      mail,
    });
    if ("conflict" in saved)
      return data(submission.reply({ formErrors: [conflictMessage(saved)] }), {
        status: 409,
      });
    if ("field" in saved) return data(submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }), { status: 400 });
    if (!saved.ok) throw data(saved.message, { status: saved.status });
    if (form.intent === "update" && form.description !== undefined) await claim(form.description);
    return back;
  }
  const changed =
    form.intent === "edit-comment"
      ? await editComment(db, {
          project,
          issueId: issue.id,
          commentId: form.commentId,
          actorId: user.id,
          body: form.body,
          now,
          mail,
        })
      : await deleteComment(db, {
          project,
          issueId: issue.id,
          commentId: form.commentId,
          actorId: user.id,
          canDeleteAny: can(workspace.role, "comments:delete-any"),
          now,
        });
  if (!changed.ok) throw data(changed.message, { status: changed.status });
  if (form.intent === "edit-comment") await claim(form.body, form.commentId);
  return back;
}

/**
 * After a conflict the page shows what the other person saved, and the version to save over it. A
 * preview changes nothing, so nothing is reloaded for it.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, formData, defaultShouldRevalidate }) => {
  const intent = formData?.get("intent");
  if (intent === "preview" || intent === "write") return false;
  return actionStatus === 409 || defaultShouldRevalidate;
};

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle(loaderData ? `${loaderData.key} ${loaderData.issue.title}` : "Issue not found");

type Submitted = {
  intent?: string;
  parent?: string;
  type?: string;
  target?: string;
  commentId?: string;
  body?: string;
  title?: string;
  description?: string;
} & Partial<Record<Property, unknown>>;
type ActionData =
  | {
      initialValue?: Record<string, unknown> | null;
      error?: Record<string, string[] | null> | null;
      previewHtml?: string;
    }
  | undefined;

/** Whether a submission came from the title and description form (rather than a property menu). */
const fromEditor = (submitted: Submitted | undefined) =>
  submitted?.intent === "preview" ||
  submitted?.intent === "write" ||
  (submitted?.intent === "update" && (submitted.title !== undefined || submitted.description !== undefined));

const menuProperties: Property[] = ["priority", "assigneeId", "labelIds", "dueDate"];

/** Which property menu a refused submission came from, so that its message shows there (without JavaScript). */
function refusedProperty(submitted: Submitted | undefined): Property | undefined {
  if (!submitted || fromEditor(submitted)) return undefined;
  if (submitted.intent === "status") return "status";
  if (submitted.intent === "update") return menuProperties.find((p) => submitted[p] !== undefined);
  return undefined;
}

export default function IssueDetail(props: Route.ComponentProps) {
  // Another issue is another page: nothing open or typed carries over.
  return <IssuePage key={props.loaderData.issue.id} {...props} />;
}

function IssuePage({ loaderData, actionData }: Route.ComponentProps) {
  const { issue, key, links, timeline, members, labels, meId, writable, canDeleteAny, watching, attachments, attachmentMaxBytes } = loaderData;
  const params = useParams();
  const workspaceSlug = params.workspace ?? "";
  // Where a file dropped or pasted into the description or a comment goes (with JavaScript).
  const uploads = { uploadUrl: `/w/${encodeURIComponent(workspaceSlug)}/attachments`, maxBytes: attachmentMaxBytes };
  const location = useLocation();
  const result = actionData as ActionData;
  const submitted = (result?.initialValue ?? undefined) as Submitted | undefined;
  const lastIntent = submitted?.intent;
  const editorSubmitted = fromEditor(submitted);
  const [editing, setEditing] = useState(() => writable && (new URLSearchParams(location.search).has("edit") || editorSubmitted));
  useCloseAfterSave(editing, result, () => setEditing(false));

  const edit = useRecordForm<EditIssueValues>(
    "edit-issue",
    {
      id: issue.id,
      version: issue.version,
      values: { title: issue.title, description: issue.description },
    },
    editorSubmitted ? actionData : undefined,
  );

  const messages = Object.values(result?.error ?? {})
    .flat()
    .filter((e): e is string => Boolean(e));
  const property = refusedProperty(submitted);
  // Parent and relations show their refusals at their properties.
  const linkIntent = lastIntent === "set-parent" || lastIntent === "add-relation" || lastIntent === "remove-relation";
  // Refusals with no place of their own (a property form without JavaScript has its place: the property).
  const ownPlace = linkIntent || lastIntent === "comment" || lastIntent === "edit-comment" || lastIntent === "attach";
  const refusal = !editorSubmitted && !property && !ownPlace ? messages : [];
  const commentEditError = lastIntent === "edit-comment" ? messages : [];

  const search = new URLSearchParams(location.search);
  for (const name of transientParams) search.delete(name);
  const here = `${location.pathname}${search.size ? `?${search}` : ""}`;
  search.set("edit", "issue");
  const editHref = `${location.pathname}?${search}`;
  search.delete("edit");
  const listHref = `${location.pathname.replace(/\/\d+$/, "")}${search.size ? `?${search}` : ""}`;

  return (
    <article aria-labelledby="issue-title" className="@container min-w-0 px-4 pt-3 pb-6 md:px-6">
      <div className="flex min-h-6 items-center gap-3 text-[13px]">
        <Link to={listHref} className="quiet-link inline-flex items-center gap-1 xl:hidden">
          <ArrowLeft size={14} aria-hidden="true" /> Back to the list
        </Link>
        <span className="muted font-mono">{key}</span>
      </div>
      {links.parent ? <ParentLine parent={links.parent} workspaceSlug={workspaceSlug} /> : null}

      {refusal.length ? (
        <p role="alert" className="alert mt-3">
          {refusal.join(" ")}
        </p>
      ) : null}

      {/* Narrow: title, properties, description and activity; from 672 px of article: the properties at the right. */}
      <div className="mt-1 grid gap-x-8 gap-y-5 @2xl:grid-cols-[minmax(0,1fr)_280px] @2xl:grid-rows-[auto_1fr]">
        <div className="min-w-0 @2xl:col-start-1 @2xl:row-start-1">
          <div className="flex items-start gap-3">
            <h2 id="issue-title" className={editing ? "sr-only" : "min-w-0 flex-1 text-xl leading-tight font-semibold break-words md:text-2xl"}>
              {issue.title}
            </h2>
            {writable && !editing ? (
              <Link
                to={editHref}
                preventScrollReset
                className="edit-btn"
                onClick={(event) => {
                  event.preventDefault();
                  setEditing(true);
                }}
              >
                <Pencil size={14} aria-hidden="true" /> Edit
                <span className="sr-only"> issue</span>
              </Link>
            ) : null}
          </div>
          {editing ? (
            <div className="mt-2">
              <IssueEditor
                key={edit.key}
                edit={edit}
                uploads={uploads}
                mentionable={loaderData.mentionable}
                serverPreview={lastIntent === "preview" ? result?.previewHtml : undefined}
                cancelHref={here}
                onCancel={() => setEditing(false)}
              />
            </div>
          ) : null}
        </div>

        <aside aria-label="Properties" className="props-panel">
          <IssueProperties
            issue={issue}
            members={members}
            labels={labels}
            writable={writable}
            refusals={property ? { [property]: messages.join(" ") } : {}}
          >
            <ParentProperty
              issueId={issue.id}
              parent={links.parent}
              writable={writable}
              refusal={lastIntent === "set-parent" ? messages.join(" ") : undefined}
              typed={lastIntent === "set-parent" ? submitted?.parent : undefined}
            />
            <RelationsProperty
              issueId={issue.id}
              relations={links.relations}
              workspaceSlug={workspaceSlug}
              writable={writable}
              refusal={lastIntent === "add-relation" || lastIntent === "remove-relation" ? messages.join(" ") : undefined}
              typed={lastIntent === "add-relation" ? { type: submitted?.type, target: submitted?.target } : undefined}
            />
          </IssueProperties>
          <WatchToggle watching={watching} />
        </aside>

        <div className="min-w-0 @2xl:col-start-1 @2xl:row-start-2">
          {editing ? null : (
            <section aria-label="Description" className="mb-6 text-sm break-words">
              {issue.descriptionHtml ? (
                <div className="prose-issue" dangerouslySetInnerHTML={{ __html: issue.descriptionHtml }} />
              ) : (
                <p className="muted">No description.</p>
              )}
            </section>
          )}
          <AttachmentsSection
            attachments={attachments}
            writable={writable}
            maxBytes={attachmentMaxBytes}
            refusal={lastIntent === "attach" ? result?.error?.file : undefined}
          />
          <SubIssues
            subIssues={links.subIssues}
            progress={links.progress}
            workspaceSlug={workspaceSlug}
            addHref={writable ? `${location.pathname.replace(/\/\d+$/, "")}/new?parent=${key}` : undefined}
            listHref={`${location.pathname.replace(/\/\d+$/, "")}?parent=${key}`}
          />
          <section aria-labelledby="activity-title" className="border-t border-zinc-200 pt-4 dark:border-zinc-800">
            <h3 id="activity-title" className="text-sm font-semibold">
              Activity
            </h3>
            <ol className="mt-3 space-y-3">
              {timeline.map((item) =>
                item.type === "changes" ? (
                  <ActivityLine key={`a${item.id}`} item={item} />
                ) : (
                  <li key={`c${item.id}`} aria-label={`Comment by ${item.authorName ?? "someone"}`} className="comment">
                    {item.deleted ? (
                      <p className="muted px-3 py-2 text-[13px] italic">Comment deleted</p>
                    ) : (
                      <>
                        <div className="comment-head">
                          <Avatar
                            user={
                              item.authorId
                                ? {
                                    id: item.authorId,
                                    name: item.authorName ?? "Someone",
                                  }
                                : null
                            }
                            decorative
                          />
                          <span className="who">{item.authorName ?? "Someone"}</span>
                          <span aria-hidden="true">·</span>
                          <RelativeTime at={item.at} />
                          {item.edited ? <span>· edited</span> : null}
                        </div>
                        <div className="prose-issue comment-body" dangerouslySetInnerHTML={{ __html: item.html }} />
                        {item.files ? <CommentFiles files={item.files} /> : null}
                        {writable && (item.authorId === meId || canDeleteAny) ? (
                          <div className="comment-actions">
                            {item.authorId === meId ? (
                              <CommentEditForm
                                comment={item}
                                refused={
                                  submitted?.commentId === String(item.id)
                                    ? {
                                        errors: commentEditError,
                                        body: submitted.body ?? "",
                                      }
                                    : undefined
                                }
                              />
                            ) : null}
                            <ConfirmAction
                              name={`delete-comment-${item.id}`}
                              label={
                                <>
                                  Delete
                                  <span className="sr-only"> comment</span>
                                </>
                              }
                              title="Delete this comment?"
                              message="The comment is removed for everyone; the timeline keeps a “Comment deleted” mark."
                              triggerClassName="danger-link"
                            >
                              <Form method="post">
                                <input type="hidden" name="commentId" value={item.id} />
                                <SubmitButton name="intent" value="delete-comment" match={{ commentId: item.id }} variant="danger">
                                  Delete comment
                                </SubmitButton>
                              </Form>
                            </ConfirmAction>
                          </div>
                        ) : null}
                      </>
                    )}
                  </li>
                ),
              )}
            </ol>
            {writable ? (
              <CommentForm mentionable={loaderData.mentionable} uploads={uploads} lastResult={lastIntent === "comment" ? actionData : undefined} />
            ) : null}
          </section>
        </div>
      </div>
    </article>
  );
}

/** With JavaScript the editor closes once its own save went through (the action redirected: no result). */
function useCloseAfterSave(editing: boolean, result: ActionData, close: () => void) {
  const navigation = useNavigation();
  const intent = navigation.formData?.get("intent");
  const saving = navigation.state === "submitting" && intent === "update" && navigation.formData?.has("title") === true;
  const wasSaving = useRef(false);
  useEffect(() => {
    if (saving) wasSaving.current = true;
    else if (wasSaving.current && navigation.state === "idle") {
      wasSaving.current = false;
      if (editing && !result) close();
    }
  }, [saving, navigation.state, editing, result, close]);
}

const activityIcons: Record<string, LucideIcon> = {
  created: CirclePlus,
  title: Pencil,
  description: FileText,
  status: CircleDot,
  priority: SignalHigh,
  assignee: UserRound,
  labels: Tag,
  due_date: CalendarDays,
  comment_deleted: MessageSquareX,
  parent: ListTree,
  sub_issue: ListTree,
  relation: Link2,
  referenced: Link2,
  attachment: Paperclip,
};

/** A line of changes: small and muted, with an icon for the first of them; dates in it are `<time>`s, issue keys links. */
function ActivityLine({ item }: { item: ActivityItem }) {
  const Icon = activityIcons[item.kind] ?? CircleDot;
  const dates = item.dates ?? [];
  const links = new Map((item.links ?? []).map((link) => [link.text, link.href]));
  const marked = [...dates, ...links.keys()];
  const pieces = marked.length ? item.text.split(new RegExp(`(${marked.join("|")})(?!\\d)`)) : [item.text];
  return (
    <li className="activity">
      <Icon size={14} aria-hidden="true" className="mt-0.5 shrink-0" />
      <p className="min-w-0 break-words">
        <span className="who">{item.who ?? "Someone"}</span>{" "}
        {pieces.map((piece, i) =>
          dates.includes(piece) ? (
            <time key={i} dateTime={piece}>
              {piece}
            </time>
          ) : links.has(piece) ? (
            <Link key={i} to={links.get(piece)!} className="quiet-link font-medium">
              {piece}
            </Link>
          ) : (
            piece
          ),
        )}{" "}
        <span aria-hidden="true">·</span> <RelativeTime at={item.at} />
      </p>
    </li>
  );
}

/** Editing one's own comment; a refused edit reopens with the message and what was typed. */
function CommentEditForm({ comment, refused }: { comment: { id: number; body?: string }; refused?: { errors: string[]; body: string } }) {
  const errorId = `comment-${comment.id}-error`;
  return (
    <details open={refused !== undefined} className="min-w-0 flex-1 open:basis-full">
      <summary className="quiet-link cursor-pointer">Edit comment</summary>
      <Form method="post" className="mt-2 space-y-2">
        <input type="hidden" name="commentId" value={comment.id} />
        <label className="block">
          <span className="sr-only">Comment</span>
          <textarea
            name="body"
            defaultValue={refused?.body ?? comment.body ?? ""}
            rows={3}
            aria-invalid={refused?.errors.length ? true : undefined}
            aria-describedby={refused?.errors.length ? errorId : undefined}
            className="block w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
        {refused?.errors.length ? (
          <p id={errorId} className="field-error">
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

function CommentForm({
  lastResult,
  mentionable,
  uploads,
}: {
  lastResult: Parameters<typeof useRouteForm>[0]["lastResult"];
  mentionable: MentionCandidate[];
  uploads: { uploadUrl: string; maxBytes: number };
}) {
  const [form, fields] = useRouteForm<{ body: string; file: unknown }>({
    id: "comment",
    lastResult,
  });
  const textarea = useRef<HTMLTextAreaElement>(null);
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-4 space-y-2">
      <label htmlFor={fields.body.id} className="sr-only">
        Comment
      </label>
      <FileDropZone {...uploads}>
        <div className="relative">
          <textarea
            id={fields.body.id}
            name={fields.body.name}
            key={fields.body.key}
            ref={textarea}
            defaultValue={fields.body.initialValue}
            placeholder="Leave a comment… (@ mentions someone)"
            aria-invalid={fields.body.errors ? true : undefined}
            aria-describedby={fields.body.errors ? fields.body.errorId : undefined}
            rows={3}
            className="textarea"
          />
          <MentionSuggestions textarea={textarea} members={mentionable} />
        </div>
      </FileDropZone>
      {fields.body.errors ? (
        <p id={fields.body.errorId} className="field-error">
          {fields.body.errors.join(" ")}
        </p>
      ) : null}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <FileField id="comment-files" label="Attach files" maxBytes={uploads.maxBytes} errors={fields.file.errors} />
        <SubmitButton name="intent" value="comment" pendingText="Commenting…">
          Add comment
        </SubmitButton>
      </div>
    </Form>
  );
}

/**
 * Watch / Unwatch (intent=watch|unwatch): a form of its own, so that it works without JavaScript;
 * with it, the button shows the new state while the change is on its way.
 */
function WatchToggle({ watching }: { watching: boolean }) {
  const fetcher = useFetcher({ key: "watch" });
  const pending = fetcher.formData?.get("intent");
  const on = pending === undefined || pending === null ? watching : pending === "watch";
  return (
    <fetcher.Form method="post" className="mt-4 space-y-1 text-xs">
      <button type="submit" name="intent" value={on ? "unwatch" : "watch"} className={secondaryButtonClass}>
        {on ? "Unwatch" : "Watch"}
      </button>
      <p className="muted">{on ? "You hear of its comments, status changes and assignment." : "You hear nothing of it unless you are mentioned or assigned."}</p>
    </fetcher.Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
