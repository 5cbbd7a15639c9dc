import { data, Form } from "react-router";
import { z } from "zod";
import { requireInstanceAdmin } from "~/auth/authorization.server";
import { makeResetLinkForUser, resetLinkLifetimeMs } from "~/auth/password-resets.server";
import { listUsers } from "~/auth/users.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Pager } from "~/components/pager";
import { rowActionClass, SettingsSection, settingsListClass, settingsRowClass } from "~/components/settings-sections";
import { RelativeTime } from "~/components/time";
import { appContext } from "~/context/app-context.server";
import { parsePositiveInteger, positiveIntegerField } from "~/forms/fields.server";
import { parseForm } from "~/forms/parse-form.server";
import type { Route } from "./+types/users";

export async function loader(args: Route.LoaderArgs) {
  requireInstanceAdmin(args);
  const { db, config } = args.context.get(appContext);
  const page = parsePositiveInteger(args.url.searchParams.get("page")) ?? 1;
  return { ...(await listUsers(db, page)), page, sendsMail: config.mail !== undefined, linkHours: resetLinkLifetimeMs / 3_600_000 };
}

export const meta: Route.MetaFunction = () => pageTitle("Users", "Administration");

const resetLinkSchema = z.object({ intent: z.literal("reset-link"), userId: positiveIntegerField("Choose a user.") });

/**
 * intent=reset-link: a link for that user to choose a new password, shown in this answer only (it
 * is stored hashed): for an instance that sends no mail, or a person who gets none.
 */
export async function action(args: Route.ActionArgs) {
  requireInstanceAdmin(args);
  const { db, config } = args.context.get(appContext);
  const submission = await parseForm(args.request, resetLinkSchema);
  if (submission.status !== "success") return data({ refusal: "Choose a user." }, { status: 400 });
  const link = await makeResetLinkForUser(db, submission.value.userId, new Date());
  if (!link) return data({ refusal: "That user no longer exists." }, { status: 404 });
  return { resetLink: { url: `${config.publicUrl ?? args.url.origin}${link.path}`, email: link.email } };
}

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { users, total, page, pageCount, sendsMail, linkHours: hours } = loaderData;
  return (
    <div className="space-y-6">
      {actionData && "refusal" in actionData ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {actionData.refusal}
        </p>
      ) : null}
      {actionData && "resetLink" in actionData ? (
        <div role="status" className="space-y-2 rounded-md border border-indigo-300 bg-indigo-50 p-3 text-sm dark:border-indigo-800 dark:bg-indigo-950">
          <p>
            A link for {actionData.resetLink.email} to choose a new password. It works for {hours === 1 ? "an hour" : `${hours} hours`}, once. Copy it now: it is not shown
            again.
          </p>
          <input
            readOnly
            aria-label={`Reset link for ${actionData.resetLink.email}`}
            value={actionData.resetLink.url}
            className="w-full rounded border border-zinc-300 bg-white px-2 py-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-900"
          />
        </div>
      ) : null}
      <SettingsSection
        id="users-title"
        title={`Users (${total})`}
        description={
          sendsMail
            ? "Anyone can ask for a reset link on the sign-in page; a link made here is for someone whose mail does not arrive."
            : "This instance sends no mail: a person who forgot their password needs a reset link made here."
        }
      >
        <ul className={settingsListClass}>
          {users.map((user) => (
            <li key={user.id} aria-label={user.name} className={settingsRowClass}>
              {/* At least 15rem for whom: on a phone the action goes to a line of its own. */}
              <div className="min-w-0 flex-1 basis-60">
                <p className="truncate font-medium">
                  {user.name} {user.is_instance_admin ? <span className="font-normal text-zinc-600 dark:text-zinc-400">(instance admin)</span> : null}
                </p>
                <p className="truncate text-zinc-600 dark:text-zinc-400">
                  {user.email} · joined <RelativeTime at={user.created_at} />
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="reset-link" />
                <input type="hidden" name="userId" value={user.id} />
                <button type="submit" className={rowActionClass} aria-label={`Make a reset link for ${user.name}`}>
                  Make a reset link
                </button>
              </Form>
            </li>
          ))}
        </ul>
        <Pager page={page} pageCount={pageCount} href={(n) => `?page=${n}`} />
      </SettingsSection>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
