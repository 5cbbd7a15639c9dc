import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton } from "~/components/forms";
import { appContext } from "~/context/app-context.server";
import type { NotificationEmail } from "~/db/schema";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { notificationSettingsSchema } from "~/notifications/forms.server";
import { emailPreference, notificationSettingsPath, setEmailPreference } from "~/notifications/notifications.server";
import type { Route } from "./+types/notifications";

export async function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  const { db, config } = args.context.get(appContext);
  return { email: await emailPreference(db, user.id), sendsMail: config.mail !== undefined };
}

export const meta: Route.MetaFunction = () => pageTitle("Notifications", "Account settings");

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, notificationSettingsSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await setEmailPreference(services.db, { userId: user.id, email: submission.value.email, now: new Date() });
  const flash = { text: "Notification settings saved." };
  return redirect(notificationSettingsPath, { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
}

const choices: { value: NotificationEmail; label: string; hint: string }[] = [
  { value: "all", label: "Everything", hint: "Assignments, mentions, comments and status changes on issues you watch." },
  { value: "direct", label: "Only what is about me", hint: "When someone assigns you an issue or mentions you." },
  { value: "none", label: "Nothing", hint: "Notifications stay in your inbox." },
];

/** Which notifications are mailed (field `email`): every one still reaches the inbox. */
export default function NotificationSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { email, sendsMail } = loaderData;
  const [form, fields] = useRouteForm<{ email: NotificationEmail }>({ lastResult: actionData, defaultValue: { email } });
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-md space-y-4">
      <FormSummary form={form} />
      {sendsMail ? null : (
        <p role="note" className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-[13px] dark:border-zinc-800 dark:bg-zinc-900">
          This instance sends no mail (its operator has not set up SMTP): notifications reach your inbox only. Your choice is kept for when it does.
        </p>
      )}
      <fieldset aria-describedby={fields.email.errors ? fields.email.errorId : undefined}>
        <legend className="text-sm font-medium">Email me about</legend>
        <div className="mt-2 space-y-2">
          {choices.map((choice) => (
            <label key={choice.value} className="flex items-start gap-2 text-sm">
              <input type="radio" name={fields.email.name} value={choice.value} defaultChecked={email === choice.value} className="mt-1" />
              <span>
                <span className="font-medium">{choice.label}</span>
                <span className="block text-[13px] text-zinc-600 dark:text-zinc-400">{choice.hint}</span>
              </span>
            </label>
          ))}
        </div>
        {fields.email.errors ? (
          <p id={fields.email.errorId} className="field-error mt-1">
            {fields.email.errors.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <SubmitButton pendingText="Saving…">Save</SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
