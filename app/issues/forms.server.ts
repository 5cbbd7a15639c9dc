import { z } from "zod";
import { uploadedFilesField } from "~/attachments/forms.server";
import { commentBodyField, optionalCommentBodyField } from "~/comments/forms.server";
import { idField, multiLineText, positiveIntegerField, singleLineText, textProblem } from "~/forms/fields.server";
import { maxLabelsPerIssue } from "~/labels/labels.server";
import { keepAssignee, maxBulkIssues } from "./bulk-choice";
import { priorities, statuses } from "./issue-fields";
import { relationChoices } from "./issue-links";

/** These forms keep "" (see parseForm): "" clears a field, a missing one leaves it unchanged. */

export const issueTitleField = singleLineText({ empty: "Enter a title.", max: 200 });

const descriptionField = multiLineText({ max: 50_000, trim: false });
const statusField = z.enum(statuses, { error: "Choose a status." });
const priorityField = z.enum(priorities, { error: "Choose a priority." });

/** "" is nobody. */
const assigneeField = z.union([z.literal(""), positiveIntegerField("Choose a member.")], {
  error: "Choose a member.",
});

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const calendarDateField = z
  .string({ error: "Use a date like 2026-12-31." })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2026-12-31.")
  .refine(isCalendarDate, "That date does not exist.")
  .refine((date) => date >= "2000-01-01" && date <= "2100-12-31", "Choose a date between 2000-01-01 and 2100-12-31.");

/** "" is no due date. */
const dueDateField = z.union([z.literal(""), calendarDateField]);

export const labelLimitMessage = `An issue can have at most ${maxLabelsPerIssue} labels.`;

/** Repeated `labelIds` fields; an empty one only says "labels are in this form" (so none means none). */
const labelIdsField = z.preprocess(
  (value) => (value === undefined ? undefined : [value].flat().filter((id) => id !== "")),
  z.array(idField).max(maxLabelsPerIssue, labelLimitMessage),
);

/** The rules of an issue's fields, which the API's JSON bodies (app/api/schemas.server.ts) share with these forms. */
export const issueFieldRules = {
  title: issueTitleField,
  description: descriptionField,
  status: statusField,
  priority: priorityField,
  dueDate: calendarDateField,
} as const;

/** An issue key as typed (`WEB-12`); what it names is checked where it is used (app/issues/issue-links.server.ts). */
const issueKeyField = z.string({ error: "Enter an issue key like WEB-12." }).trim().max(20, "Enter an issue key like WEB-12.");

/**
 * The Write/Preview tabs of the edit form and of a new issue without JavaScript (intent=write|preview):
 * the form comes back with what was typed and, for a preview, the description rendered. Nothing is
 * saved, so the title may be empty or long; its characters follow the shared rules, as it is shown again.
 */
