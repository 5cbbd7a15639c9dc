import { getFormProps } from "@conform-to/react";
import { ListFilter, UserRound } from "~/components/icons/icon";
import { data, Form, Link, redirect } from "react-router";
import { requireProject } from "~/auth/authorization.server";
import { PageBody, pageTitle, secondaryButtonClass } from "~/components/app-shell";
import { ConfirmAction } from "~/components/confirm";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { dangerButtonClass, DangerZone, SettingsSection } from "~/components/settings-sections";
import { appContext } from "~/context/app-context.server";
import { flashHeader } from "~/flash/flash.server";
import { parsePositiveInteger } from "~/forms/fields.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { type RenameViewForm, viewActionSchema } from "~/views/forms.server";
import { deleteView, findView, mayManageView, renameView, viewNotFound } from "~/views/saved-views.server";
import { viewHref } from "~/views/view-href";
import type { Route } from "./+types/$id";

/** The view's id from the URL; anything but a positive whole number names no view. */
function viewIdOf(params: { id?: string }): number {
  const id = parsePositiveInteger(params.id);
  if (id === null) throw data(viewNotFound.message, { status: 404 });
  return id;
}

/** A saved view the user can see (theirs, or a shared one); another's private view is "not found". */
export async function loader(args: Route.LoaderArgs) {
  const { user, workspace, project } = await requireProject(args);
  const { db } = args.context.get(appContext);
  const actor = { workspaceId: workspace.id, role: workspace.role, userId: user.id };
  const view = await findView(db, actor, project.id, viewIdOf(args.params));
  if (!view) throw data(viewNotFound.message, { status: 404 });
  return {
    view: { id: view.id, name: view.name, shared: view.shared, ownerName: view.ownerName, mine: view.ownerId === user.id },
    projectName: project.name,
    href: viewHref(workspace.slug, project.key, view),
    canManage: mayManageView(view, actor),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle(loaderData?.view.name, "Views", loaderData?.projectName);

/** intent=rename (`name`) or intent=delete: by the view's owner, or for a shared view an admin or owner of the workspace. */
export async function action(args: Route.ActionArgs) {
  const { user, workspace, project } = await requireProject(args);
  const services = args.context.get(appContext);
  const viewId = viewIdOf(args.params);
  const submission = await parseForm(args.request, viewActionSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const form = submission.value;
  const actor = { workspaceId: workspace.id, role: workspace.role, userId: user.id };
  const done =
    form.intent === "rename"
      ? await renameView(services.db, { actor, projectId: project.id, viewId, name: form.name, now: new Date() })
      : await deleteView(services.db, { actor, projectId: project.id, viewId });
  if (!done.ok && done.status === 400) return data(submission.reply({ fieldErrors: { [done.field]: [done.message] } }), { status: 400 });
  if (!done.ok) throw data(done.message, { status: done.status });
  const flash = async (text: string) => ({ headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text }) } });
  if (form.intent === "delete") return redirect(`/w/${workspace.slug}/p/${project.key}/issues`, await flash("View deleted."));
  return redirect(`/w/${workspace.slug}/p/${project.key}/views/${viewId}`, await flash("View renamed."));
}

export default function ViewPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, href, canManage } = loaderData;
  const [form, fields] = useRouteForm<RenameViewForm>({ id: `view-${view.id}`, lastResult: actionData, defaultValue: { name: view.name } });
  return (
    <PageBody narrow>
      <div className="space-y-10">
        <SettingsSection
          id="view-title"
          title={view.name}
          description={
            view.shared ? (
              `Shared with the workspace${view.mine ? "" : ` by ${view.ownerName}`}.`
            ) : (
              <>
                <UserRound size={12} aria-hidden="true" className="inline align-[-1px]" /> Only you see this view.
              </>
            )
          }
          action={
            <Link to={href} className={secondaryButtonClass}>
              <ListFilter size={14} aria-hidden="true" /> Open view
            </Link>
          }
        >
          {canManage ? (
            <Form method="post" {...getFormProps(form)} aria-labelledby="view-title" className="space-y-4">
              <FormSummary form={form} />
              <TextField label="View name" meta={fields.name} autoComplete="off" />
              <SubmitButton name="intent" value="rename" pendingText="Renaming…">
                Rename view
              </SubmitButton>
            </Form>
          ) : (
            <p className="text-zinc-700 dark:text-zinc-300">Only {view.ownerName} and the workspace's admins can rename or delete it.</p>
          )}
        </SettingsSection>
        {canManage ? (
          <DangerZone>
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0 flex-1">
                <h3 className="font-medium">Delete view</h3>
                <p className="mt-1 text-[13px] text-zinc-700 dark:text-zinc-300">
                  {view.shared ? "It leaves everyone's sidebar." : "It leaves your sidebar."} The issues stay as they are.
                </p>
              </div>
              <ConfirmAction name="delete-view" label="Delete view" title={`Delete the view “${view.name}”?`} message="This cannot be undone." triggerClassName={dangerButtonClass}>
                <Form method="post">
                  <button type="submit" name="intent" value="delete" className={dangerButtonClass}>
                    Delete view
                  </button>
                </Form>
              </ConfirmAction>
            </div>
          </DangerZone>
        ) : null}
      </div>
    </PageBody>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
