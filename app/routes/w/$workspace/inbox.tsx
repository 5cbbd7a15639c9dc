import { data, Link, redirect, useFetcher } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { ContentHeader, pageTitle, secondaryButtonClass } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Inbox as InboxIcon, Unplug } from "~/components/icons/icon";
import { StatusIcon } from "~/components/icons/status-icon";
import { Pager } from "~/components/pager";
import { RelativeTime } from "~/components/time";
import { appContext } from "~/context/app-context.server";
import { parsePositiveInteger } from "~/forms/fields.server";
import { parseForm } from "~/forms/parse-form.server";
import { issueKey } from "~/issues/issue-fields";
import { inboxSchema } from "~/notifications/forms.server";
import { type InboxRow, listInbox, markAllRead, markNotification } from "~/notifications/notifications.server";
import { reasonPhrases } from "~/notifications/reasons";
import type { Route } from "./+types/inbox";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace } = await requireWorkspace(args);
  const { db } = args.context.get(appContext);
  const page = parsePositiveInteger(args.url.searchParams.get("page")) ?? 1;
  return { workspaceName: workspace.name, ...(await listInbox(db, { userId: user.id, workspaceId: workspace.id, page })) };
}

/** intent=read|unread with notificationId, or intent=read-all; then back to the same page of the inbox. */
export async function action(args: Route.ActionArgs) {
  const { user, workspace } = await requireWorkspace(args);
  const { db } = args.context.get(appContext);
  const submission = await parseForm(args.request, inboxSchema);
  if (submission.status !== "success") throw data("That request was not valid.", { status: 400 });
  const form = submission.value;
  const now = new Date();
  if (form.intent === "read-all") {
    await markAllRead(db, { userId: user.id, workspaceId: workspace.id, now });
  } else {
    const marked = await markNotification(db, { userId: user.id, workspaceId: workspace.id, notificationId: form.notificationId, read: form.intent === "read", now });
    if (!marked) throw data("Notification not found.", { status: 404 });
  }
  // args.url, not request.url: with JavaScript the request is for the `.data` URL.
  return redirect(`${args.url.pathname}${args.url.search}`);
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("Inbox", loaderData?.workspaceName);

/**
 * The inbox (docs/product.md, Screens): one row per issue, its latest reason, who and when, unread
 * ones marked; opening an issue reads it. Every button is a form, so it works without JavaScript;
 * with it, a row shows its new state at once.
 */
export default function Inbox({ loaderData, params }: Route.ComponentProps) {
  const { rows, total, page, pageCount } = loaderData;
  const markAll = useFetcher({ key: "inbox-read-all" });
  const allRead = markAll.state !== "idle";
  const unread = allRead ? 0 : rows.filter((row) => !row.read).length;
  return (
    <>
      <ContentHeader title="Inbox">
        {rows.length ? (
          <markAll.Form method="post" className="ml-auto">
            <button type="submit" name="intent" value="read-all" className={secondaryButtonClass} disabled={unread === 0 && page === 1}>
              Mark all as read
            </button>
          </markAll.Form>
        ) : null}
      </ContentHeader>
      {total === 0 ? (
        <div className="mx-4 mt-6 rounded-md border border-dashed border-zinc-300 px-4 py-8 text-center md:mx-6 dark:border-zinc-700">
          <InboxIcon size={20} aria-hidden="true" className="mx-auto text-zinc-500" />
          <p className="mt-2 text-zinc-700 dark:text-zinc-300">Nothing here yet.</p>
          <p className="mt-1 text-zinc-600 dark:text-zinc-400">
            You hear here when someone assigns you an issue or mentions you, and of comments and status changes on issues you watch.
          </p>
        </div>
      ) : (
        <ul aria-label="Notifications" className="pb-6">
          {rows.map((row) => (
            <InboxItem key={row.id} row={row} slug={params.workspace} markedRead={allRead} />
          ))}
        </ul>
      )}
      <Pager page={page} pageCount={pageCount} href={(n) => (n > 1 ? `?page=${n}` : "?")} />
    </>
  );
}

function InboxItem({ row, slug, markedRead }: { row: InboxRow; slug: string; markedRead: boolean }) {
  const fetcher = useFetcher({ key: `inbox-${row.id}` });
  const pending = fetcher.formData?.get("intent");
  const read = markedRead || (pending ? pending === "read" : row.read);
  const key = row.issue ? issueKey(row.issue.projectKey, row.issue.number) : "webhook notice";
  return (
    <li className="inbox-row" data-unread={read ? undefined : ""}>
      <span aria-hidden="true" className="inbox-dot" />
      {row.issue ? (
        <>
          <StatusIcon status={row.issue.status} />
          <Link to={`/w/${slug}/p/${row.issue.projectKey}/issues/${row.issue.number}`} className="min-w-0 flex-1">
            <span className="line-clamp-2">
              <span className="inbox-key">{key}</span>
              <span className={read ? "" : "font-semibold"}>{row.issue.title}</span>
              {read ? null : <span className="sr-only"> (unread)</span>}
            </span>
            <span className="block truncate text-[13px] text-zinc-600 dark:text-zinc-400">
              {row.actorName ?? "Someone"} {reasonPhrases[row.reason]} <span aria-hidden="true">·</span> <RelativeTime at={row.at} />
            </span>
          </Link>
        </>
      ) : (
        <>
          <Unplug size={14} aria-hidden="true" className="shrink-0 text-zinc-500" />
          {/* A webhook Cairn turned off: its creator is told, and led to the webhooks page. */}
          <Link to={`/w/${slug}/settings/webhooks`} className="min-w-0 flex-1">
            <span className="line-clamp-2">
              <span className={read ? "" : "font-semibold"}>Webhook turned off: {row.webhook.url}</span>
              {read ? null : <span className="sr-only"> (unread)</span>}
            </span>
            <span className="block truncate text-[13px] text-zinc-600 dark:text-zinc-400">
              Cairn {reasonPhrases[row.reason]} <span aria-hidden="true">·</span> <RelativeTime at={row.at} />
            </span>
          </Link>
        </>
      )}
      <fetcher.Form method="post">
        <input type="hidden" name="notificationId" value={row.id} />
        <button type="submit" name="intent" value={read ? "unread" : "read"} className="inbox-action" aria-label={`Mark ${key} as ${read ? "unread" : "read"}`}>
          {read ? "Mark unread" : "Mark read"}
        </button>
      </fetcher.Form>
    </li>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
