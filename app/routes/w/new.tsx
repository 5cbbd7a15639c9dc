import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { AccountSidebar } from "~/components/account-sidebar";
import { AppShell, appShellHandle, pageTitle } from "~/components/app-shell";
import { ShellErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { NarrowPage } from "~/components/narrow-page";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import { type NewWorkspaceForm, newWorkspaceSchema } from "~/workspaces/forms.server";
import { createWorkspace } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/new";

export function loader(args: Route.LoaderArgs) {
  requireUser(args);
  return null;
}

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const submission = await parseForm(args.request, newWorkspaceSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const created = await createWorkspace(args.context.get(appContext).db, { ...submission.value, ownerId: user.id, now: new Date() });
  if ("field" in created) return data(submission.reply({ fieldErrors: { [created.field]: [created.message] } }), { status: 400 });
  return redirect(`/w/${created.slug}`);
}

export const handle = appShellHandle;

export const meta: Route.MetaFunction = () => pageTitle("Create workspace");

export default function NewWorkspace({ actionData }: Route.ComponentProps) {
  const [form, fields] = useRouteForm<NewWorkspaceForm>({ lastResult: actionData });
  return (
    <AppShell sidebar={<AccountSidebar />}>
      <NarrowPage title="Create workspace">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormSummary form={form} />
        <TextField label="Workspace name" meta={fields.name} autoComplete="organization" />
        <TextField
          label="Slug"
          meta={fields.slug}
          hint="Used in addresses, like /w/acme: 3 to 40 characters of a–z, 0–9 and hyphens."
        />
        <SubmitButton pendingText="Creating…">Create workspace</SubmitButton>
      </Form>
      </NarrowPage>
    </AppShell>
  );
}

export const ErrorBoundary = ShellErrorBoundary;
