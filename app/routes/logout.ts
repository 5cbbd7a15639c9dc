import { redirect } from "react-router";
import { currentUserContext } from "~/auth/current-user.server";
import { sessionCookie } from "~/auth/session-cookie.server";
import { deleteSession } from "~/auth/sessions.server";
import { flashHeader } from "~/flash/flash.server";
import { appContext } from "~/context/app-context.server";
import type { Route } from "./+types/logout";

/** Signing out is a POST (a link or a prefetch must not sign anyone out); a GET just goes home. */
export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = context.get(currentUserContext);
  if (user) await deleteSession(services.db, user.sessionId);
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie(services, request).serialize("", { maxAge: 0 }));
  headers.append("Set-Cookie", await flashHeader(services.sessionSecret, { text: "You are signed out." }));
  return redirect("/", { headers });
}
