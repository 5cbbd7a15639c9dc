import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextAreaField, TextField } from "~/components/forms";
import { NarrowPage } from "~/components/narrow-page";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { useSuggestion } from "~/forms/use-suggestion";
import { appContext } from "~/context/app-context.server";
import { type NewProjectForm, newProjectSchema } from "~/projects/forms.server";
import { keyFromName } from "~/projects/key-from-name";
import { createProject } from "~/projects/projects.server";
import type { Route } from "./+types/new";

export async function loader(args: Route.LoaderArgs) {
  await requireWorkspace(args, "projects:manage");
  return null;
}

export async function action(args: Route.ActionArgs) {
  const { workspace } = await requireWorkspace(args, "projects:manage");
  const submission = await parseForm(args.request, newProjectSchema, { suggest: { field: "key", from: "name", make: keyFromName } });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const created = await createProject(args.context.get(appContext).db, { workspaceId: workspace.id, ...submission.value, now: new Date() });
  if ("message" in created) {
    const errors = created.field ? { fieldErrors: { [created.field]: [created.message] } } : { formErrors: [created.message] };
    return data(submission.reply(errors), { status: 400 });
  }
  return redirect(`/w/${workspace.slug}/p/${created.key}/issues`);
}

export const meta: Route.MetaFunction = () => pageTitle("Create project");

export default function NewProject({ actionData }: Route.ComponentProps) {
  const [form, fields] = useRouteForm<NewProjectForm>({ lastResult: actionData });
  useSuggestion(fields.name.id, fields.key.id, keyFromName);
  return (
    <NarrowPage title="Create project">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormSummary form={form} />
        <TextField label="Project name" meta={fields.name} />
        <TextField label="Key" meta={fields.key} hint="2 to 6 letters, used in issue keys like WEB-42. Left empty, it is made from the name." />
        <TextAreaField label="Description" meta={fields.description} rows={3} />
        <SubmitButton pendingText="Creating…">Create project</SubmitButton>
      </Form>
    </NarrowPage>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
