import { getFormProps } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { type ResetPasswordForm, resetPasswordSchema } from "~/auth/forms.server";
import { passwordProblem } from "~/auth/password.server";
import { openResetLink, resetPassword } from "~/auth/password-resets.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { publicLinkClass, PublicCard, publicPrimaryClass } from "~/components/public-card";
import { appContext } from "~/context/app-context.server";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import type { Route } from "./+types/reset-password.$token";

const linkGoneMessage = "This link no longer works: it was used, or more than an hour has passed. Ask for a new one.";

/** The form while the link works; otherwise a 404 that says why and offers a new link. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const link = await openResetLink(context.get(appContext).db, params.token, new Date());
  return link ? { email: link.email } : data({ email: null }, { status: 404 });
}

export const meta: Route.MetaFunction = () => pageTitle("Choose a new password");

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const submission = await parseForm(request, resetPasswordSchema);
  const hideFields = ["password"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const now = new Date();
  const link = await openResetLink(services.db, params.token, now);
  if (!link) return data(submission.reply({ formErrors: [linkGoneMessage], hideFields }), { status: 404 });
  const { password } = submission.value;
  const problem = passwordProblem(password, link.email);
  if (problem) return data(submission.reply({ fieldErrors: { password: [problem] }, hideFields }), { status: 400 });
  // Used by someone else a moment ago: the same as a used link.
  const reset = await resetPassword(services.db, { token: params.token, password, now });
  if (!reset.ok) return data(submission.reply({ formErrors: [linkGoneMessage], hideFields }), { status: 404 });
  const flash = { text: `${resetDoneText(reset.tokensRevoked)} Sign in with the new password.` };
  return redirect("/login", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
}

/** What the reset ended: the account's sessions, and its API tokens when it had any. */
function resetDoneText(tokensRevoked: number): string {
  if (tokensRevoked === 0) return "Your password was changed, and every session of your account signed out.";
  const tokens = tokensRevoked === 1 ? "its API token" : `its ${tokensRevoked} API tokens`;
  return `Your password was changed, every session of your account signed out and ${tokens} revoked.`;
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useRouteForm<ResetPasswordForm>({ lastResult: actionData });
  if (loaderData.email === null) {
    return (
      <PublicCard title="This link no longer works" lead="It was used already, or more than an hour has passed since it was sent.">
        <Link to="/forgot-password" className={publicPrimaryClass}>
          Ask for a new link
        </Link>
      </PublicCard>
    );
  }
  return (
    <PublicCard
      title="Choose a new password"
      lead={<>For {loaderData.email}. Every session of this account will be signed out, and every API token of it revoked.</>}
      below={
        <Link to="/login" className={publicLinkClass}>
          Back to sign in
        </Link>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormSummary form={form} />
        <TextField label="New password" meta={fields.password} type="password" autoComplete="new-password" hint="At least 10 characters; not a common password." />
        <SubmitButton pendingText="Saving…">Save the new password</SubmitButton>
      </Form>
    </PublicCard>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
