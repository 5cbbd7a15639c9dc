import { getFormProps } from "@conform-to/react";
import { ChevronDown } from "~/components/icons/icon";
import { data, Form, redirect, useFetcher } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { pageTitle } from "~/components/app-shell";
import { Avatar } from "~/components/avatar";
import { ConfirmAction } from "~/components/confirm";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SelectField, SubmitButton, TextField } from "~/components/forms";
import { ChoiceForm, PopoverMenu, useChoice } from "~/components/menu";
import { dangerButtonClass, rowActionClass, SettingsSection, settingsListClass, settingsRowClass } from "~/components/settings-sections";
import { RelativeTime } from "~/components/time";
import { TimeUntil } from "~/components/time-until";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { appContext } from "~/context/app-context.server";
import { type InviteForm, membersSchema } from "~/workspaces/forms.server";
import { createInvitation, invitationLifetimeMs, invitationPath, listPendingInvitations, renewInvitation, revokeInvitation } from "~/workspaces/invitations.server";
import { changeRole, listMembers, removeMember } from "~/workspaces/members.server";
import { can, type Role, roleLabels, roles } from "~/workspaces/roles";
import type { Route } from "./+types/members";

export async function loader(args: Route.LoaderArgs) {
  const { user, workspace } = await requireWorkspace(args, "members:manage");
  const { db } = args.context.get(appContext);
  const now = new Date();
  const [members, invitations] = await Promise.all([listMembers(db, workspace.id), listPendingInvitations(db, workspace.id, now)]);
  const sendsMail = args.context.get(appContext).config.mail !== undefined;
  return { workspaceName: workspace.name, members, invitations, myId: user.id, isOwner: can(workspace.role, "owners:manage"), sendsMail };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("Members", loaderData?.workspaceName);

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
  const { mail: mailConfig } = services.config;
  const mail = mailConfig && { config: mailConfig, inviterName: user.name, workspaceName: workspace.name };
  const linkTo = (token: string) => new URL(invitationPath(token), args.url).toString();
  const days = invitationLifetimeMs / 86_400_000;

  switch (form.intent) {
    case "invite": {
      const invited = await createInvitation(services.db, {
        workspaceId: workspace.id,
        email: form.email,
        role: form.role,
        invitedBy: user.id,
        actorRole: workspace.role,
        now,
        mail,
      });
      if (!invited.ok) {
        const errors = invited.field ? { fieldErrors: { [invited.field]: [invited.message] } } : { formErrors: [invited.message] };
        return data(submission.reply(errors), { status: invited.status });
      }
      if (mail) return done(`Invitation mailed to ${form.email}. Its link works for ${days} days.`);
      return done(`Invitation created for ${form.email}. Send them this link; it works for ${days} days.`, linkTo(invited.token));
    }
    case "resend":
    case "new-link": {
      // Resend mails a new link; "Copy a new link" shows one (and is all there is without mail).
      const renewed = await renewInvitation(services.db, { workspaceId: workspace.id, invitationId: form.invitationId, now, mail: form.intent === "resend" ? mail : undefined });
      if (!renewed.ok) throw data(renewed.message, { status: renewed.status });
      if (form.intent === "resend" && mail) return done(`Invitation mailed again to ${renewed.email}; the earlier link no longer works.`);
      return done(`A new link for ${renewed.email}; the earlier one no longer works. Send them this one; it works for ${days} days.`, linkTo(renewed.token));
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

type Member = Route.ComponentProps["loaderData"]["members"][number];
type Invitation = Route.ComponentProps["loaderData"]["invitations"][number];

const refusalClass =
  "rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100";

export default function Members({ loaderData, actionData }: Route.ComponentProps) {
  const { members, invitations, myId, isOwner, sendsMail } = loaderData;
  const refusal = actionData && "refusal" in actionData ? actionData.refusal : null;
  const inviteResult = actionData && !("refusal" in actionData) ? actionData : undefined;
  const [inviteForm, inviteFields] = useRouteForm<InviteForm>({ id: "invite", lastResult: inviteResult, defaultValue: { role: "member" } });
  const assignable = roles.filter((role) => isOwner || role !== "owner");
  const roleOptions = assignable.map((role) => ({ value: role, label: roleLabels[role] }));

  return (
    <div className="space-y-10">
      {refusal ? (
        <p role="alert" className={refusalClass}>
          {refusal}
        </p>
      ) : null}

      <SettingsSection id="members-title" title={`Members (${members.length})`}>
        <ul className={settingsListClass}>
          {members.map((member) => (
            <MemberRow key={member.userId} member={member} isMe={member.userId === myId} manageable={isOwner || member.role !== "owner"} roleOptions={roleOptions} />
          ))}
        </ul>
      </SettingsSection>

      <SettingsSection id="invite-title" title="Invite member" description={sendsMail ? "They get a mail with a link to join, valid for 7 days." : "You get a link to send them, valid for 7 days."}>
        <Form method="post" {...getFormProps(inviteForm)} aria-labelledby="invite-title" className="space-y-3">
          <FormSummary form={inviteForm} />
          <div className="grid items-start gap-3 sm:grid-cols-[1fr_10rem]">
            <TextField label="Email" meta={inviteFields.email} type="email" autoComplete="off" />
            <SelectField label="Role" meta={inviteFields.role} options={roleOptions} />
          </div>
          <SubmitButton name="intent" value="invite" pendingText="Inviting…">
            Invite member
          </SubmitButton>
        </Form>
      </SettingsSection>

      <SettingsSection id="invitations-title" title="Pending invitations">
        {invitations.length ? (
          <ul className={settingsListClass}>
            {invitations.map((invitation) => (
              <InvitationRow key={invitation.id} invitation={invitation} sendsMail={sendsMail} />
            ))}
          </ul>
        ) : (
          <p className="text-zinc-700 dark:text-zinc-300">No invitations are waiting.</p>
        )}
      </SettingsSection>
    </div>
  );
}

/** A member: who, since when, their role as a menu, and Remove (asked first). Leaving is on the General page. */
function MemberRow({ member, isMe, manageable, roleOptions }: { member: Member; isMe: boolean; manageable: boolean; roleOptions: { value: string; label: string }[] }) {
  const fetcherKey = `role-${member.userId}`;
  const role = useChoice(fetcherKey, "role", member.role) as Role;
  const refusal = useFetcher<{ refusal?: string }>({ key: fetcherKey }).data?.refusal;
  return (
    <li aria-label={member.name} className={settingsRowClass}>
      <Avatar user={{ id: member.userId, name: member.name }} size="md" decorative />
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium">
          {member.name} {isMe ? <span className="font-normal text-zinc-600 dark:text-zinc-400">(you)</span> : null}
        </p>
        <p className="truncate text-[13px] text-zinc-600 dark:text-zinc-400">
          {member.email} · joined <RelativeTime at={member.created_at} />
        </p>
        {refusal ? (
          <p role="alert" className="text-[13px] text-red-700 dark:text-red-400">
            {refusal}
          </p>
        ) : null}
      </div>
      {manageable ? (
        <PopoverMenu
          label={`Role for ${member.name}: ${roleLabels[role]}`}
          triggerClassName={rowActionClass}
          trigger={
            <>
              {roleLabels[role]} <ChevronDown size={14} aria-hidden="true" />
            </>
          }
        >
          {(close) => (
            <ChoiceForm
              fetcherKey={fetcherKey}
              title={`Role for ${member.name}`}
              name="role"
              current={role}
              choices={roleOptions}
              hidden={{ intent: "change-role", userId: member.userId }}
              onSubmitted={close}
            />
          )}
        </PopoverMenu>
      ) : (
        <span className="px-2 text-[13px] font-medium text-zinc-700 dark:text-zinc-300">{roleLabels[member.role]}</span>
      )}
      {manageable && !isMe ? (
        <ConfirmAction
          name={`remove-${member.userId}`}
          label={
            <>
              Remove<span className="sr-only"> {member.name}</span>
            </>
          }
          title={`Remove ${member.name}?`}
          message={`${member.name} loses access to this workspace's projects and issues. You can invite them again later.`}
          triggerClassName={rowActionClass}
        >
          <Form method="post">
            <input type="hidden" name="userId" value={member.userId} />
            <button type="submit" name="intent" value="remove" className={dangerButtonClass}>
              Remove member
            </button>
          </Form>
        </ConfirmAction>
      ) : null}
    </li>
  );
}

/** A pending invitation: to whom, its role and age; Resend (when Cairn mails), a new link to copy, Revoke (asked first). */
function InvitationRow({ invitation, sendsMail }: { invitation: Invitation; sendsMail: boolean }) {
  return (
    <li aria-label={invitation.email} className={settingsRowClass}>
      {/* At least 12rem for whom and when: on a phone the three actions go to a line of their own. */}
      <div className="min-w-0 flex-1 basis-48">
        <p className="truncate">{invitation.email}</p>
        <p className="text-[13px] text-zinc-600 dark:text-zinc-400">
          {roleLabels[invitation.role]} · sent <RelativeTime at={invitation.created_at} /> · expires <TimeUntil at={invitation.expires_at} />
        </p>
      </div>
      <Form method="post" className="flex gap-2">
        <input type="hidden" name="invitationId" value={invitation.id} />
        {sendsMail ? (
          <button type="submit" name="intent" value="resend" className={rowActionClass}>
            Resend<span className="sr-only"> the invitation to {invitation.email}</span>
          </button>
        ) : null}
        <button type="submit" name="intent" value="new-link" className={rowActionClass}>
          New link<span className="sr-only"> for {invitation.email}</span>
        </button>
      </Form>
      <ConfirmAction
        name={`revoke-${invitation.id}`}
        label={
          <>
            Revoke<span className="sr-only"> the invitation for {invitation.email}</span>
          </>
        }
        title={`Revoke the invitation for ${invitation.email}?`}
        message="Its link stops working. You can invite them again later."
        triggerClassName={rowActionClass}
      >
        <Form method="post">
          <input type="hidden" name="invitationId" value={invitation.id} />
          <button type="submit" name="intent" value="revoke" className={dangerButtonClass}>
            Revoke invitation
          </button>
        </Form>
      </ConfirmAction>
    </li>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
