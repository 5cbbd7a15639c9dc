import { useFetcher } from "react-router";
import type { InvitationForYou } from "~/workspaces/invitations.server";
import { roleLabels } from "~/workspaces/roles";
import { primaryButtonClass } from "./app-shell";

/**
 * The invitations waiting for the signed-in person, where someone without a workspace lands
 * ("Create workspace", the workspace picker), each with "Join": a POST form (intent=accept-invitation)
 * to "Create workspace", which works without JavaScript (a refusal comes back on that page, with the
 * invitations left: `refusal`) and goes through a fetcher with it (the refusal shows in place).
 */
export function PendingInvitations({ invitations, refusal }: { invitations: InvitationForYou[]; refusal?: string }) {
  const fetcher = useFetcher<{ invitationRefusal?: string }>({ key: "accept-invitation" });
  if (!invitations.length) return null;
  const message = fetcher.data ? fetcher.data.invitationRefusal : refusal;
  const joining = fetcher.state === "idle" ? undefined : fetcher.formData?.get("invitationId");
  return (
    <section aria-labelledby="pending-invitations-title" className="rounded-md border border-indigo-200 bg-indigo-50/60 p-3 dark:border-indigo-900 dark:bg-indigo-950/40">
      <h2 id="pending-invitations-title" className="text-sm font-semibold">
        {invitations.length === 1 ? "You are invited to a workspace" : `You are invited to ${invitations.length} workspaces`}
      </h2>
      {message ? (
        <p role="alert" className="alert mt-2">
          {message}
        </p>
      ) : null}
      <ul className="mt-2 space-y-2">
        {invitations.map((invitation) => (
          <li key={invitation.id} aria-label={invitation.workspace} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
            <p className="min-w-0 text-sm">
              <span className="block truncate font-medium">{invitation.workspace}</span>
              <span className="block text-[13px] text-zinc-600 dark:text-zinc-400">
                {invitation.invitedBy ? `${invitation.invitedBy} invited you` : "You are invited"} as {roleLabels[invitation.role].toLowerCase()}.
              </span>
            </p>
            <fetcher.Form method="post" action="/w/new">
              <input type="hidden" name="invitationId" value={invitation.id} />
              <button type="submit" name="intent" value="accept-invitation" aria-disabled={joining !== undefined || undefined} className={primaryButtonClass}>
                {joining === String(invitation.id) ? "Joining…" : "Join"}
                <span className="sr-only"> {invitation.workspace}</span>
              </button>
            </fetcher.Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
