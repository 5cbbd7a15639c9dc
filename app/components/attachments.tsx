import { type ReactNode, useEffect, useRef, useState } from "react";
import { Form, useFetcher } from "react-router";
import { type AttachmentItem, fileLimitProblem, formatBytes } from "~/attachments/attachments";
import { secondaryButtonClass } from "~/components/app-shell";
import { ConfirmAction } from "~/components/confirm";
import { SubmitButton } from "~/components/forms";
import { FileIcon, Paperclip, X } from "~/components/icons/icon";
import { RelativeTime } from "~/components/time";

/** What a refused form says at its `file` field. */
type ActionAnswer = { error?: Record<string, string[] | null> };

/**
 * A file input's own check, with JavaScript: a file over the limit is refused before the form is
 * sent (the server says the same with a 413 when there is no JavaScript).
 */
function checkFileSizes(input: HTMLInputElement, maxBytes: number) {
  input.setCustomValidity(fileLimitProblem([...(input.files ?? [])], maxBytes) ?? "");
  input.reportValidity();
}

/** The file input of a form that may carry files (a comment, a new issue): `file`, repeated. */
export function FileField({ id, label, maxBytes, errors }: { id: string; label: string; maxBytes: number; errors?: string[] | null }) {
  const errorId = `${id}-error`;
  const input = useRef<HTMLInputElement>(null);
  // Conform's forms turn the browser's own checks off once hydrated (noValidate), so a refused file
  // holds its form back here: sent, a file far over the limit meets the host's 413, which loses what
  // was typed. React Router's Form leaves a submission whose default was prevented.
  useEffect(() => {
    const field = input.current;
    const form = field?.form;
    if (!field || !form) return;
    const holdBack = (event: SubmitEvent) => {
      if (!field.validity.customError) return;
      event.preventDefault();
      field.reportValidity();
    };
    form.addEventListener("submit", holdBack);
    return () => form.removeEventListener("submit", holdBack);
  }, []);
  return (
    <div className="file-field">
      <label htmlFor={id} className="file-label">
        <Paperclip size={14} aria-hidden="true" /> {label}
        <span className="muted font-normal"> (up to {formatBytes(maxBytes)} each)</span>
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        name="file"
        multiple
        onChange={(event) => checkFileSizes(event.currentTarget, maxBytes)}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
        className="file-input"
      />
      {errors?.length ? (
        <p id={errorId} className="field-error mt-1">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The files, with their size, uploader and time (DESIGN.md §3, Issue); images as a
 * thumbnail. Their uploader or an admin deletes one, after a confirmation. Below, the form that
 * attaches more (intent=attach): a plain multipart form, through a fetcher with JavaScript.
 */
export function AttachmentsSection({
  attachments,
  writable,
  maxBytes,
  refusal,
}: {
  attachments: AttachmentItem[];
  writable: boolean;
  maxBytes: number;
  /** The page's refusal of an attach form sent without JavaScript. */
  refusal?: string[] | null;
}) {
  if (!attachments.length && !writable) return null;
  return (
    <section aria-labelledby="attachments-title" className="attachments">
      <h3 id="attachments-title" className="text-sm font-semibold">
        Attachments
      </h3>
      {attachments.length ? (
        <ul aria-label="Attachments" className="attachment-rows">
          {attachments.map((file) => (
            <AttachmentRow key={file.id} file={file} />
          ))}
        </ul>
      ) : null}
      {writable ? <AttachForm maxBytes={maxBytes} refusal={refusal} /> : null}
    </section>
  );
}

function AttachmentRow({ file }: { file: AttachmentItem }) {
  return (
    <li>
      {file.image ? (
        <img src={file.url} alt="" width={32} height={32} loading="lazy" decoding="async" className="attachment-thumb" />
      ) : (
        <span className="attachment-thumb attachment-icon" aria-hidden="true">
          <FileIcon size={14} />
        </span>
      )}
      <div className="min-w-0 flex-1">
        {/* A file, not a page of the app: a plain link, which the browser downloads or shows. */}
        <a href={file.url} title={file.filename} className="block truncate hover:underline">
          {file.filename}
        </a>
        <p className="attachment-meta">
          <span className="tabular-nums">{formatBytes(file.size)}</span>
          <span aria-hidden="true"> · </span>
          {file.tooLargeToPreview ? (
            <>
              too large to preview
              <span aria-hidden="true"> · </span>
            </>
          ) : null}
          {file.uploaderName ?? "Someone"}
          <span aria-hidden="true"> · </span>
          <RelativeTime at={file.createdAt} />
        </p>
      </div>
      {file.deletable ? (
        <ConfirmAction
          name={`delete-attachment-${file.id}`}
          label={
            <>
              <X size={14} aria-hidden="true" />
              <span className="sr-only">Delete {file.filename}</span>
            </>
          }
          title={`Delete ${file.filename}?`}
          message="The file is removed for everyone, and links to it stop working."
          triggerClassName="relation-remove"
        >
          <Form method="post" preventScrollReset>
            <input type="hidden" name="attachmentId" value={file.id} />
            <SubmitButton name="intent" value="delete-attachment" match={{ attachmentId: file.id }} variant="danger">
              Delete file
            </SubmitButton>
          </Form>
        </ConfirmAction>
      ) : null}
    </li>
  );
}

function AttachForm({ maxBytes, refusal }: { maxBytes: number; refusal?: string[] | null }) {
  const fetcher = useFetcher<ActionAnswer>({ key: "attach" });
  const form = useRef<HTMLFormElement>(null);
  const sending = fetcher.state !== "idle";
  // Attached (the action redirected: no answer): the input is emptied for the next files.
  const wasSending = useRef(false);
  useEffect(() => {
    if (sending) wasSending.current = true;
    else if (wasSending.current) {
      wasSending.current = false;
      if (!fetcher.data?.error) form.current?.reset();
    }
  }, [sending, fetcher.data]);
  const errors = fetcher.data?.error?.file ?? (fetcher.data ? undefined : refusal);
  return (
    <fetcher.Form ref={form} method="post" encType="multipart/form-data" preventScrollReset className="attach-form">
      <FileField id="attach-files" label="Attach files" maxBytes={maxBytes} errors={errors} />
      <button type="submit" name="intent" value="attach" aria-disabled={sending || undefined} className={secondaryButtonClass}>
        {sending ? "Attaching…" : "Attach"}
      </button>
    </fetcher.Form>
  );
}

/** A comment's files that its text does not show: images as pictures, other files (and images too large to preview) as links. */
export function CommentFiles({ files }: { files: AttachmentItem[] }) {
  return (
    <ul aria-label="Files" className="comment-files">
      {files.map((file) => (
        <li key={file.id}>
          {file.image ? (
            <a href={file.url} className="attachment-image">
              <img src={file.url} alt={file.filename} width={file.width ?? undefined} height={file.height ?? undefined} loading="lazy" decoding="async" />
            </a>
          ) : (
            <a href={file.url} className="file-chip">
              <FileIcon size={14} aria-hidden="true" />
              <span className="truncate">{file.filename}</span>
              <span className="muted shrink-0 tabular-nums">
                {formatBytes(file.size)}
                {file.tooLargeToPreview ? " · too large to preview" : ""}
              </span>
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

type Upload = { id: number; name: string; state: "uploading" | "failed"; progress?: number; message?: string };

let uploadCount = 0;

/**
 * With JavaScript, files dropped or pasted into the text box inside are uploaded at once (to
 * `uploadUrl`, the workspace's uploads), each with its progress, and the Markdown that shows it
 * takes the place of a placeholder put where the cursor was. The form they are in is held back
 * while one is on its way; sent, it claims them (app/attachments/attachments.server.ts).
 */
export function FileDropZone({ uploadUrl, maxBytes, children }: { uploadUrl: string; maxBytes: number; children: ReactNode }) {
  const zone = useRef<HTMLDivElement>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const busy = uploads.some((upload) => upload.state === "uploading");
  const busyRef = useRef(busy);
  useEffect(() => {
    busyRef.current = busy;
  }, [busy]);

  useEffect(() => {
    const textarea = zone.current?.querySelector("textarea");
    if (!textarea) return;
    const change = (id: number, values: Partial<Upload> | null) =>
      setUploads((all) => (values === null ? all.filter((u) => u.id !== id) : all.map((u) => (u.id === id ? { ...u, ...values } : u))));

    function upload(file: File) {
      const id = ++uploadCount;
      const name = file.name || "pasted-file";
      const message = fileLimitProblem([{ name, size: file.size }], maxBytes);
      if (message) {
        setUploads((all) => [...all.filter((u) => u.state !== "failed"), { id, name, state: "failed", message }]);
        return;
      }
      const placeholder = `![Uploading ${name.replace(/[[\]\\]/g, "")}…](#upload-${id})`;
      insertAtCursor(textarea!, `${placeholder}\n`);
      setUploads((all) => [...all.filter((u) => u.state !== "failed"), { id, name, state: "uploading", progress: 0 }]);
      const request = new XMLHttpRequest();
      request.open("POST", uploadUrl);
      request.responseType = "json";
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) change(id, { progress: event.loaded / event.total });
      };
      request.onload = () => {
        // A file refused is `{ error }`; who may not upload, or a form that cannot be read, is the message itself.
        const answer = request.response as { markdown?: string; error?: string } | string | null;
        if (request.status === 201 && typeof answer === "object" && answer?.markdown) {
          replaceText(textarea!, placeholder, answer.markdown);
          change(id, null);
        } else {
          replaceText(textarea!, `${placeholder}\n`, "");
          const refusal = typeof answer === "string" ? answer : answer?.error;
          change(id, { state: "failed", message: refusal ? `${name}: ${refusal}` : `${name} could not be uploaded (${request.status}).` });
        }
      };
      request.onerror = () => {
        replaceText(textarea!, `${placeholder}\n`, "");
        change(id, { state: "failed", message: `${name} could not be uploaded: the connection failed.` });
      };
      const body = new FormData();
      body.append("file", file, name);
      request.send(body);
    }

    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes("Files") ?? false;
    const onDragOver = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer!.dropEffect = "copy";
      setOver(true);
    };
    const onDragLeave = () => setOver(false);
    const onDrop = (event: DragEvent) => {
      const files = [...(event.dataTransfer?.files ?? [])];
      setOver(false);
      if (!files.length) return;
      event.preventDefault();
      textarea.focus();
      files.forEach(upload);
    };
    const onPaste = (event: ClipboardEvent) => {
      const files = [...(event.clipboardData?.files ?? [])];
      if (!files.length) return;
      event.preventDefault();
      files.forEach(upload);
    };
    // Not sent with a placeholder in it: React Router's Form leaves a submission whose default was prevented.
    const onSubmit = (event: SubmitEvent) => {
      if (!busyRef.current) return;
      event.preventDefault();
      setUploads((all) => all.map((u) => (u.state === "uploading" ? { ...u, message: "Wait for it to finish before sending." } : u)));
    };
    const form = textarea.form;
    textarea.addEventListener("dragover", onDragOver);
    textarea.addEventListener("dragleave", onDragLeave);
    textarea.addEventListener("drop", onDrop);
    textarea.addEventListener("paste", onPaste);
    form?.addEventListener("submit", onSubmit);
    return () => {
      textarea.removeEventListener("dragover", onDragOver);
      textarea.removeEventListener("dragleave", onDragLeave);
      textarea.removeEventListener("drop", onDrop);
      textarea.removeEventListener("paste", onPaste);
      form?.removeEventListener("submit", onSubmit);
    };
  }, [uploadUrl, maxBytes]);

  return (
    <div ref={zone} data-dragover={over || undefined} className="drop-zone">
      {children}
      <ul aria-live="polite" aria-label="Uploads" className="upload-list">
        {uploads.map((upload) =>
          upload.state === "uploading" ? (
            <li key={upload.id}>
              <span className="min-w-0 truncate">Uploading {upload.name}…</span>
              <progress max={1} value={upload.progress} aria-label={`Uploading ${upload.name}`} className="thin-bar w-28 shrink-0" />
              {upload.message ? <span className="field-error">{upload.message}</span> : null}
            </li>
          ) : (
            <li key={upload.id} className="field-error">
              {upload.message}
            </li>
          ),
        )}
      </ul>
    </div>
  );
}

/** Puts `text` where the cursor is (replacing a selection), on a line of its own, and tells `input` listeners. */
function insertAtCursor(textarea: HTMLTextAreaElement, text: string) {
  const { selectionStart, selectionEnd, value } = textarea;
  const before = value.slice(0, selectionStart);
  const lead = before === "" || before.endsWith("\n") ? "" : "\n";
  textarea.setRangeText(lead + text, selectionStart, selectionEnd, "end");
  textarea.dispatchEvent(new Event("input", { bubbles: true }));
}

/** Replaces the first `from` in the text box, keeping the cursor where it is relative to the text around it. */
function replaceText(textarea: HTMLTextAreaElement, from: string, to: string) {
  const at = textarea.value.indexOf(from);
  if (at === -1) return;
  textarea.setRangeText(to, at, at + from.length, "preserve");
  textarea.dispatchEvent(new Event("input", { bubbles: true }));
}
