import { getFormProps } from "@conform-to/react";
import { data, Form, Link, redirect } from "react-router";
import { createApiToken, listApiTokens, revokeApiToken } from "~/auth/api-tokens.server";
import { requireUser } from "~/auth/authorization.server";
import { apiTokensSchema, type NewApiTokenForm } from "~/auth/forms.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SelectField, SubmitButton, TextField } from "~/components/forms";
import { rowActionClass, SettingsSection, settingsListClass, settingsRowClass } from "~/components/settings-sections";
import { RelativeTime } from "~/components/time";
import { TimeUntil } from "~/components/time-until";
import { appContext } from "~/context/app-context.server";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import type { Route } from "./+types/tokens";

export async function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  return { tokens: await listApiTokens(args.context.get(appContext).db, user.id), now: new Date().toISOString() };
}

export const meta: Route.MetaFunction = () => pageTitle("API tokens", "Account settings");

/**
 * intent=create answers with the page and the new token, shown this once (not in a redirect's flash
 * cookie: the token is a password); intent=revoke redirects.
 */
export async function action(args: Route.ActionArgs) {
  const user = requireUser(args);
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, apiTokensSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const form = submission.value;
  const now = new Date();
  if (form.intent === "revoke") {
    if (!(await revokeApiToken(services.db, { userId: user.id, tokenId: form.tokenId, now }))) throw data("Token not found.", { status: 404 });
    return redirect("/settings/tokens", { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text: "Token revoked: it no longer works." }) } });
  }
  const created = await createApiToken(services.db, { userId: user.id, name: form.name, scope: form.scope, expiresInDays: form.expiresInDays, now });
  if (!created.ok) return data(submission.reply({ fieldErrors: { [created.field]: [created.message] } }), { status: 400 });
  return { ...submission.reply({ resetForm: true }), created: { name: form.name, token: created.token } };
}

const scopeOptions = [
  { value: "read", label: "Read: look, never change" },
  { value: "write", label: "Write: read and change" },
];
const lifetimeOptions = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "A year" },
  { value: "", label: "Never" },
];
const scopeLabels: Record<string, string> = { read: "Read", write: "Write" };

/** Personal access tokens for the API: made here, shown once, listed, revoked. */
export default function ApiTokens({ loaderData, actionData }: Route.ComponentProps) {
  const created = actionData && "created" in actionData ? actionData.created : undefined;
  const [form, fields] = useRouteForm<NewApiTokenForm>({ lastResult: actionData, defaultValue: { scope: "read", expiresInDays: "90" } });
  return (
    <div className="space-y-8">
      {created ? (
        <div role="status" className="flash">
          <p>Token “{created.name}” made. Copy it now: it is not shown again.</p>
          <label className="mt-1 block text-sm">
            Your new token
            <input readOnly value={created.token} className="mt-1 block w-full rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-sm text-zinc-900" />
          </label>
        </div>
      ) : null}
      <SettingsSection
        id="new-token-title"
        title="New token"
        description={
          <>
            A token acts as you, with your roles in each workspace; a read token never changes anything. Send it as Authorization: Bearer … to the API — see the{" "}
            <Link to="/api" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
              API reference
            </Link>
            .
          </>
        }
      >
        <Form method="post" {...getFormProps(form)} className="max-w-md space-y-4">
          <FormSummary form={form} />
          <TextField label="Token name" meta={fields.name} hint="What will use it, e.g. “CI” or “Chat bot”." />
          <SelectField label="Scope" meta={fields.scope} options={scopeOptions} />
          <SelectField label="Expires after" meta={fields.expiresInDays} options={lifetimeOptions} />
          <SubmitButton name="intent" value="create" pendingText="Making…">
            Make token
          </SubmitButton>
        </Form>
      </SettingsSection>
      <SettingsSection id="tokens-title" title="Your tokens">
        {loaderData.tokens.length ? (
          <ul className={settingsListClass}>
            {loaderData.tokens.map((token) => {
              const expired = token.expires_at !== null && token.expires_at <= loaderData.now;
              return (
                <li key={token.id} aria-label={token.name} className={settingsRowClass}>
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium">
                      {token.name} <span className="font-normal text-zinc-600 dark:text-zinc-400">· {scopeLabels[token.scope]}</span>
                    </p>
                    <p className="text-[13px] text-zinc-600 dark:text-zinc-400">
                      made <RelativeTime at={token.created_at} /> ·{" "}
                      {token.expires_at === null ? (
                        "never expires"
                      ) : expired ? (
                        <>
                          expired <RelativeTime at={token.expires_at} />
                        </>
                      ) : (
                        <>
                          expires <TimeUntil at={token.expires_at} />
                        </>
                      )}{" "}
                      · {token.last_used_at === null ? "never used" : <>last used <RelativeTime at={token.last_used_at} /></>}
                    </p>
                  </div>
                  <Form method="post">
                    <input type="hidden" name="tokenId" value={token.id} />
                    <button type="submit" name="intent" value="revoke" className={rowActionClass} aria-label={`Revoke ${token.name}`}>
                      Revoke
                    </button>
                  </Form>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="text-[13px] text-zinc-600 dark:text-zinc-400">No tokens yet.</p>
        )}
      </SettingsSection>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
