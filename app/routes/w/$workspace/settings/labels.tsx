import { type SubmissionResult, getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SelectField, SubmitButton, TextField } from "~/components/forms";
import { LabelChip } from "~/components/label-chip";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/host/app-context.server";
import { type LabelForm, labelsSchema } from "~/labels/forms.server";
import { createLabel, deleteLabel, type LabelProblem, listLabels, maxLabelsPerWorkspace, updateLabel } from "~/labels/labels.server";
import { labelColorLabels, labelColors } from "~/labels/palette";
import type { Route } from "./+types/labels";

export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args, "labels:manage");
  const { db } = args.context.get(appContext);
  return { labels: await listLabels(db, workspace.id), max: maxLabelsPerWorkspace };
}

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
  const lastResult = actionData as LastResult | undefined;
  const lastIntent = lastResult?.initialValue?.intent;
  const resultFor = (labelId: number) =>
    (lastIntent === "update" || lastIntent === "delete") && lastResult?.initialValue?.labelId === String(labelId) ? lastResult : undefined;

  return (
    <div className="space-y-10">
      <section aria-labelledby="labels-title">
        <h2 id="labels-title" className="text-lg font-semibold">
          {`Labels (${labels.length} of ${max})`}
        </h2>
        {labels.length ? (
          <ul className="mt-3 divide-y divide-zinc-200 rounded border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
            {labels.map((label) => (
              // A saved change remounts the row, so that its form starts again from the stored values.
              <LabelRow key={`${label.id}:${label.updated_at}`} label={label} lastResult={resultFor(label.id)} />
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-zinc-700 dark:text-zinc-300">No labels yet.</p>
        )}
      </section>

      <section aria-labelledby="create-label-title" className="max-w-xl">
        <h2 id="create-label-title" className="text-lg font-semibold">
          Create label
        </h2>
        <CreateLabelForm lastResult={lastIntent === "create" ? lastResult : undefined} />
      </section>
    </div>
  );
}

function LabelRow({ label, lastResult }: { label: { id: number; name: string; color: string }; lastResult: LastResult | undefined }) {
  const [form, fields] = useRouteForm<LabelForm>({ id: `label-${label.id}`, lastResult, defaultValue: { name: label.name, color: label.color } });
  return (
    <li aria-label={label.name} className="px-4 py-3">
      <LabelChip name={label.name} color={label.color} />
      <Form method="post" {...getFormProps(form)} aria-label={`Edit label ${label.name}`} className="mt-3 space-y-3">
        <FormSummary form={form} />
        <input type="hidden" name="labelId" value={label.id} />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label="Label name" meta={fields.name} autoComplete="off" />
          <SelectField label="Color" meta={fields.color} options={colorOptions} />
        </div>
        <div className="flex gap-2">
          {/* First, so that Enter in the name field saves. */}
          <SubmitButton name="intent" value="update" match={{ labelId: label.id }} variant="secondary" pendingText="Saving…">
            Save
          </SubmitButton>
          <SubmitButton name="intent" value="delete" match={{ labelId: label.id }} variant="danger" pendingText="Deleting…">
            Delete
          </SubmitButton>
        </div>
      </Form>
    </li>
  );
}

function CreateLabelForm({ lastResult }: { lastResult: LastResult | undefined }) {
  const [form, fields] = useRouteForm<LabelForm>({ id: "create-label", lastResult, defaultValue: { color: labelColors[0] } });
  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="create-label-title" className="mt-3 space-y-4">
      <FormSummary form={form} />
      <TextField label="Label name" meta={fields.name} autoComplete="off" />
      <SelectField label="Color" meta={fields.color} options={colorOptions} />
      <SubmitButton name="intent" value="create" pendingText="Creating…">
        Create label
      </SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
