import { Monitor } from "~/components/icons/icon";
import { Form, redirect } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { deleteOtherSessions, listActiveSessions } from "~/auth/sessions.server";
import { pageTitle } from "~/components/app-shell";
import { ConfirmAction } from "~/components/confirm";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { dangerButtonClass, SettingsSection, settingsListClass, settingsRowClass } from "~/components/settings-sections";
import { RelativeTime } from "~/components/time";
import { flashHeader } from "~/flash/flash.server";
import { appContext } from "~/context/app-context.server";
import type { Route } from "./+types/sessions";

export async function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  const sessions = await listActiveSessions(args.context.get(appContext).db, user.id, new Date());
  return { sessions: sessions.map((session) => ({ ...session, current: session.id === user.sessionId })) };
}

export const meta: Route.MetaFunction = () => pageTitle("Sessions", "Account settings");

export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const ended = await deleteOtherSessions(services.db, user.id, user.sessionId);
  const text = ended === 1 ? "Signed out 1 other session." : `Signed out ${ended} other sessions.`;
  return redirect("/settings/sessions", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text }) } });
}

export default function Sessions({ loaderData }: Route.ComponentProps) {
  const others = loaderData.sessions.filter((session) => !session.current).length;
  return (
    <div className="space-y-8">
      <SettingsSection id="sessions-title" title="Where you are signed in" description="Sessions end after 14 days unused, and after 30 days at most.">
        <ul className={settingsListClass}>
          {loaderData.sessions.map((session) => (
            <li key={session.id} className={settingsRowClass}>
              <Monitor size={16} aria-hidden="true" className="shrink-0 text-zinc-500" />
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium" title={session.user_agent ?? undefined}>
                  {session.user_agent ?? "Unknown browser"}
                </p>
                <p className="text-[13px] text-zinc-600 dark:text-zinc-400">
                  {session.ip ?? "unknown address"} · signed in <RelativeTime at={session.created_at} /> · last active{" "}
                  <RelativeTime at={session.last_seen_at} />
                </p>
              </div>
              {session.current ? (
                <span className="rounded bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100">This session</span>
              ) : null}
            </li>
          ))}
        </ul>
      </SettingsSection>
      {others === 0 ? (
        <p className="text-[13px] text-zinc-600 dark:text-zinc-400">No other session is active.</p>
      ) : (
        <ConfirmAction
          name="sign-out-others"
          label="Sign out other sessions"
          title={others === 1 ? "Sign out the other session?" : `Sign out the ${others} other sessions?`}
          message="Every browser but this one will have to sign in again."
          triggerClassName={dangerButtonClass}
        >
          <Form method="post">
            <input type="hidden" name="intent" value="sign-out-others" />
            <button type="submit" className={dangerButtonClass}>
              Sign out other sessions
            </button>
          </Form>
        </ConfirmAction>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
