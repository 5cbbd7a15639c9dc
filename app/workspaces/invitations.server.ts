import type { Transaction } from "kysely";
import { hashToken, newToken } from "~/auth/tokens.server";
import type { MailConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import type { DB, Role } from "~/db/schema";
import { enqueueJob } from "~/jobs/jobs.server";
import { roleLabels } from "./roles";
import { lockWorkspace, maxMembersPerWorkspace, memberCount, onlyOwnersMessage } from "./members.server";

/** docs/product.md, Limits. */
export const invitationLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

function statusOf(invitation: { accepted_at: string | null; revoked_at: string | null; expires_at: string }, now: Date): InvitationStatus {
  if (invitation.accepted_at) return "accepted";
  if (invitation.revoked_at) return "revoked";
  return new Date(invitation.expires_at) <= now ? "expired" : "pending";
}

export type InvitationResult = { ok: true; token: string } | { ok: false; field?: "email" | "role"; status: 400 | 403; message: string };

/** How an invitation is mailed (when the instance sends mail): the sender and the workspace, by name. */
export type InvitationMail = { config: MailConfig; inviterName: string; workspaceName: string };

/** The path of an invitation's link. */
export const invitationPath = (token: string) => `/invitations/${token}`;

/** Puts the invitation's mail in the outbox, in the transaction that made its token. */
async function mailInvitation(trx: Transaction<DB>, mail: InvitationMail, invitation: { email: string; role: Role; token: string; now: Date }) {
  const link = `${mail.config.publicUrl}${invitationPath(invitation.token)}`;
  await enqueueJob(trx, {
    kind: "mail",
    now: invitation.now,
    payload: {
      to: invitation.email,
      subject: `${mail.inviterName} invited you to ${mail.workspaceName} on Cairn`,
      text: [
        `${mail.inviterName} invited you to join the workspace ${mail.workspaceName} on Cairn, as ${roleLabels[invitation.role].toLowerCase()}.`,
        "",
        `Accept the invitation here. The link works for ${invitationLifetimeMs / 86_400_000} days:`,
        link,
        "",
        "If you did not expect it, ignore this mail.",
      ].join("\n"),
    },
  });
}

/**
 * Invites someone by email. With `mail` the invitation is mailed to them (through the outbox);
 * either way the returned token makes the link, which the inviter may pass on themselves.
 */
export async function createInvitation(
  db: Database,
  invitation: { workspaceId: number; email: string; role: Role; invitedBy: number; actorRole: Role; now: Date; mail?: InvitationMail },
): Promise<InvitationResult> {
  if (invitation.role === "owner" && invitation.actorRole !== "owner") {
    return { ok: false, field: "role", status: 403, message: onlyOwnersMessage };
  }
  const alreadyMember = await db
    .selectFrom("memberships")
    .innerJoin("users", "users.id", "memberships.user_id")
    .select("memberships.id")
    .where("memberships.workspace_id", "=", invitation.workspaceId)
    .where("users.email", "=", invitation.email)
    .executeTakeFirst();
  if (alreadyMember) return { ok: false, field: "email", status: 400, message: "This person is already a member." };
  if ((await memberCount(db, invitation.workspaceId)) >= maxMembersPerWorkspace) {
    return { ok: false, status: 400, message: `A workspace can have at most ${maxMembersPerWorkspace} members.` };
  }
  const token = newToken();
  const now = invitation.now.toISOString();
  await db.transaction().execute(async (trx) => {
    // A new invitation replaces a pending one for the same email.
    await trx
      .updateTable("invitations")
      .set({ revoked_at: now })
      .where("workspace_id", "=", invitation.workspaceId)
      .where("email", "=", invitation.email)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .execute();
    await trx
      .insertInto("invitations")
      .values({
        workspace_id: invitation.workspaceId,
        email: invitation.email,
        role: invitation.role,
        token_hash: hashToken(token),
        invited_by: invitation.invitedBy,
        expires_at: new Date(invitation.now.getTime() + invitationLifetimeMs).toISOString(),
        created_at: now,
      })
      .execute();
    if (invitation.mail) await mailInvitation(trx, invitation.mail, { email: invitation.email, role: invitation.role, token, now: invitation.now });
  });
  return { ok: true, token };
}

/**
 * A pending invitation of this workspace gets a new link, valid 7 days from now; its earlier link
 * stops working. With `mail` it is mailed again ("Resend"); without, the caller shows the link.
 */
export async function renewInvitation(
  db: Database,
  renewal: { workspaceId: number; invitationId: number; now: Date; mail?: InvitationMail },
): Promise<{ ok: true; token: string; email: string } | { ok: false; status: 404; message: string }> {
  const token = newToken();
  const now = renewal.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const renewed = await trx
      .updateTable("invitations")
      .set({ token_hash: hashToken(token), expires_at: new Date(renewal.now.getTime() + invitationLifetimeMs).toISOString() })
      .where("id", "=", renewal.invitationId)
      .where("workspace_id", "=", renewal.workspaceId)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .returning(["email", "role"])
      .executeTakeFirst();
    if (!renewed) return { ok: false, status: 404, message: "Invitation not found." } as const;
    if (renewal.mail) await mailInvitation(trx, renewal.mail, { email: renewed.email, role: renewed.role, token, now: renewal.now });
    return { ok: true, token, email: renewed.email } as const;
  });
}

