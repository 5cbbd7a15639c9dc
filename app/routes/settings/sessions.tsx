import { Form, redirect } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { deleteOtherSessions, listActiveSessions } from "~/auth/sessions.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { SubmitButton } from "~/components/forms";
import { flashHeader } from "~/flash/flash.server";
import { appContext } from "~/host/app-context.server";
import type { Route } from "./+types/sessions";

export async function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  const sessions = await listActiveSessions(args.context.get(appContext).db, user.id, new Date());
  return { sessions: sessions.map((session) => ({ ...session, current: session.id === user.sessionId })) };
}

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const ended = await deleteOtherSessions(services.db, user.id, user.sessionId);
  const text = ended === 1 ? "Signed out 1 other session." : `Signed out ${ended} other sessions.`;
  return redirect("/settings/sessions", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text }) } });
}

const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export default function Sessions({ loaderData }: Route.ComponentProps) {
  const others = loaderData.sessions.filter((session) => !session.current).length;
  return (
    <div>
      <ul className="divide-y divide-zinc-200 rounded border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {loaderData.sessions.map((session) => (
          <li key={session.id} className="px-4 py-3">
            <p className="font-medium">
              {session.user_agent ?? "Unknown browser"}
              {session.current ? <span className="ml-2 rounded bg-indigo-100 px-2 py-0.5 text-xs text-indigo-900">This session</span> : null}
            </p>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              {session.ip ?? "unknown address"} · signed in {dateTime.format(new Date(session.created_at))} UTC · last active{" "}
              {dateTime.format(new Date(session.last_seen_at))} UTC
            </p>
          </li>
        ))}
      </ul>
      <Form method="post" className="mt-6">
        <input type="hidden" name="intent" value="sign-out-others" />
        <SubmitButton variant="secondary" pendingText="Signing out…">
          Sign out other sessions
        </SubmitButton>
        {others === 0 ? <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">No other session is active.</p> : null}
      </Form>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
