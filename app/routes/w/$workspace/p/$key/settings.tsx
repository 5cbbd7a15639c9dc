import { getFormProps } from "@conform-to/react";
import { Archive } from "~/components/icons/icon";
import { data, Form, redirect } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import { PageBody, pageTitle, secondaryButtonClass } from "~/components/app-shell";
import { ConfirmAction } from "~/components/confirm";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextAreaField, TextField } from "~/components/forms";
import { dangerButtonClass, DangerZone, SettingsSection } from "~/components/settings-sections";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import { type ProjectSettingsForm, projectSettingsSchema } from "~/projects/forms.server";
import { setProjectArchived, updateProject } from "~/projects/projects.server";
import type { Route } from "./+types/settings";

export async function loader(args: Route.LoaderArgs) {
  const { project } = await requireProject(args, "projects:manage");
  return { id: project.id, key: project.key, name: project.name, description: project.description, archived: project.archived_at !== null };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("Project settings", loaderData?.name);

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
  const { id, key, name, description, archived } = loaderData;
  // One form per project: going from one project's settings to another's shows the other's values.
  const [form, fields] = useRouteForm<ProjectSettingsForm>({ id: `project-${id}`, lastResult: actionData, defaultValue: { name, description } });
  return (
    <PageBody narrow>
      <div className="space-y-10">
        <SettingsSection id="project-title" title="Project" description={`Issues of this project are numbered ${key}-1, ${key}-2, …`}>
          {archived ? (
            <p className="text-zinc-700 dark:text-zinc-300">This project is archived. Unarchive it to change it or its issues.</p>
          ) : (
            <Form method="post" {...getFormProps(form)} aria-labelledby="project-title" className="space-y-4">
              <FormSummary form={form} />
              <TextField label="Project name" meta={fields.name} />
              <TextAreaField label="Description" meta={fields.description} rows={4} />
              <SubmitButton name="intent" value="update" pendingText="Saving…">
                Save project
              </SubmitButton>
            </Form>
          )}
        </SettingsSection>
        {archived ? (
          <SettingsSection id="unarchive-title" title="Archived">
            <Form method="post">
              <button type="submit" name="intent" value="unarchive" className={secondaryButtonClass}>
                Unarchive project
              </button>
            </Form>
          </SettingsSection>
        ) : (
          <DangerZone>
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0 flex-1">
                <h3 className="font-medium">Archive project</h3>
                <p className="mt-1 text-[13px] text-zinc-700 dark:text-zinc-300">
                  The project and its issues become read-only and move to “Archived” in the sidebar. You can unarchive it later.
                </p>
              </div>
              <ConfirmAction
                name="archive"
                label={
                  <>
                    <Archive size={14} aria-hidden="true" /> Archive project
                  </>
                }
                title={`Archive ${name}?`}
                message="No one can change it or its issues until it is unarchived."
                triggerClassName={dangerButtonClass}
              >
                <Form method="post">
                  <button type="submit" name="intent" value="archive" className={dangerButtonClass}>
                    Archive project
                  </button>
                </Form>
              </ConfirmAction>
            </div>
          </DangerZone>
        )}
      </div>
    </PageBody>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
