import { getFormProps } from "@conform-to/react";
import { data, Form, redirect } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SelectField, SubmitButton, TextField } from "~/components/forms";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/host/app-context.server";
import { type InviteForm, membersSchema } from "~/workspaces/forms.server";
import { createInvitation, listPendingInvitations, revokeInvitation } from "~/workspaces/invitations.server";
import { changeRole, listMembers, removeMember } from "~/workspaces/members.server";
import { can, type Role, roleLabels, roles } from "~/workspaces/roles";
import type { Route } from "./+types/members";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace } = await requireWorkspace(args, "members:manage");
  const { db } = args.context.get(appContext);
  const now = new Date();
  const [members, invitations] = await Promise.all([listMembers(db, workspace.id), listPendingInvitations(db, workspace.id, now)]);
  return { members, invitations, myId: user.id, isOwner: can(workspace.role, "owners:manage") };
}

export async function action(args: Route.ActionArgs) {
  const { user, workspace } = await requireWorkspace(args, "members:manage");
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, membersSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });

  const form = submission.value;
  const now = new Date();
  const here = `/w/${workspace.slug}/settings/members`;
  const done = async (text: string, link?: string) =>
    redirect(here, { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text, link }) } });

  switch (form.intent) {
    case "invite": {
      const invited = await createInvitation(services.db, {
        workspaceId: workspace.id,
        email: form.email,
        role: form.role,
        invitedBy: user.id,
        actorRole: workspace.role,
        now,
      });
      if (!invited.ok) {
        const errors = invited.field ? { fieldErrors: { [invited.field]: [invited.message] } } : { formErrors: [invited.message] };
        return data(submission.reply(errors), { status: invited.status });
      }
      const link = new URL(`/invitations/${invited.token}`, args.url).toString();
      return done(`Invitation created for ${form.email}. Send them this link; it works for 7 days.`, link);
    }
    case "change-role": {
      const changed = await changeRole(services.db, { workspaceId: workspace.id, actorRole: workspace.role, userId: form.userId, role: form.role, now });
      if (!changed.ok) return data({ refusal: changed.message }, { status: changed.status });
      return done("Role changed.");
    }
    case "remove": {
      const removed = await removeMember(services.db, { workspaceId: workspace.id, actorRole: workspace.role, userId: form.userId, actorId: user.id });
      if (!removed.ok) return data({ refusal: removed.message }, { status: removed.status });
      return form.userId === user.id ? redirect("/") : done("Member removed.");
    }
    case "revoke": {
      const revoked = await revokeInvitation(services.db, workspace.id, form.invitationId, now);
      if (!revoked) throw data("Invitation not found.", { status: 404 });
      return done("Invitation revoked.");
    }
  }
}

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });

export default function Members({ loaderData, actionData }: Route.ComponentProps) {
  const { members, invitations, myId, isOwner } = loaderData;
  const refusal = actionData && "refusal" in actionData ? actionData.refusal : null;
  const inviteResult = actionData && !("refusal" in actionData) ? actionData : undefined;
  const [inviteForm, inviteFields] = useRouteForm<InviteForm>({ id: "invite", lastResult: inviteResult, defaultValue: { role: "member" } });
  const assignable = roles.filter((role) => isOwner || role !== "owner");
  const roleOptions = assignable.map((role) => ({ value: role, label: roleLabels[role] }));

  return (
    <div className="space-y-10">
      {refusal ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {refusal}
        </p>
      ) : null}

      <section aria-labelledby="members-title">
        <h2 id="members-title" className="text-lg font-semibold">
          Members ({members.length})
        </h2>
        <ul className="mt-3 divide-y divide-zinc-200 rounded border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {members.map((member) => {
            const manageable = isOwner || member.role !== "owner";
            return (
              <li key={member.userId} aria-label={member.name} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div>
                  <p className="font-medium">
                    {member.name} {member.userId === myId ? <span className="text-sm text-zinc-600 dark:text-zinc-400">(you)</span> : null}
                  </p>
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">{member.email}</p>
                </div>
                {manageable ? (
                  <Form method="post" className="flex items-center gap-2">
                    <input type="hidden" name="userId" value={member.userId} />
                    <label className="sr-only" htmlFor={`role-${member.userId}`}>
                      Role for {member.name}
                    </label>
                    <select
                      id={`role-${member.userId}`}
                      name="role"
                      defaultValue={member.role}
                      className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
                    >
                      {roleOptions.map((option) => (
                        <option key={option.value} value={option.value}>
                          {option.label}
                        </option>
                      ))}
                    </select>
                    <SubmitButton name="intent" value="change-role" match={{ userId: member.userId }} variant="secondary">
                      Change role
                    </SubmitButton>
                    <SubmitButton name="intent" value="remove" match={{ userId: member.userId }} variant="secondary">
                      {member.userId === myId ? "Leave" : "Remove"}
                    </SubmitButton>
                  </Form>
                ) : (
                  <span className="text-sm">{roleLabels[member.role as Role]}</span>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="invite-title" className="max-w-xl">
        <h2 id="invite-title" className="text-lg font-semibold">
          Invite member
        </h2>
        <Form method="post" {...getFormProps(inviteForm)} className="mt-3 space-y-4">
          <FormSummary form={inviteForm} />
          <TextField label="Email" meta={inviteFields.email} type="email" autoComplete="off" />
          <SelectField label="Role" meta={inviteFields.role} options={roleOptions} />
          <SubmitButton name="intent" value="invite" pendingText="Inviting…">
            Invite member
          </SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="invitations-title">
        <h2 id="invitations-title" className="text-lg font-semibold">
          Pending invitations
        </h2>
        {invitations.length ? (
          <ul className="mt-3 divide-y divide-zinc-200 rounded border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
            {invitations.map((invitation) => (
              <li key={invitation.id} aria-label={invitation.email} className="flex items-center justify-between gap-3 px-4 py-3">
                <p>
                  {invitation.email} · {roleLabels[invitation.role as Role]}{" "}
                  <span className="text-sm text-zinc-600 dark:text-zinc-400">· expires {dateFormat.format(new Date(invitation.expires_at))}</span>
                </p>
                <Form method="post">
                  <input type="hidden" name="invitationId" value={invitation.id} />
                  <SubmitButton name="intent" value="revoke" match={{ invitationId: invitation.id }} variant="secondary">
                    Revoke
                  </SubmitButton>
                </Form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-zinc-700 dark:text-zinc-300">No invitations are waiting.</p>
        )}
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
