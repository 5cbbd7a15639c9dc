import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextAreaField, TextField } from "~/components/forms";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/host/app-context.server";
import { type ProjectSettingsForm, projectSettingsSchema } from "~/projects/forms.server";
import { setProjectArchived, updateProject } from "~/projects/projects.server";
import type { Route } from "./+types/settings";

export async function loader(args: Route.LoaderArgs) {
  const { project } = await requireProject(args, "projects:manage");
  return { id: project.id, name: project.name, description: project.description, archived: project.archived_at !== null };
}

export async function action(args: Route.ActionArgs) {
  const { workspace, project } = await requireProject(args, "projects:manage");
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, projectSettingsSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const form = submission.value;
  const now = new Date();
  // An archived project's fields are read-only too; only unarchiving changes it.
  if (project.archived_at && form.intent !== "unarchive") throw data("This project is archived: it is read-only.", { status: 403 });
  if (form.intent === "update") await updateProject(services.db, project.id, { ...form, now });
  else await setProjectArchived(services.db, project.id, form.intent === "archive", now);
  const text = { update: "Project saved.", archive: "Project archived: it is now read-only.", unarchive: "Project unarchived." }[form.intent];
  return redirect(`/w/${workspace.slug}/p/${project.key}/settings`, {
    headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text }) },
  });
}

export default function ProjectSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { id, name, description, archived } = loaderData;
  // One form per project: going from one project's settings to another's shows the other's values.
  const [form, fields] = useRouteForm<ProjectSettingsForm>({ id: `project-${id}`, lastResult: actionData, defaultValue: { name, description } });
  return (
    <div className="max-w-xl space-y-10">
      {archived ? (
        <p className="text-zinc-700 dark:text-zinc-300">This project is archived. Unarchive it to change it or its issues.</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormSummary form={form} />
          <TextField label="Project name" meta={fields.name} />
          <TextAreaField label="Description" meta={fields.description} rows={4} />
          <SubmitButton name="intent" value="update" pendingText="Saving…">
            Save project
          </SubmitButton>
        </Form>
      )}
      <Form method="post">
        {archived ? (
          <SubmitButton name="intent" value="unarchive" variant="secondary">
            Unarchive project
          </SubmitButton>
        ) : (
          <SubmitButton name="intent" value="archive" variant="secondary">
            Archive project
          </SubmitButton>
        )}
      </Form>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
