import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/host/app-context.server";
import { type DeleteWorkspaceForm, type RenameWorkspaceForm, workspaceSettingsSchema } from "~/workspaces/forms.server";
import { can } from "~/workspaces/roles";
import { deleteWorkspace, renameWorkspace } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/index";

export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args, "members:manage");
  return { name: workspace.name, slug: workspace.slug, isOwner: can(workspace.role, "workspace:manage") };
}

/** Renaming and deleting are the owner's (intent=rename, intent=delete). */
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
  const { name, slug, isOwner } = loaderData;
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
  if (!isOwner) {
    return (
      <dl>
        <dt className="text-sm font-medium">Workspace name</dt>
        <dd className="mt-1">{name}</dd>
        <dd className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">Only an owner can rename or delete this workspace.</dd>
      </dl>
    );
  }
  return (
    <div className="max-w-xl space-y-10">
      <Form method="post" {...getFormProps(renameForm)} className="space-y-4">
        <FormSummary form={renameForm} />
        <TextField label="Workspace name" meta={renameFields.name} />
        <SubmitButton name="intent" value="rename" pendingText="Saving…">
          Rename workspace
        </SubmitButton>
      </Form>
      <section aria-labelledby="delete-title" className="rounded border border-red-300 p-4 dark:border-red-800">
        <h2 id="delete-title" className="font-semibold">
          Delete workspace
        </h2>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          This deletes the workspace with all its projects and issues, for everyone. It cannot be undone.
        </p>
        <Form method="post" {...getFormProps(deleteForm)} className="mt-4 space-y-4">
          <FormSummary form={deleteForm} />
          <TextField label={`Type ${slug} to confirm`} meta={deleteFields.confirm} />
          <SubmitButton name="intent" value="delete" variant="danger" pendingText="Deleting…">
            Delete workspace
          </SubmitButton>
        </Form>
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
