import { getFormProps, getInputProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { checkPassword, setPassword } from "~/auth/accounts.server";
import { countApiTokens, revokeAllApiTokens } from "~/auth/api-tokens.server";
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

export async function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  return { apiTokens: await countApiTokens(args.context.get(appContext).db, user.id) };
}

export const meta: Route.MetaFunction = () => pageTitle("Password", "Account settings");

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, passwordChangeSchema);
  const hideFields = ["currentPassword", "newPassword"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });

  const { currentPassword, newPassword, revokeApiTokens } = submission.value;
  const problem = passwordProblem(newPassword, user.email);
  if (problem) return data(submission.reply({ fieldErrors: { newPassword: [problem] }, hideFields }), { status: 400 });
  if (!(await checkPassword(services.db, user.id, currentPassword))) {
    return data(submission.reply({ fieldErrors: { currentPassword: [wrongCurrentPasswordMessage] }, hideFields }), { status: 400 });
  }
  const now = new Date();
  await setPassword(services.db, user.id, newPassword, now);
  // Whoever knew the old password is signed out everywhere else. Tokens are revoked only when asked:
  // a routine change should not stop the person's scripts (a reset, for a lost account, revokes them).
  await deleteOtherSessions(services.db, user.id, user.sessionId);
  const revoked = revokeApiTokens ? await revokeAllApiTokens(services.db, user.id, now) : 0;
  const flash = { text: `Password changed. Your other sessions were signed out${revoked ? ` and ${apiTokensOf(revoked)} revoked` : ""}.` };
  return redirect("/settings/password", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
}

/** "your API token", "your 3 API tokens". */
const apiTokensOf = (count: number) => (count === 1 ? "your API token" : `your ${count} API tokens`);

export default function Password({ loaderData, actionData }: Route.ComponentProps) {
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
      {loaderData.apiTokens ? (
        <div className="flex items-start gap-2">
          <input
            {...getInputProps(fields.revokeApiTokens, { type: "checkbox" })}
            key={fields.revokeApiTokens.key}
            aria-describedby="revoke-api-tokens-hint"
            className="mt-1 accent-indigo-600"
          />
          <div>
            <label htmlFor={fields.revokeApiTokens.id} className="block text-sm font-medium">
              Also revoke {apiTokensOf(loaderData.apiTokens)}
            </label>
            <p id="revoke-api-tokens-hint" className="text-sm text-zinc-600 dark:text-zinc-400">
              Do this if someone else may have known your password: scripts that use them stop working until you make new ones.
            </p>
          </div>
        </div>
      ) : null}
      <SubmitButton pendingText="Changing…">Change password</SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
