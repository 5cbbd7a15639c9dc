import { type SubmissionResult, getFormProps } from "@conform-to/react";
import { ChevronDown } from "~/components/icons/icon";
import { data, Form, redirect, useLocation } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { pageTitle } from "~/components/app-shell";
import { ConfirmAction } from "~/components/confirm";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SelectField, SubmitButton, TextField } from "~/components/forms";
import { LabelChip } from "~/components/label-chip";
import { dangerButtonClass, rowActionClass, SettingsSection, settingsListClass } from "~/components/settings-sections";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import { type LabelForm, labelsSchema } from "~/labels/forms.server";
import { createLabel, deleteLabel, type LabelProblem, listLabels, maxLabelsPerWorkspace, updateLabel } from "~/labels/labels.server";
import { type LabelColor, labelColorLabels, labelColors } from "~/labels/palette";
import type { Route } from "./+types/labels";

export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args, "labels:manage");
  const { db } = args.context.get(appContext);
  return { workspaceName: workspace.name, labels: await listLabels(db, workspace.id), max: maxLabelsPerWorkspace };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("Labels", loaderData?.workspaceName);

export async function action(args: Route.ActionArgs) {
  const { workspace } = await requireWorkspace(args, "labels:manage");
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, labelsSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });

  const form = submission.value;
  const now = new Date();
  const done = async (text: string) =>
    redirect(`/w/${workspace.slug}/settings/labels`, { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text }) } });
  const refuse = (problem: LabelProblem) =>
    data(submission.reply(problem.field ? { fieldErrors: { [problem.field]: [problem.message] } } : { formErrors: [problem.message] }), {
      status: 400,
    });
  const notFound = () => data("Label not found.", { status: 404 });

  switch (form.intent) {
    case "create": {
      const created = await createLabel(services.db, { workspaceId: workspace.id, name: form.name, color: form.color, now });
      return "id" in created ? done("Label created.") : refuse(created);
    }
    case "update": {
      const updated = await updateLabel(services.db, { workspaceId: workspace.id, labelId: form.labelId, name: form.name, color: form.color, now });
      if (!updated) throw notFound();
      return "id" in updated ? done("Label saved.") : refuse(updated);
    }
    case "delete": {
      if (!(await deleteLabel(services.db, workspace.id, form.labelId))) throw notFound();
      return done("Label deleted.");
    }
  }
}

const colorOptions = labelColors.map((color) => ({ value: color, label: labelColorLabels[color] }));

/** What the last rejected submission was for, so that only its form shows the errors and the typed values. */
type LastResult = SubmissionResult<string[]> & { initialValue?: { intent?: string; labelId?: string } | null };

export default function Labels({ loaderData, actionData }: Route.ComponentProps) {
  const { labels, max } = loaderData;
  const lastResult = actionData;
  const lastIntent = lastResult?.initialValue?.intent;
  const resultFor = (labelId: number) =>
    (lastIntent === "update" || lastIntent === "delete") && lastResult?.initialValue?.labelId === String(labelId) ? lastResult : undefined;

  return (
    <div className="space-y-10">
      <SettingsSection id="labels-title" title={`Labels (${labels.length} of ${max})`} description="Press a label to rename it, recolor it or delete it.">
        {labels.length ? (
          <ul className={settingsListClass}>
            {labels.map((label) => (
              // A saved change remounts the row, so that its form starts again from the stored values.
              <LabelRow key={`${label.id}:${label.updated_at}`} label={label} lastResult={resultFor(label.id)} />
            ))}
          </ul>
        ) : (
          <p className="text-zinc-700 dark:text-zinc-300">No labels yet. Labels sort issues across projects: create the first one below.</p>
        )}
      </SettingsSection>

      <SettingsSection id="create-label-title" title="Create label">
        <CreateLabelForm lastResult={lastIntent === "create" ? lastResult : undefined} />
      </SettingsSection>
    </div>
  );
}

/**
 * One line per label (its chip and color); pressing it opens its edit form in place (a `<details>`,
 * so it opens without JavaScript). The form stays open while it shows a refusal or a question.
 */
function LabelRow({ label, lastResult }: { label: { id: number; name: string; color: string }; lastResult: LastResult | undefined }) {
  const [form, fields] = useRouteForm<LabelForm>({ id: `label-${label.id}`, lastResult, defaultValue: { name: label.name, color: label.color } });
  const deleteName = `delete-label-${label.id}`;
  const asked = new URLSearchParams(useLocation().search).get("confirm") === deleteName;
  return (
    <li aria-label={label.name}>
      <details open={asked || lastResult !== undefined || undefined} className="group">
        <summary
          aria-label={`Edit label ${label.name}`}
          className="flex min-h-10 cursor-pointer list-none items-center gap-3 px-3 py-1.5 hover:bg-zinc-50 dark:hover:bg-zinc-900 [&::-webkit-details-marker]:hidden"
        >
          <LabelChip name={label.name} color={label.color} />
          <span className="flex-1" />
          <span className="text-[13px] text-zinc-600 dark:text-zinc-400">{labelColorLabels[label.color as LabelColor] ?? label.color}</span>
          <span className={rowActionClass} aria-hidden="true">
            Edit <ChevronDown size={14} className="transition-transform group-open:rotate-180" />
          </span>
        </summary>
        <div className="border-t border-zinc-200 px-3 py-3 dark:border-zinc-800">
          <Form method="post" {...getFormProps(form)} aria-label={`Label ${label.name}`} className="space-y-3">
            <FormSummary form={form} />
            <input type="hidden" name="labelId" value={label.id} />
            <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
              <TextField label="Label name" meta={fields.name} autoComplete="off" />
              <SelectField label="Color" meta={fields.color} options={colorOptions} />
            </div>
          </Form>
          {/* Save belongs to the form above (`form`), so that Delete, a form of its own, can sit on its line. */}
          <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
            <SubmitButton form={form.id} name="intent" value="update" match={{ labelId: label.id }} variant="secondary" pendingText="Saving…">
              Save
            </SubmitButton>
            <ConfirmAction
              name={deleteName}
              label={
                <>
                  Delete<span className="sr-only"> label {label.name}</span>
                </>
              }
              title={`Delete the label ${label.name}?`}
              message="It is taken off every issue that has it. This cannot be undone."
              triggerClassName={dangerButtonClass}
            >
              <Form method="post">
                <input type="hidden" name="labelId" value={label.id} />
                <button type="submit" name="intent" value="delete" className={dangerButtonClass}>
                  Delete label
                </button>
              </Form>
            </ConfirmAction>
          </div>
        </div>
      </details>
    </li>
  );
}

function CreateLabelForm({ lastResult }: { lastResult: LastResult | undefined }) {
  const [form, fields] = useRouteForm<LabelForm>({ id: "create-label", lastResult, defaultValue: { color: labelColors[0] } });
  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="create-label-title" className="space-y-3">
      <FormSummary form={form} />
      <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
        <TextField label="Label name" meta={fields.name} autoComplete="off" />
        <SelectField label="Color" meta={fields.color} options={colorOptions} />
      </div>
      <SubmitButton name="intent" value="create" pendingText="Creating…">
        Create label
      </SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
