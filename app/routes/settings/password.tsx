import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { checkPassword, setPassword } from "~/auth/accounts.server";
import { requireUser } from "~/auth/authorization.server";
import { type PasswordChangeForm, passwordChangeSchema, wrongCurrentPasswordMessage } from "~/auth/forms.server";
import { passwordProblem } from "~/auth/password.server";
import { deleteOtherSessions } from "~/auth/sessions.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import type { Route } from "./+types/password";

export function loader(args: Route.LoaderArgs) {
  requireUser(args);
  return null;
}

export const meta: Route.MetaFunction = () => pageTitle("Password", "Account settings");

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, passwordChangeSchema);
  const hideFields = ["currentPassword", "newPassword"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });

  const { currentPassword, newPassword } = submission.value;
  const problem = passwordProblem(newPassword, user.email);
  if (problem) return data(submission.reply({ fieldErrors: { newPassword: [problem] }, hideFields }), { status: 400 });
  if (!(await checkPassword(services.db, user.id, currentPassword))) {
    return data(submission.reply({ fieldErrors: { currentPassword: [wrongCurrentPasswordMessage] }, hideFields }), { status: 400 });
  }
  await setPassword(services.db, user.id, newPassword, new Date());
  // Whoever knew the old password is signed out everywhere else.
  await deleteOtherSessions(services.db, user.id, user.sessionId);
  const flash = { text: "Password changed. Your other sessions were signed out." };
  return redirect("/settings/password", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
}

export default function Password({ actionData }: Route.ComponentProps) {
  const [form, fields] = useRouteForm<PasswordChangeForm>({ lastResult: actionData });
  return (
    <Form method="post" {...getFormProps(form)} className="max-w-md space-y-4">
      <FormSummary form={form} />
      <TextField label="Current password" meta={fields.currentPassword} type="password" autoComplete="current-password" />
      <TextField
        label="New password"
        meta={fields.newPassword}
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters; not a common password. Your other sessions will be signed out."
      />
      <SubmitButton pendingText="Changing…">Change password</SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
