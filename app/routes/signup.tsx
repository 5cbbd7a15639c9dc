import { getFormProps } from "@conform-to/react";
import { data, Form, Link } from "react-router";
import { signUp } from "~/auth/accounts.server";
import { redirectIfSignedIn } from "~/auth/authorization.server";
import { type SignupForm, signupSchema } from "~/auth/forms.server";
import { safeRedirect } from "~/auth/safe-redirect";
import { signInAndRedirect } from "~/auth/sign-in.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { publicLinkClass, PublicCard } from "~/components/public-card";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import { tooManyAttemptsMessage } from "~/security/sliding-window.server";
import { acceptInvitation, openInvitationLink } from "~/workspaces/invitations.server";
import type { Route } from "./+types/signup";

export async function loader(args: Route.LoaderArgs) {
  redirectIfSignedIn(args);
  const url = args.url;
  const invitationToken = url.searchParams.get("invitation");
  const invitation = invitationToken
    ? await openInvitationLink(args.context.get(appContext).db, { token: invitationToken, viewer: null, now: new Date() })
    : null;
  return {
    redirectTo: url.searchParams.get("redirectTo") ?? "",
    invitation:
      invitation?.status === "pending" && invitation.details
        ? { token: invitationToken!, email: invitation.details.email, workspace: invitation.details.workspace }
        : null,
  };
}

export const meta: Route.MetaFunction = () => pageTitle("Create account");

export async function action(args: Route.ActionArgs) {
  redirectIfSignedIn(args);
  const { request, context } = args;
  const services = context.get(appContext);
  const submission = await parseForm(request, signupSchema);
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });

  const { name, email, handle, password, invitation, redirectTo } = submission.value;
  const now = new Date();
  const created = await signUp(services, { name, email, handle, password, ip: services.clientIp, now });
  if ("retryAfter" in created) {
    return data(submission.reply({ formErrors: [tooManyAttemptsMessage(created.retryAfter)], hideFields: ["password"] }), {
      status: 429,
      headers: { "Retry-After": String(created.retryAfter) },
    });
  }
  if ("field" in created) {
    return data(submission.reply({ fieldErrors: { [created.field]: [created.message] }, hideFields: ["password"] }), { status: 400 });
  }
  let to = safeRedirect(redirectTo, "/w/new");
  if (invitation) {
    const accepted = await acceptInvitation(services.db, { token: invitation, user: { id: created.userId, email }, now });
    if (accepted.ok) to = `/w/${accepted.slug}`;
  }
  return signInAndRedirect(services, request, created.userId, to);
}

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const { invitation, redirectTo } = loaderData;
  const [form, fields] = useRouteForm<SignupForm>({
    lastResult: actionData,
    defaultValue: { email: invitation?.email },
  });
  return (
    <PublicCard
      title="Create account"
      lead={
        invitation ? (
          <>
            You are invited to <strong>{invitation.workspace}</strong>. Create your account with {invitation.email} to join.
          </>
        ) : (
          "Track your team's issues on your own server."
        )
      }
      below={
        <>
          Already have an account?{" "}
          <Link to={redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : "/login"} className={publicLinkClass}>
            Sign in
          </Link>
        </>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormSummary form={form} />
        <TextField label="Name" meta={fields.name} autoComplete="name" />
        <TextField label="Email" meta={fields.email} type="email" autoComplete="email" />
        <TextField
          label="Password"
          meta={fields.password}
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters; not a common password."
        />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {invitation ? <input type="hidden" name="invitation" value={invitation.token} /> : null}
        <SubmitButton pendingText="Creating account…">Create account</SubmitButton>
      </Form>
    </PublicCard>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
