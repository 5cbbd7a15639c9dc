import { getFormProps } from "@conform-to/react";
import { LogOut } from "~/components/icons/icon";
import { data, Form, redirect, useFetcher } from "react-router";
import { formatBytes } from "~/attachments/attachments";
import { attachmentUsage } from "~/attachments/attachments.server";
import { requireWorkspace } from "~/auth/authorization.server";
import { pageTitle } from "~/components/app-shell";
import { ConfirmAction } from "~/components/confirm";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { dangerButtonClass, DangerZone, SettingsSection } from "~/components/settings-sections";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import { type DeleteWorkspaceForm, type RenameWorkspaceForm, workspaceSettingsSchema } from "~/workspaces/forms.server";
import { ownerCount } from "~/workspaces/members.server";
import { can } from "~/workspaces/roles";
import { deleteWorkspace, renameWorkspace } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/index";

/** Every member sees the name and the room its files take, and may leave; only owners rename or delete. */
export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args);
  const { db, config } = args.context.get(appContext);
  const isOwner = can(workspace.role, "workspace:manage");
  const [owners, usage] = await Promise.all([isOwner ? ownerCount(db, workspace.id) : 0, attachmentUsage(db, workspace.id)]);
  // The last owner cannot leave (the workspace layout's action refuses it): say so instead of offering it.
  const lastOwner = isOwner && owners <= 1;
  const files = { ...usage, maxBytes: config.attachments.workspaceMaxBytes, fileMaxBytes: config.attachments.maxBytes };
  return { name: workspace.name, slug: workspace.slug, isOwner, lastOwner, files };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("Workspace settings", loaderData?.name);

/** Renaming and deleting are the owner's (intent=rename, intent=delete). Leaving posts to the workspace layout. */
export async function action(args: Route.ActionArgs) {
  const { workspace } = await requireWorkspace(args, "workspace:manage");
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, workspaceSettingsSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });

  const form = submission.value;
  if (form.intent === "rename") {
    await renameWorkspace(services.db, workspace.id, form.name, new Date());
    const flash = { text: "Workspace renamed." };
    return redirect(`/w/${workspace.slug}/settings`, { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
  }
  if (form.confirm.trim() !== workspace.slug) {
    return data(submission.reply({ fieldErrors: { confirm: [`Type ${workspace.slug} to confirm.`] } }), { status: 400 });
  }
  await deleteWorkspace(services.db, workspace.id);
  const flash = { text: `Workspace ${workspace.name} was deleted.` };
  return redirect("/", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
}

export default function GeneralSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { name, slug, isOwner, lastOwner, files } = loaderData;
  const lastIntent = (actionData?.initialValue as { intent?: string } | undefined)?.intent;
  // One pair of forms per workspace: switching workspaces shows the other's name and an empty confirmation.
  const [renameForm, renameFields] = useRouteForm<RenameWorkspaceForm>({
    id: `rename-${slug}`,
    lastResult: lastIntent === "rename" ? actionData : undefined,
    defaultValue: { name },
  });
  const [deleteForm, deleteFields] = useRouteForm<DeleteWorkspaceForm>({
    id: `delete-${slug}`,
    lastResult: lastIntent === "delete" ? actionData : undefined,
  });
  return (
    <div className="space-y-10">
      <SettingsSection id="name-title" title="Name">
        {isOwner ? (
          <Form method="post" {...getFormProps(renameForm)} className="max-w-md space-y-4">
            <FormSummary form={renameForm} />
            <TextField label="Workspace name" meta={renameFields.name} />
            <SubmitButton name="intent" value="rename" pendingText="Saving…">
              Rename workspace
            </SubmitButton>
          </Form>
        ) : (
          <dl>
            <dt className="sr-only">Workspace name</dt>
            <dd>{name}</dd>
            <dd className="mt-1 text-[13px] text-zinc-600 dark:text-zinc-400">Only an owner can rename or delete this workspace.</dd>
          </dl>
        )}
      </SettingsSection>

      <FileStorage {...files} />

      <DangerZone>
        <LeaveWorkspace slug={slug} name={name} lastOwner={lastOwner} />
        {isOwner ? (
          <div>
            <h3 id="delete-title" className="font-medium">
              Delete workspace
            </h3>
            <p className="mt-1 text-[13px] text-zinc-700 dark:text-zinc-300">
              This deletes the workspace with all its projects and issues, for everyone. It cannot be undone.
            </p>
            <Form method="post" {...getFormProps(deleteForm)} aria-labelledby="delete-title" className="mt-3 max-w-md space-y-4">
              <FormSummary form={deleteForm} />
              <TextField label={`Type ${slug} to confirm`} meta={deleteFields.confirm} />
              <SubmitButton name="intent" value="delete" variant="danger" pendingText="Deleting…">
                Delete workspace
              </SubmitButton>
            </Form>
          </div>
        ) : null}
      </DangerZone>
    </div>
  );
}

/** How much room the workspace's attachments take of its total (ATTACHMENT_WORKSPACE_MAX_BYTES). */
function FileStorage({ bytes, files, maxBytes, fileMaxBytes }: { bytes: number; files: number; maxBytes: number; fileMaxBytes: number }) {
  return (
    <SettingsSection id="files-title" title="Files" description={`Attachments of issues and comments, kept in Cairn's database. Each file may be at most ${formatBytes(fileMaxBytes)}.`}>
      <div className="max-w-md space-y-2 text-sm">
        <p>
          <span className="font-medium tabular-nums">{formatBytes(bytes)}</span> of {formatBytes(maxBytes)} used
          <span className="muted">
            {" "}
            · {files} {files === 1 ? "file" : "files"}
          </span>
        </p>
        <progress max={maxBytes} value={Math.min(bytes, maxBytes)} aria-label="Room the files take" className="thin-bar w-full" />
      </div>
    </SettingsSection>
  );
}

const leaveFetcherKey = "leave-workspace";

/** "Leave workspace", asked first; the form posts intent=leave to the workspace layout's action. */
function LeaveWorkspace({ slug, name, lastOwner }: { slug: string; name: string; lastOwner: boolean }) {
  const fetcher = useFetcher<{ error?: string }>({ key: leaveFetcherKey });
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0 flex-1">
        <h3 className="font-medium">Leave workspace</h3>
        <p className="mt-1 text-[13px] text-zinc-700 dark:text-zinc-300">
          {lastOwner
            ? "You are this workspace's only owner. Make someone else an owner before you leave."
            : `You lose access to ${name} until someone invites you again.`}
        </p>
        {fetcher.data?.error ? (
          <p role="alert" className="mt-2 text-[13px] text-red-700 dark:text-red-400">
            {fetcher.data.error}
          </p>
        ) : null}
      </div>
      {lastOwner ? null : (
        <ConfirmAction
          name="leave"
          label={
            <>
              <LogOut size={14} aria-hidden="true" /> Leave workspace
            </>
          }
          title={`Leave ${name}?`}
          message="You will no longer see its projects and issues. To come back, someone must invite you again."
          triggerClassName={dangerButtonClass}
        >
          <LeaveForm slug={slug} />
        </ConfirmAction>
      )}
    </div>
  );
}

function LeaveForm({ slug }: { slug: string }) {
  const fetcher = useFetcher({ key: leaveFetcherKey });
  return (
    <fetcher.Form method="post" action={`/w/${slug}`}>
      <input type="hidden" name="intent" value="leave" />
      <button type="submit" className={dangerButtonClass}>
        {fetcher.state === "idle" ? "Leave workspace" : "Leaving…"}
      </button>
    </fetcher.Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
