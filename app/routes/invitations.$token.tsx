import { data, Form, Link } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { currentUserContext } from "~/auth/current-user.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { SubmitButton } from "~/components/forms";
import { PublicCard, publicPrimaryClass, publicSecondaryClass } from "~/components/public-card";
import { appContext } from "~/context/app-context.server";
import { acceptInvitation, type InvitationStatus, openInvitationLink } from "~/workspaces/invitations.server";
import { redirectToJoined } from "~/workspaces/join.server";
import { roleLabels } from "~/workspaces/roles";
import type { Route } from "./+types/invitations.$token";

/** The invitation's email, workspace and role go only to the invitee (see openInvitationLink). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const user = context.get(currentUserContext);
  const invitation = await openInvitationLink(context.get(appContext).db, { token: params.token, viewer: user, now: new Date() });
  if (!invitation) throw data("Invitation not found.", { status: 404 });
  return { invitation, signedInAs: user?.email ?? null };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const workspace = loaderData?.invitation.details?.workspace;
  return pageTitle(workspace ? `Join ${workspace}` : "Invitation");
};

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const accepted = await acceptInvitation(services.db, { token: args.params.token, user, now: new Date() });
  if (!accepted.ok) return data({ error: accepted.message }, { status: 400 });
  return redirectToJoined(services, accepted.slug);
}

const statusMessages: Record<Exclude<InvitationStatus, "pending">, string> = {
  accepted: "This invitation has already been accepted.",
  revoked: "This invitation was revoked. Ask for a new one.",
  expired: "This invitation has expired. Ask for a new one.",
};

export default function Invitation({ loaderData, actionData, params }: Route.ComponentProps) {
  const { invitation, signedInAs } = loaderData;
  const { details } = invitation;
  const here = `/invitations/${params.token}`;
  const signInLink = (
    <Link
      to={`/login?${new URLSearchParams({ redirectTo: here })}`}
      className={publicSecondaryClass}
    >
      Sign in
    </Link>
  );
  return (
    <PublicCard
      title={details ? `Join ${details.workspace}` : "Invitation"}
      lead={
        details ? (
          <>
            {details.email} is invited to <strong>{details.workspace}</strong> as {roleLabels[details.role].toLowerCase()}.
          </>
        ) : undefined
      }
    >
      {actionData?.error ? (
        <p role="alert" className="mb-4 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {actionData.error}
        </p>
      ) : null}
      <div>
        {invitation.status !== "pending" ? (
          <p role="alert">{statusMessages[invitation.status]}</p>
        ) : details && signedInAs ? (
          <Form method="post">
            <SubmitButton pendingText="Joining…">Accept invitation</SubmitButton>
          </Form>
        ) : details ? (
          <div className="flex flex-wrap gap-3">
            <Link
              to={`/signup?${new URLSearchParams({ invitation: params.token })}`}
              className={publicPrimaryClass}
            >
              Create account
            </Link>
            {signInLink}
          </div>
        ) : signedInAs ? (
          <div className="space-y-4">
            <p>
              This invitation is for another email address. You are signed in as {signedInAs}. To accept it, sign out, then
              open this link again and sign in with the email it was sent to.
            </p>
            <Form method="post" action="/logout">
              <SubmitButton variant="secondary">Sign out</SubmitButton>
            </Form>
          </div>
        ) : (
          <div className="space-y-4 text-sm">
            <p>Sign in to see this invitation.</p>
            <div className="flex">{signInLink}</div>
          </div>
        )}
      </div>
    </PublicCard>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
