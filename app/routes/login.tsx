import { getFormProps } from "@conform-to/react";
import { data, Form, Link } from "react-router";
import { redirectIfSignedIn } from "~/auth/authorization.server";
import { incorrectCredentialsMessage, type LoginForm, loginSchema } from "~/auth/forms.server";
import { safeRedirect } from "~/auth/safe-redirect";
import { checkSignIn, signInAndRedirect } from "~/auth/sign-in.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { publicLinkClass, PublicCard } from "~/components/public-card";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import { tooManyAttemptsMessage } from "~/security/sliding-window.server";
import type { Route } from "./+types/login";

export function loader(args: Route.LoaderArgs) {
  redirectIfSignedIn(args);
  return { redirectTo: args.url.searchParams.get("redirectTo") ?? "" };
}

export const meta: Route.MetaFunction = () => pageTitle("Sign in");

export async function action(args: Route.ActionArgs) {
  redirectIfSignedIn(args);
  const { request, context } = args;
  const services = context.get(appContext);
  const submission = await parseForm(request, loginSchema);
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });

  const { email, password, redirectTo } = submission.value;
  const checked = await checkSignIn(services, { email, password, ip: services.clientIp, now: new Date() });
  if ("retryAfter" in checked) {
    return data(submission.reply({ formErrors: [tooManyAttemptsMessage(checked.retryAfter)], hideFields: ["password"] }), {
      status: 429,
      headers: { "Retry-After": String(checked.retryAfter) },
    });
  }
  if ("incorrect" in checked) {
    return data(submission.reply({ formErrors: [incorrectCredentialsMessage], hideFields: ["password"] }), { status: 400 });
  }
  return signInAndRedirect(services, request, checked.userId, safeRedirect(redirectTo, "/"));
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo } = loaderData;
  const [form, fields] = useRouteForm<LoginForm>({ lastResult: actionData });
  return (
    <PublicCard
      title="Sign in"
      lead="Welcome back."
      below={
        <>
          No account yet?{" "}
          <Link to={redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : "/signup"} className={publicLinkClass}>
            Create account
          </Link>
        </>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormSummary form={form} />
        <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
        <TextField label="Password" meta={fields.password} type="password" autoComplete="current-password" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
        <p className="text-sm">
          <Link to="/forgot-password" className={publicLinkClass}>
            Forgot password?
          </Link>
        </p>
      </Form>
    </PublicCard>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
