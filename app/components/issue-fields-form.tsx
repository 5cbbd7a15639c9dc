import type { FieldMetadata } from "@conform-to/react";
import { FileField } from "~/components/attachments";
import { DescriptionEditor } from "~/components/issue-editor";
import { LabelChip } from "~/components/label-chip";
import type { MentionCandidate } from "~/components/mention-query";
import { SelectField, TextField } from "~/components/forms";
import { priorities, priorityLabels, statuses, statusLabels } from "~/issues/issue-fields";

export type IssueFormOptions = {
  members: { userId: number; name: string }[];
  labels: { id: number; name: string; color: string }[];
  /** Whom `@` offers in the description. */
  mentionable: MentionCandidate[];
  uploads: { uploadUrl: string; maxBytes: number };
};

const unkeptList = new Intl.ListFormat("en", { type: "conjunction" });

type Fields = Record<"title" | "description" | "status" | "priority" | "assigneeId" | "dueDate" | "labelIds" | "file", FieldMetadata<unknown>>;

/**
 * The fields of "New issue" (an issue is then changed on its page: the title and description form,
 * the property menus). `preview` is what a Write/Preview tab pressed without JavaScript answered:
 * the description rendered, and the files chosen, which a browser cannot be given back.
 */
export function IssueFieldsForm({ fields, options, preview }: { fields: Fields; options: IssueFormOptions; preview?: { html?: string; unkeptFiles: string[] } }) {
  const chosen = new Set([fields.labelIds.initialValue ?? []].flat().map(String));
  const { uploads } = options;
  const unkept = preview?.unkeptFiles.length ? [`Choose ${unkeptList.format(preview.unkeptFiles.map((name) => `“${name}”`))} again: a preview without JavaScript cannot keep chosen files.`] : undefined;
  return (
    <>
      <TextField label="Title" meta={fields.title} />
      <DescriptionEditor meta={fields.description} mentionable={options.mentionable} uploads={uploads} serverPreview={preview?.html} rows={8} />
      <FileField id={fields.file.id} label="Attach files" maxBytes={uploads.maxBytes} errors={fields.file.errors ?? unkept} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="Status" meta={fields.status} options={statuses.map((s) => ({ value: s, label: statusLabels[s] }))} />
        <SelectField label="Priority" meta={fields.priority} options={priorities.map((p) => ({ value: p, label: priorityLabels[p] }))} />
        <SelectField
          label="Assignee"
          meta={fields.assigneeId}
          options={[{ value: "", label: "Unassigned" }, ...options.members.map((m) => ({ value: String(m.userId), label: m.name }))]}
        />
        <TextField label="Due date" meta={fields.dueDate} type="date" />
      </div>
      <fieldset>
        <legend className="text-sm font-medium">Labels</legend>
        {/* Says "labels are in this form", so that unticking every box removes them all. */}
        <input type="hidden" name={fields.labelIds.name} value="" />
        {options.labels.length ? (
          <div className="mt-1 flex flex-wrap gap-3">
            {options.labels.map((label) => (
              <label key={label.id} className="flex items-center gap-1">
                <input type="checkbox" name={fields.labelIds.name} value={label.id} defaultChecked={chosen.has(String(label.id))} />
                <LabelChip name={label.name} color={label.color} />
              </label>
            ))}
          </div>
        ) : (
          <p className="muted text-sm">This workspace has no labels yet.</p>
        )}
        {fields.labelIds.errors ? (
          <p id={fields.labelIds.errorId} className="field-error mt-1">
            {fields.labelIds.errors.join(" ")}
          </p>
        ) : null}
      </fieldset>
    </>
  );
}

