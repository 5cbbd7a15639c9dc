import { getFormProps } from "@conform-to/react";
import { type ShouldRevalidateFunction, data, Form, redirect } from "react-router";
import { attachmentIdsIn } from "~/attachments/attachments";
import { attachFiles, claimAttachments } from "~/attachments/attachments.server";
import { receiveUploads } from "~/attachments/upload-receiver.server";
import { requireProject } from "~/auth/authorization.server";
import { flashHeader } from "~/flash/flash.server";
import { pageTitle, primaryButtonClass } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, TextField } from "~/components/forms";
import { IssueFieldsForm } from "~/components/issue-fields-form";
import { parseForm } from "~/forms/parse-form.server";
import { withTemporaryFiles } from "~/forms/temporary-files.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import { type NewIssueForm, newIssueActionSchema } from "~/issues/forms.server";
import { createIssue } from "~/issues/issues.server";
import { previewDescription } from "~/issues/markdown-options.server";
import { listLabels } from "~/labels/labels.server";
import { listMembers } from "~/workspaces/members.server";
import type { Route } from "./+types/new";

export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireProject(args, "issues:write");
  const { db, config } = args.context.get(appContext);
  const [members, labels] = await Promise.all([listMembers(db, workspace.id), listLabels(db, workspace.id)]);
  return {
    members: members.filter((m) => m.role !== "viewer").map((m) => ({ userId: m.userId, name: m.name })),
    labels,
    // Whom `@` offers in the description: everyone who can see the workspace, as on the issue's page.
    mentionable: members.map((m) => ({ handle: m.handle, name: m.name })),
    // "Add sub-issue" links here with the parent's key.
    parent: args.url.searchParams.get("parent")?.slice(0, 20) ?? "",
    uploads: { uploadUrl: `/w/${encodeURIComponent(workspace.slug)}/attachments`, maxBytes: config.attachments.maxBytes },
  };
}

/** The files chosen in the form are received into temporary files, removed once it is answered. */
export const middleware: Route.MiddlewareFunction[] = [withTemporaryFiles];

/**
 * Files chosen in the form (`file`) are checked against the limits as they arrive, before the issue
 * is filed, so that a refusal (413) loses nothing, and attached once it is; files dropped into the
 * description were uploaded already and are claimed by it. The description's Write/Preview tabs
 * (intent=write|preview) file nothing: the form comes back as it was typed.
 */
export async function action(args: Route.ActionArgs) {
  const { user, workspace, project } = await requireProject(args, "issues:write");
  const uploads = receiveUploads(args.context, workspace.id);
  const submission = await parseForm(args.request, newIssueActionSchema, { keepEmptyValues: true, files: uploads });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const services = args.context.get(appContext);
  const { db, config } = services;
  const form = submission.value;
  if (form.intent === "preview" || form.intent === "write") {
    const previewHtml = form.intent === "preview" ? await previewDescription(db, workspace, project.key, form.description) : undefined;
    return { ...submission.reply(), previewHtml, unkeptFiles: form.file.map((chosen) => chosen.name) };
  }
  const { assigneeId, dueDate, parent, intent: _create, file: files, ...fields } = form;
  const refused = uploads.refused;
  if (refused) return data(submission.reply({ fieldErrors: { file: [refused.message] } }), { status: refused.status });
  const now = new Date();
  const created = await createIssue(db, {
    project,
    reporterId: user.id,
    fields: { ...fields, assigneeId: assigneeId === "" ? null : assigneeId, dueDate: dueDate || null },
    parentKey: parent,
    now,
    mail: config.mail,
  });
  if ("field" in created) {
    return data(submission.reply({ fieldErrors: { [created.field]: [created.message] } }), { status: "status" in created ? created.status : 400 });
  }
  const issuePage = `/w/${workspace.slug}/p/${project.key}/issues/${created.number}`;
  const filed = { project, issueId: created.id, uploaderId: user.id, now, mail: config.mail };
  await claimAttachments(db, { ...filed, ids: attachmentIdsIn(fields.description, workspace.slug) });
  if (files.length) {
    const attached = await attachFiles(services, { ...filed, files, limits: config.attachments });
    // Only another upload filling the workspace in between can refuse them now: the issue stands, and says so.
    if (!attached.ok) {
      const flash = { text: `The issue was filed, but its files were not attached: ${attached.message}` };
      return redirect(issuePage, { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
    }
  }
  return redirect(issuePage);
}

/** A preview changes nothing, so nothing is reloaded for it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => {
  const intent = formData?.get("intent");
  return intent === "preview" || intent === "write" ? false : defaultShouldRevalidate;
};

type ProjectLayoutData = { project: { name: string } };

export const meta: Route.MetaFunction = ({ matches }) => {
  const project = matches.find((match) => match?.id === "routes/w/$workspace/p/$key/layout")?.loaderData as ProjectLayoutData | undefined;
  return pageTitle("New issue", project?.project.name);
};

export default function NewIssue({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useRouteForm<NewIssueForm>({
    lastResult: actionData,
    defaultValue: { status: "backlog", priority: "none", assigneeId: "", parent: loaderData.parent },
  });
  // Answered without JavaScript by a Write/Preview tab (with it, the tabs answer in place).
  const preview = actionData && "unkeptFiles" in actionData ? { html: actionData.previewHtml, unkeptFiles: actionData.unkeptFiles } : undefined;
  return (
    <div className="mx-auto max-w-2xl px-4 py-6 md:px-6">
      <h2 className="mb-4 text-xl font-semibold">New issue</h2>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        {/* The form's default button: Enter in the title files the issue, rather than pressing the first tab. */}
        <button type="submit" tabIndex={-1} aria-hidden="true" className="sr-only">
          Create issue
        </button>
        <FormSummary form={form} />
        <IssueFieldsForm fields={fields} options={loaderData} preview={preview} />
        <TextField label="Parent issue" meta={fields.parent} hint="Optional: file it as a sub-issue of an issue, by its key (WEB-12)." />
        <div className="flex justify-end border-t border-zinc-200 pt-4 dark:border-zinc-800">
          <button type="submit" className={primaryButtonClass}>
            Create issue
          </button>
        </div>
      </Form>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
