import { data, Form, Link, redirect } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { currentUserContext } from "~/auth/current-user.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { SubmitButton } from "~/components/forms";
import { NarrowPage } from "~/components/narrow-page";
import { flashHeader } from "~/flash/flash.server";
import { appContext } from "~/host/app-context.server";
import { acceptInvitation, findInvitation, type InvitationStatus } from "~/workspaces/invitations.server";
import { roleLabels } from "~/workspaces/roles";
import type { Route } from "./+types/invitations.$token";

export async function loader({ params, context }: Route.LoaderArgs) {
  const invitation = await findInvitation(context.get(appContext).db, params.token, new Date());
  if (!invitation) throw data("Invitation not found.", { status: 404 });
  const user = context.get(currentUserContext);
  return {
    invitation: { email: invitation.email, role: invitation.role, status: invitation.status, workspace: invitation.workspace.name },
    signedInAs: user?.email ?? null,
  };
}

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const accepted = await acceptInvitation(services.db, { token: args.params.token, user, now: new Date() });
  if (!accepted.ok) return data({ error: accepted.message }, { status: 400 });
  return redirect(`/w/${accepted.slug}`, {
    headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text: "Welcome! You joined the workspace." }) },
  });
}

const statusMessages: Record<Exclude<InvitationStatus, "pending">, string> = {
  accepted: "This invitation has already been accepted.",
  revoked: "This invitation was revoked. Ask for a new one.",
  expired: "This invitation has expired. Ask for a new one.",
};

export default function Invitation({ loaderData, actionData, params }: Route.ComponentProps) {
  const { invitation, signedInAs } = loaderData;
  const here = `/invitations/${params.token}`;
  return (
    <NarrowPage title={`Join ${invitation.workspace}`}>
      <p className="text-zinc-700 dark:text-zinc-300">
        {invitation.email} is invited to <strong>{invitation.workspace}</strong> as {roleLabels[invitation.role].toLowerCase()}.
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-4 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {actionData.error}
        </p>
      ) : null}
      <div className="mt-6">
        {invitation.status !== "pending" ? (
          <p role="alert">{statusMessages[invitation.status]}</p>
        ) : signedInAs === invitation.email ? (
          <Form method="post">
            <SubmitButton pendingText="Joining…">Accept invitation</SubmitButton>
          </Form>
        ) : signedInAs ? (
          <p>
            You are signed in as {signedInAs}. Sign out, then sign in as {invitation.email} to accept this invitation.
          </p>
        ) : (
          <div className="flex gap-3">
            <Link
              to={`/signup?${new URLSearchParams({ invitation: params.token })}`}
              className="rounded bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800"
            >
              Create account
            </Link>
            <Link
              to={`/login?${new URLSearchParams({ redirectTo: here })}`}
              className="rounded border border-zinc-300 px-4 py-2 font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-900"
            >
              Sign in
            </Link>
          </div>
        )}
      </div>
    </NarrowPage>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
