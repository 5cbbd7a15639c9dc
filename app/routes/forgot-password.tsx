import { getFormProps } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { type ForgotPasswordForm, forgotPasswordSchema } from "~/auth/forms.server";
import { requestPasswordReset, resetLinkLifetimeMs } from "~/auth/password-resets.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { publicLinkClass, PublicCard } from "~/components/public-card";
import { appContext } from "~/context/app-context.server";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { tooManyAttemptsMessage } from "~/security/sliding-window.server";
import type { Route } from "./+types/forgot-password";

const noMailMessage = "This Cairn does not send mail. Ask your instance admin for a link to choose a new password.";

export function loader({ context }: Route.LoaderArgs) {
  return { sendsMail: context.get(appContext).config.mail !== undefined };
}

export const meta: Route.MetaFunction = () => pageTitle("Forgot password");

/**
 * Mails a reset link when an account has this email, and answers the same either way: back to
 * sign-in, saying where the link went if there is such an account.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const submission = await parseForm(request, forgotPasswordSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { mail } = services.config;
  if (!mail) return data(submission.reply({ formErrors: [noMailMessage] }), { status: 409 });
  const { email } = submission.value;
  const requested = await requestPasswordReset(services, { email, ip: services.clientIp, mail, now: new Date() });
  if ("retryAfter" in requested) {
    return data(submission.reply({ formErrors: [tooManyAttemptsMessage(requested.retryAfter)] }), {
      status: 429,
      headers: { "Retry-After": String(requested.retryAfter) },
    });
  }
  const hours = resetLinkLifetimeMs / 3_600_000;
  const flash = { text: `If an account uses ${email}, a link to choose a new password is on its way there. It works for ${hours === 1 ? "an hour" : `${hours} hours`}.` };
  return redirect("/login", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, flash) } });
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useRouteForm<ForgotPasswordForm>({ lastResult: actionData });
  return (
    <PublicCard
      title="Forgot your password?"
      lead={loaderData.sendsMail ? "Enter your account's email, and we will mail you a link to choose a new password." : undefined}
      below={
        <>
          Remembered it?{" "}
          <Link to="/login" className={publicLinkClass}>
            Sign in
          </Link>
        </>
      }
    >
      {loaderData.sendsMail ? (
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormSummary form={form} />
          <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
          <SubmitButton pendingText="Sending…">Send the link</SubmitButton>
        </Form>
      ) : (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{noMailMessage}</p>
      )}
    </PublicCard>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