const typedTitle = z.string().superRefine((title, ctx) => {
  const problem = textProblem(title, "single");
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
const typedText = { title: typedTitle.optional(), description: descriptionField.default("") };

export const newIssueSchema = z.object({
  /** The parent's key when filed as a sub-issue ("Add sub-issue"); "" for none. */
  parent: issueKeyField.default(""),
  title: issueTitleField,
  description: descriptionField.default(""),
  status: statusField.default("backlog"),
  priority: priorityField.default("none"),
  assigneeId: assigneeField.default(""),
  labelIds: labelIdsField.default([]),
  dueDate: dueDateField.default(""),
  file: uploadedFilesField,
});
export type NewIssueForm = z.input<typeof newIssueSchema>;

/**
 * "New issue" files it (no intent, as scripts send it), or answers its Write/Preview tabs; a tab
 * pressed without JavaScript sends the files chosen too, which are named back, not kept.
 */
export const newIssueActionSchema = z.discriminatedUnion("intent", [
  newIssueSchema.extend({ intent: z.literal("create").optional() }),
  z.object({ intent: z.literal("preview"), ...typedText, file: uploadedFilesField }),
  z.object({ intent: z.literal("write"), ...typedText, file: uploadedFilesField }),
]);

const versionField = positiveIntegerField("Reload the issue and try again.");

export const issueActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("update"),
    version: versionField,
    title: issueTitleField.optional(),
    description: descriptionField.optional(),
    status: statusField.optional(),
    priority: priorityField.optional(),
    assigneeId: assigneeField.optional(),
    labelIds: labelIdsField.optional(),
    dueDate: dueDateField.optional(),
  }),
  z.object({ intent: z.literal("status"), version: versionField, status: statusField }),
  z.object({ intent: z.literal("preview"), ...typedText }),
  z.object({ intent: z.literal("write"), ...typedText }),
  /** A comment may be only files (JavaScript off: the files are chosen, not written about). */
  z
    .object({ intent: z.literal("comment"), body: optionalCommentBodyField.default(""), file: uploadedFilesField })
    .refine((comment) => comment.body !== "" || comment.file.length > 0, { path: ["body"], message: "Write a comment." }),
  z.object({ intent: z.literal("edit-comment"), commentId: idField, body: commentBodyField }),
  z.object({ intent: z.literal("delete-comment"), commentId: idField }),
  z.object({ intent: z.literal("watch") }),
  z.object({ intent: z.literal("unwatch") }),
  /** `parent`: a key, or "" to remove it. */
  z.object({ intent: z.literal("set-parent"), parent: issueKeyField }),
  z.object({
    intent: z.literal("add-relation"),
    type: z.enum(relationChoices, { error: "Choose a kind of relation." }),
    target: issueKeyField.min(1, "Enter an issue key like WEB-12."),
  }),
  z.object({ intent: z.literal("remove-relation"), relationId: idField }),
  z.object({ intent: z.literal("attach"), file: uploadedFilesField.pipe(z.array(z.instanceof(File)).min(1, "Choose files to attach.")) }),
  z.object({ intent: z.literal("delete-attachment"), attachmentId: idField }),
]);
export type EditIssueForm = Omit<NewIssueForm, "labelIds"> & { labelIds?: string[]; version: string; intent: string };

/** The fields every change from the list sends: which issue (by id), at which version, and where to go back. */
const listChangeFields = { issueId: idField, version: versionField, returnTo: z.string().optional() };

/** A bulk edit's menu: its "No change" (`unchanged`) leaves the field as it is. */
const bulkChange = <T extends z.ZodType>(field: T, unchanged = "") => z.preprocess((value) => (value === unchanged ? undefined : value), field.optional());
const selectedIssueId = positiveIntegerField("Select issues of the list.");

/**
 * A bulk edit from the list (intent=bulk): the selected issues (`issueIds`, repeated) and the change.
 * The assignee's "No change" is `keepAssignee`, as "" unassigns.
 */
const bulkEditFields = {
  issueIds: z.preprocess(
    (value) => (value === undefined ? [] : [value].flat()),
    z
      .array(selectedIssueId)
      .min(1, "Select the issues to change.")
      .max(maxBulkIssues, `Select at most ${maxBulkIssues} issues at a time.`)
      .refine((ids) => new Set(ids).size === ids.length, "Select each issue once."),
  ),
  status: bulkChange(statusField),
  priority: bulkChange(priorityField),
  assigneeId: bulkChange(assigneeField, keepAssignee),
  addLabelId: bulkChange(positiveIntegerField("Choose a label.")),
  removeLabelId: bulkChange(positiveIntegerField("Choose a label.")),
  returnTo: z.string().optional(),
};

/** A property change from a list row's menu (status, priority, assignee), or a bulk edit of the selected rows. */
export const listChangeSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("status"), ...listChangeFields, status: statusField }),
    z.object({ intent: z.literal("priority"), ...listChangeFields, priority: priorityField }),
    z.object({ intent: z.literal("assignee"), ...listChangeFields, assigneeId: assigneeField }),
    z.object({ intent: z.literal("bulk"), ...bulkEditFields }),
  ],
  { error: "Choose a status, a priority or an assignee." },
);