export function listPendingInvitations(db: Database, workspaceId: number, now: Date) {
  return db
    .selectFrom("invitations")
    .select(["id", "email", "role", "expires_at", "created_at"])
    .where("workspace_id", "=", workspaceId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .orderBy("created_at", "desc")
    .execute();
}

/** A pending invitation as its invitee sees it listed (where someone without a workspace lands). */
export type InvitationForYou = { id: number; role: Role; workspace: string; invitedBy: string | null };

/** The pending invitations for an email, newest first: at most 20, which is more than anyone waits on. */
export function listInvitationsFor(db: Database, email: string, now: Date): Promise<InvitationForYou[]> {
  return db
    .selectFrom("invitations")
    .innerJoin("workspaces", "workspaces.id", "invitations.workspace_id")
    .leftJoin("users as inviter", "inviter.id", "invitations.invited_by")
    .select(["invitations.id", "invitations.role", "workspaces.name as workspace", "inviter.name as invitedBy"])
    .where("invitations.email", "=", email)
    .where("invitations.accepted_at", "is", null)
    .where("invitations.revoked_at", "is", null)
    .where("invitations.expires_at", ">", now.toISOString())
    .orderBy("invitations.created_at", "desc")
    .orderBy("invitations.id", "desc")
    .limit(20)
    .execute();
}

/** Returns whether a pending invitation of this workspace was revoked. */
export async function revokeInvitation(db: Database, workspaceId: number, invitationId: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("invitations")
    .set({ revoked_at: now.toISOString() })
    .where("id", "=", invitationId)
    .where("workspace_id", "=", workspaceId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type InvitationView = {
  id: number;
  email: string;
  role: Role;
  status: InvitationStatus;
  workspace: { id: number; slug: string; name: string };
};

export function findInvitation(db: Database, token: string, now: Date): Promise<InvitationView | null> {
  return findInvitationBy(db, { token }, now);
}

/** An invitation by its link's token, or by its id (one listed for its invitee: listInvitationsFor). */
async function findInvitationBy(db: Database, key: { token: string } | { id: number }, now: Date): Promise<InvitationView | null> {
  const row = await db
    .selectFrom("invitations")
    .innerJoin("workspaces", "workspaces.id", "invitations.workspace_id")
    .select([
      "invitations.id",
      "invitations.email",
      "invitations.role",
      "invitations.accepted_at",
      "invitations.revoked_at",
      "invitations.expires_at",
      "workspaces.id as workspaceId",
      "workspaces.slug",
      "workspaces.name",
    ])
    .where((eb) => ("token" in key ? eb("invitations.token_hash", "=", hashToken(key.token)) : eb("invitations.id", "=", key.id)))
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: statusOf(row, now),
    workspace: { id: row.workspaceId, slug: row.slug, name: row.name },
  };
}

export type InvitationLink = {
  status: InvitationStatus;
  /** For the invitee only. */
  details: { email: string; role: Role; workspace: string } | null;
};

/**
 * What an invitation link shows whoever opens it: its email, workspace and role only to the
 * invitee — signed in with that email, or signed out while no account has it (they can sign up
 * with it). Anyone else who holds the link learns only whether it is still pending.
 */
export async function openInvitationLink(
  db: Database,
  link: { token: string; viewer: { email: string } | null; now: Date },
): Promise<InvitationLink | null> {
  const invitation = await findInvitation(db, link.token, link.now);
  if (!invitation) return null;
  const isInvitee = link.viewer
    ? link.viewer.email === invitation.email
    : !(await db.selectFrom("users").select("id").where("email", "=", invitation.email).executeTakeFirst());
  return {
    status: invitation.status,
    details: isInvitee ? { email: invitation.email, role: invitation.role, workspace: invitation.workspace.name } : null,
  };
}

export type AcceptResult = { ok: true; slug: string } | { ok: false; message: string };

const workspaceFullMessage = `This workspace has reached its limit of ${maxMembersPerWorkspace} members. Ask an admin to make room.`;

/**
 * Accepts a pending invitation, named by its link's token or by its id, for a user whose email
 * matches it.
 */
export async function acceptInvitation(
  db: Database,
  acceptance: ({ token: string } | { invitationId: number }) & { user: { id: number; email: string }; now: Date },
): Promise<AcceptResult> {
  const key = "token" in acceptance ? { token: acceptance.token } : { id: acceptance.invitationId };
  return db.transaction().execute(async (trx) => {
    const invitation = await findInvitationBy(trx, key, acceptance.now);
    if (!invitation || invitation.status !== "pending") {
      return { ok: false, message: "This invitation is no longer valid. Ask for a new one." };
    }
    if (invitation.email !== acceptance.user.email) {
      // Not naming the invitee: whoever this is only holds the link.
      return { ok: false, message: "This invitation is for another email address. Sign in with the one it was sent to." };
    }
    await lockWorkspace(trx, invitation.workspace.id);
    if ((await memberCount(trx, invitation.workspace.id)) >= maxMembersPerWorkspace) return { ok: false, message: workspaceFullMessage };
    const now = acceptance.now.toISOString();
    const updated = await trx
      .updateTable("invitations")
      .set({ accepted_at: now })
      .where("id", "=", invitation.id)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return { ok: false, message: "This invitation is no longer valid. Ask for a new one." };
    await trx
      .insertInto("memberships")
      .values({ workspace_id: invitation.workspace.id, user_id: acceptance.user.id, role: invitation.role, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(["workspace_id", "user_id"]).doNothing())
      .execute();
    await trx.updateTable("users").set({ last_workspace_id: invitation.workspace.id }).where("id", "=", acceptance.user.id).execute();
    return { ok: true, slug: invitation.workspace.slug };
  });
}
