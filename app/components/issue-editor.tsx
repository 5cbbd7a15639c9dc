import { type FieldMetadata, getFormProps, getTextareaProps } from "@conform-to/react";
import type { MentionCandidate } from "~/components/mention-query";
import { MentionSuggestions } from "~/components/mention-suggestions";
import { useRef, useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { primaryButtonClass, secondaryButtonClass } from "~/components/app-shell";
import { FileDropZone } from "~/components/attachments";
import { FormSummary, TextField } from "~/components/forms";
import type { useRecordForm } from "~/forms/use-record-form";
import { useRouteForm } from "~/forms/use-route-form";

/** The fields of the issue's edit form as its inputs hold them. */
export type EditIssueValues = Record<"title" | "description", string>;

type EditIssueForm = { intent: string; version: string; title: string; description: string };

/** Fields of the action's schema that this form does not have: their messages go in the summary. */
const fieldsElsewhere = ["version", "status", "priority", "assigneeId", "labelIds", "dueDate"];

const tabClass =
  "h-7 rounded px-2 text-[13px] font-medium text-zinc-600 hover:bg-zinc-100 aria-pressed:bg-zinc-100 aria-pressed:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:aria-pressed:bg-zinc-800 dark:aria-pressed:text-zinc-100";

/** Editing the title and the description: one small form (DESIGN.md §3, Issue). */
export function IssueEditor({
  edit,
  serverPreview,
  cancelHref,
  onCancel,
  mentionable,
  uploads,
}: {
  edit: ReturnType<typeof useRecordForm<EditIssueValues>>;
  /** Where files dropped or pasted into the description go (with JavaScript). */
  uploads: { uploadUrl: string; maxBytes: number };
  /** Whom `@` offers in the description. */
  mentionable: MentionCandidate[];
  /** The rendered description the page was served with (a preview without JavaScript). */
  serverPreview: string | undefined;
  cancelHref: string;
  onCancel: () => void;
}) {
  const [form, fields] = useRouteForm<EditIssueForm>({ id: edit.key, defaultValue: edit.defaultValue, lastResult: edit.lastResult });

  return (
    <Form method="post" ref={edit.formRef} {...getFormProps(form)} aria-label="Edit issue" className="space-y-3">
      {/* The form's default button: Enter in the title saves, rather than pressing the first tab. */}
      <button type="submit" name="intent" value="update" tabIndex={-1} aria-hidden="true" className="sr-only">
        Save changes
      </button>
      <FormSummary form={form} hiddenFields={fieldsElsewhere} />
      <input type="hidden" name="version" value={edit.version} />
      <TextField label="Title" meta={fields.title} />
      <DescriptionEditor meta={fields.description} mentionable={mentionable} uploads={uploads} serverPreview={serverPreview} rows={10} />
      <div className="flex items-center gap-2">
        <button type="submit" name="intent" value="update" className={primaryButtonClass}>
          Save changes
        </button>
        <Link
          to={cancelHref}
          preventScrollReset
          className={secondaryButtonClass}
          onClick={(event) => {
            event.preventDefault();
            onCancel();
          }}
        >
          Cancel
        </Link>
      </div>
    </Form>
  );
}

/**
 * A description's Markdown, with `@` suggestions, files dropped or pasted (with JavaScript) and
 * Write/Preview tabs: the edit form's and the new issue's. The tabs are submit buttons
 * (intent=write|preview) of the form around it, whose action answers them: without JavaScript the
 * page comes back with what was typed and, for Preview, the description rendered by the server;
 * with JavaScript they switch in place and the preview comes through a fetcher.
 */
export function DescriptionEditor({
  meta,
  mentionable,
  uploads,
  serverPreview,
  rows,
}: {
  meta: FieldMetadata<unknown>;
  /** Whom `@` offers. */
  mentionable: MentionCandidate[];
  /** Where files dropped or pasted into it go (with JavaScript). */
  uploads: { uploadUrl: string; maxBytes: number };
  /** The rendered description the page was served with (a preview without JavaScript). */
  serverPreview: string | undefined;
  rows: number;
}) {
  const [tab, setTab] = useState<"write" | "preview">(serverPreview === undefined ? "write" : "preview");
  const preview = useFetcher<{ previewHtml?: string }>({ key: "issue-description-preview" });
  const textarea = useRef<HTMLTextAreaElement>(null);
  const previewHtml = preview.state === "idle" ? (preview.data?.previewHtml ?? serverPreview) : undefined;
  const { key: textareaKey, ...textareaProps } = getTextareaProps(meta);
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={meta.id} className="block text-sm font-medium">
          Description
        </label>
        <div role="group" aria-label="Description view" className="flex items-center gap-1">
          {(["write", "preview"] as const).map((view) => (
            <button
              key={view}
              type="submit"
              name="intent"
              value={view}
              aria-pressed={tab === view}
              className={tabClass}
              onClick={(event) => {
                event.preventDefault();
                setTab(view);
                if (view === "write") textarea.current?.focus();
                else void preview.submit({ intent: "preview", description: textarea.current?.value ?? "" }, { method: "post" });
              }}
            >
              {view === "write" ? "Write" : "Preview"}
            </button>
          ))}
        </div>
      </div>
      <FileDropZone {...uploads}>
        <div className="relative">
          <textarea
            key={textareaKey}
            {...textareaProps}
            ref={textarea}
            rows={rows}
            hidden={tab === "preview"}
            className="mt-1 block w-full rounded border border-zinc-300 bg-white px-3 py-2 font-mono text-[13px] text-zinc-900 aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
          />
          <MentionSuggestions textarea={textarea} members={mentionable} />
        </div>
      </FileDropZone>
      {tab === "preview" ? (
        <section aria-label="Preview" aria-busy={previewHtml === undefined} className="mt-1 min-h-24 rounded border border-zinc-200 px-3 py-2 dark:border-zinc-800">
          {previewHtml === undefined ? (
            <p className="muted text-[13px]">Rendering the preview…</p>
          ) : previewHtml ? (
            <div className="prose-issue text-sm break-words" dangerouslySetInnerHTML={{ __html: previewHtml }} />
          ) : (
            <p className="muted text-[13px]">Nothing to preview.</p>
          )}
        </section>
      ) : null}
      {meta.errors ? (
        <p id={meta.errorId} className="field-error mt-1">
          {meta.errors.join(" ")}
        </p>
      ) : (
        <p className="muted mt-1 text-xs">Markdown works here.</p>
      )}
    </div>
  );
}
