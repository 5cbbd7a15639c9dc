import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { checkPassword, updateProfile } from "~/auth/accounts.server";
import { requireUser } from "~/auth/authorization.server";
import { type ProfileForm, profileSchema, wrongCurrentPasswordMessage } from "~/auth/forms.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/host/app-context.server";
import type { Route } from "./+types/index";

export function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  return { name: user.name, email: user.email };
}

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, profileSchema);
  const reject = (fieldErrors: Record<string, string[]>) =>
    data(submission.reply({ fieldErrors, hideFields: ["currentPassword"] }), { status: 400 });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["currentPassword"] }), { status: 400 });

  const { name, email, currentPassword } = submission.value;
  // Changing the address that signs you in asks for the password.
  if (email !== user.email) {
    if (!currentPassword) return reject({ currentPassword: ["Enter your current password to change your email."] });
    if (!(await checkPassword(services.db, user.id, currentPassword))) return reject({ currentPassword: [wrongCurrentPasswordMessage] });
  }
  const updated = await updateProfile(services.db, user.id, { name, email, now: new Date() });
  if ("field" in updated) return reject({ [updated.field]: [updated.message] });
  return redirect("/settings", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text: "Profile saved." }) } });
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useRouteForm<ProfileForm>({ lastResult: actionData, defaultValue: loaderData });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <FormSummary form={form} />
      <TextField label="Name" meta={fields.name} autoComplete="name" />
      <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
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
