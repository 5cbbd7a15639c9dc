import { type FieldMetadata, type FormMetadata, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { useNavigation } from "react-router";

const inputClass =
  "mt-1 block w-full rounded border border-zinc-300 bg-white px-3 py-2 text-zinc-900 aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

function FieldError({ meta }: { meta: FieldMetadata<unknown> }) {
  if (!meta.errors?.length) return null;
  return (
    <p id={meta.errorId} className="field-error mt-1">
      {meta.errors.join(" ")}
    </p>
  );
}

/** Label, hint, control and error: the frame every field shares. */
function FieldFrame({ label, meta, hint, children }: { label: string; meta: FieldMetadata<unknown>; hint?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={meta.id} className="block text-sm font-medium">
        {label}
      </label>
      {hint ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{hint}</p> : null}
      {children}
      <FieldError meta={meta} />
    </div>
  );
}

/** A labelled input whose value and error survive a round trip through the server. */
export function TextField({
  label,
  meta,
  type = "text",
  autoComplete,
  hint,
}: {
  label: string;
  meta: FieldMetadata<unknown>;
  type?: "text" | "email" | "password" | "search" | "date";
  autoComplete?: string;
  hint?: ReactNode;
}) {
  const { key, ...props } = getInputProps(meta, { type });
  return (
    <FieldFrame label={label} meta={meta} hint={hint}>
      <input key={key} {...props} autoComplete={autoComplete} className={inputClass} />
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  meta,
  rows = 6,
  hint,
}: {
  label: string;
  meta: FieldMetadata<unknown>;
  rows?: number;
  hint?: ReactNode;
}) {
  const { key, ...props } = getTextareaProps(meta);
  return (
    <FieldFrame label={label} meta={meta} hint={hint}>
      <textarea key={key} {...props} rows={rows} className={inputClass} />
    </FieldFrame>
  );
}

export function SelectField({
  label,
  meta,
  options,
}: {
  label: string;
  meta: FieldMetadata<unknown>;
  options: readonly { value: string; label: string }[];
}) {
  const { key, ...props } = getSelectProps(meta);
  return (
    <FieldFrame label={label} meta={meta}>
      <select key={key} {...props} className={inputClass}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * The summary at the top of a rejected form: what went wrong as a whole, and how many fields need
 * fixing. A hidden field (a record's version) has nowhere to show its message, so it shows here.
 */
export function FormSummary<Schema extends Record<string, unknown>>({ form, hiddenFields = [] }: { form: FormMetadata<Schema, string[]>; hiddenFields?: string[] }) {
  const fieldErrors = Object.entries(form.allErrors).filter(([name]) => name !== form.name);
  const marked = fieldErrors.filter(([name]) => !hiddenFields.includes(name)).length;
  const messages = [...(form.errors ?? []), ...fieldErrors.filter(([name]) => hiddenFields.includes(name)).flatMap(([, errors]) => errors)];
  if (!messages.length && !marked) return null;
  return (
    <div id={form.errorId} role="alert" className="alert">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
      {marked ? <p>{marked === 1 ? "Please correct the field marked below." : `Please correct the ${marked} fields marked below.`}</p> : null}
    </div>
  );
}

/**
 * A submit button that shows it is working while its form is being submitted (with JavaScript).
 * On a page with one form per row, `match` names the row (`{ labelId: "3" }`) so that only its
 * button says so.
 */
export function SubmitButton({
  children,
  pendingText,
  name,
  value,
  match = {},
  variant = "primary",
  form,
}: {
  children: ReactNode;
  pendingText?: string;
  name?: string;
  value?: string;
  match?: Record<string, string | number>;
  variant?: "primary" | "secondary" | "danger";
  form?: string;
}) {
  const navigation = useNavigation();
  const submitted = navigation.state === "submitting" ? navigation.formData : undefined;
  const pending =
    submitted !== undefined &&
    (value === undefined || submitted.get(name ?? "intent") === value) &&
    Object.entries(match).every(([field, expected]) => submitted.get(field) === String(expected));
  return (
    <button
      type="submit"
      name={name}
      value={value}
      form={form}
      aria-disabled={pending || undefined}
      className={`submit submit-${variant}`}
    >
      {pending && pendingText ? pendingText : children}
    </button>
  );
}
