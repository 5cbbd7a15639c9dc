import { data, redirect } from "react-router";
import { z } from "zod";
import type { AppServices } from "~/context/app-context.server";
import { flashHeader } from "~/flash/flash.server";
import { idField } from "~/forms/fields.server";
import { parseForm } from "~/forms/parse-form.server";
import { acceptInvitation } from "./invitations.server";

/** Where joining a workspace by an invitation lands: the workspace, greeted. */
export async function redirectToJoined(services: AppServices, slug: string) {
  return redirect(`/w/${slug}`, { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text: "Welcome! You joined the workspace." }) } });
}

const acceptListedSchema = z.object({ intent: z.literal("accept-invitation"), invitationId: idField });

/**
 * "Join" beside an invitation listed for the signed-in person ("Create workspace", the workspace
 * picker, both posting to /w/new): intent=accept-invitation. A refusal (revoked or expired
 * meanwhile, the workspace full, someone else's invitation) answers 400 with its message.
 */
export async function acceptListedInvitation(services: AppServices, request: Request, user: { id: number; email: string }) {
  const submission = await parseForm(request, acceptListedSchema);
  if (submission.status !== "success") return data({ invitationRefusal: "Choose an invitation to accept." }, { status: 400 });
  const accepted = await acceptInvitation(services.db, { invitationId: submission.value.invitationId, user, now: new Date() });
  if (!accepted.ok) return data({ invitationRefusal: accepted.message }, { status: 400 });
  return redirectToJoined(services, accepted.slug);
}
