import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { checkPassword, fillTimeZone, updateProfile } from "~/auth/accounts.server";
import { requireUser } from "~/auth/authorization.server";
import { type ProfileForm, profileActionSchema, wrongCurrentPasswordMessage } from "~/auth/forms.server";
import { timeZoneNames } from "~/auth/time-zones.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SelectField, SubmitButton, TextField } from "~/components/forms";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import type { Route } from "./+types/index";

export function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  return { profile: { name: user.name, email: user.email, handle: user.handle, timeZone: user.timeZone ?? "" }, timeZones: timeZoneNames };
}

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, profileActionSchema);
  const reject = (fieldErrors: Record<string, string[]>) =>
    data(submission.reply({ fieldErrors, hideFields: ["currentPassword"] }), { status: 400 });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["currentPassword"] }), { status: 400 });

  if (submission.value.intent === "time-zone") {
    return { filled: await fillTimeZone(services.db, user.id, submission.value.timeZone) };
  }
  const { name, email, handle, currentPassword, timeZone } = submission.value;
  // Changing the address that signs you in asks for the password.
  if (email !== user.email) {
    if (!currentPassword) return reject({ currentPassword: ["Enter your current password to change your email."] });
    if (!(await checkPassword(services.db, user.id, currentPassword))) return reject({ currentPassword: [wrongCurrentPasswordMessage] });
  }
  const updated = await updateProfile(services.db, user.id, { name, email, handle, timeZone, now: new Date() });
  if ("field" in updated) return reject({ [updated.field]: [updated.message] });
  return redirect("/settings", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text: "Profile saved." }) } });
}

export const meta: Route.MetaFunction = () => pageTitle("Profile", "Account settings");

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  // The browser's own report (TimeZoneReporter) answers with `filled`, not a form's result.
  const lastResult = actionData && !("filled" in actionData) ? actionData : undefined;
  const [form, fields] = useRouteForm<ProfileForm>({ lastResult, defaultValue: loaderData.profile });
  const { timeZone } = loaderData.profile;
  const timeZoneOptions = [
    // Someone whose browser has not reported a zone yet sees times in UTC until they choose one.
    ...(timeZone ? [] : [{ value: "", label: "Not set (times show in UTC)" }]),
    ...loaderData.timeZones.map((name) => ({ value: name, label: name.replaceAll("_", " ") })),
  ];
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="profile" />
      <FormSummary form={form} />
      <TextField label="Name" meta={fields.name} autoComplete="name" />
      <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
      <TextField label="Handle" meta={fields.handle} autoComplete="username" hint="Others mention you as @handle: 3–39 of a–z, 0–9 and single hyphens." />
      <SelectField label="Time zone" meta={fields.timeZone} options={timeZoneOptions} />
      <TextField
        label="Current password"
        meta={fields.currentPassword}
        type="password"
        autoComplete="current-password"
        hint="Needed only to change your email."
      />
      <SubmitButton pendingText="Saving…">Save profile</SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
