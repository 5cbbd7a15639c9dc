import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { AccountSidebar } from "~/components/account-sidebar";
import { AppShell, appShellHandle, pageTitle } from "~/components/app-shell";
import { ShellErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { NarrowPage } from "~/components/narrow-page";
import { PendingInvitations } from "~/components/pending-invitations";
import { parseForm, peekIntent } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { useSuggestion } from "~/forms/use-suggestion";
import { appContext } from "~/context/app-context.server";
import { type NewWorkspaceForm, newWorkspaceSchema } from "~/workspaces/forms.server";
import { listInvitationsFor } from "~/workspaces/invitations.server";
import { acceptListedInvitation } from "~/workspaces/join.server";
import { slugFromName } from "~/workspaces/slug-from-name";
import { createWorkspace, isInAnyWorkspace } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/new";

/** Someone invited somewhere may rather join than create: their pending invitations come first. */
export async function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  const { db } = args.context.get(appContext);
  const [invitations, inWorkspace] = await Promise.all([listInvitationsFor(db, user.email, new Date()), isInAnyWorkspace(db, user)]);
  return { invitations, inWorkspace };
}

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  if ((await peekIntent(args.request)) === "accept-invitation") return acceptListedInvitation(services, args.request, user);
  const submission = await parseForm(args.request, newWorkspaceSchema, { suggest: { field: "slug", from: "name", make: slugFromName } });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const created = await createWorkspace(services.db, { ...submission.value, ownerId: user.id, now: new Date() });
  if ("field" in created) return data(submission.reply({ fieldErrors: { [created.field]: [created.message] } }), { status: 400 });
  return redirect(`/w/${created.slug}`);
}

export const handle = appShellHandle;

export const meta: Route.MetaFunction = () => pageTitle("Create workspace");

export default function NewWorkspace({ loaderData, actionData }: Route.ComponentProps) {
  // The action answered one of the two forms: an invitation's "Join", or the workspace's.
  const joinRefused = actionData && "invitationRefusal" in actionData ? actionData.invitationRefusal : undefined;
  const [form, fields] = useRouteForm<NewWorkspaceForm>({ lastResult: actionData && "invitationRefusal" in actionData ? undefined : actionData });
  useSuggestion(fields.name.id, fields.slug.id, slugFromName);
  return (
    <AppShell sidebar={<AccountSidebar inWorkspace={loaderData.inWorkspace} />}>
      <NarrowPage title="Create workspace">
      {loaderData.invitations.length ? (
        <div className="mb-6 space-y-3">
          <PendingInvitations invitations={loaderData.invitations} refusal={joinRefused} />
          <p className="text-sm text-zinc-700 dark:text-zinc-300">Or create a workspace of your own:</p>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormSummary form={form} />
        <TextField label="Workspace name" meta={fields.name} autoComplete="organization" />
        <TextField
          label="Slug"
          meta={fields.slug}
          hint="Used in addresses, like /w/acme: 3 to 40 characters of a–z, 0–9 and hyphens. Left empty, it is made from the name."
        />
        <SubmitButton pendingText="Creating…">Create workspace</SubmitButton>
      </Form>
      </NarrowPage>
    </AppShell>
  );
}

export const ErrorBoundary = ShellErrorBoundary;
