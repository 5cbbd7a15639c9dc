import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { data, Form, redirect, useFetcher } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { pageTitle } from "~/components/app-shell";
import { ConfirmAction } from "~/components/confirm";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FormSummary, SubmitButton, TextField } from "~/components/forms";
import { dangerButtonClass, rowActionClass, SettingsSection, settingsListClass } from "~/components/settings-sections";
import { RelativeTime } from "~/components/time";
import { appContext } from "~/context/app-context.server";
import { webhookEventTypes } from "~/db/schema";
import { flashHeader } from "~/flash/flash.server";
import { parseForm } from "~/forms/parse-form.server";
import { useRouteForm } from "~/forms/use-route-form";
import { type NewWebhookForm, webhooksSchema } from "~/webhooks/forms.server";
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  maxWebhooksPerWorkspace,
  redeliver,
  setWebhookEnabled,
  type WebhookDeliveryRow,
  type WebhookRow,
} from "~/webhooks/webhooks.server";
import type { Route } from "./+types/webhooks";

export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args, "webhooks:manage");
  const { db, config } = args.context.get(appContext);
  return {
    workspaceName: workspace.name,
    webhooks: await listWebhooks(db, workspace.id),
    max: maxWebhooksPerWorkspace,
    publicUrlSet: config.publicUrl !== undefined,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle("Webhooks", loaderData?.workspaceName);

/**
 * intent=create answers with the page and the new signing secret, shown this once (not in a
 * redirect's flash cookie: it is a key); enable, disable, delete and redeliver redirect with a flash.
 */
export async function action(args: Route.ActionArgs) {
  const { user, workspace } = await requireWorkspace(args, "webhooks:manage");
  const services = args.context.get(appContext);
  const submission = await parseForm(args.request, webhooksSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const form = submission.value;
  const now = new Date();
  const done = async (text: string) =>
    redirect(`/w/${workspace.slug}/settings/webhooks`, { headers: { "Set-Cookie": await flashHeader(services.sessionSecret, { text }) } });
  switch (form.intent) {
    case "create": {
      const created = await createWebhook(services.db, { workspaceId: workspace.id, userId: user.id, url: form.url, events: form.events, now });
      if (!created.ok) return data(submission.reply({ fieldErrors: { [created.field]: [created.message] } }), { status: 400 });
      return { ...submission.reply({ resetForm: true }), created: { url: form.url, secret: created.secret } };
    }
    case "enable":
    case "disable": {
      const changed = await setWebhookEnabled(services.db, { workspaceId: workspace.id, webhookId: form.webhookId, enabled: form.intent === "enable", now });
      if (!changed) throw data("Webhook not found.", { status: 404 });
      return done(form.intent === "enable" ? "Webhook turned on." : "Webhook turned off: nothing is sent to it until it is on again.");
    }
    case "delete": {
      if (!(await deleteWebhook(services.db, { workspaceId: workspace.id, webhookId: form.webhookId }))) throw data("Webhook not found.", { status: 404 });
      return done("Webhook deleted.");
    }
    case "redeliver": {
      if (!(await redeliver(services.db, { workspaceId: workspace.id, deliveryId: form.deliveryId, now }))) throw data("Delivery not found.", { status: 404 });
      return done("Sending it again.");
    }
  }
}

const eventLabels: Record<(typeof webhookEventTypes)[number], string> = {
  "issue.created": "Issue created",
  "issue.updated": "Issue updated",
  "comment.created": "Comment created",
  "comment.updated": "Comment edited",
  "comment.deleted": "Comment deleted",
};

type LastResult = SubmissionResult<string[]> & { initialValue?: { intent?: string } | null };

/** A workspace's webhooks: added here (the secret shown once), turned on and off, deleted, and their deliveries. */
export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { webhooks, max, publicUrlSet } = loaderData;
  const created = actionData && "created" in actionData ? actionData.created : undefined;
  const lastResult = actionData;
  return (
    <div className="space-y-10">
      {created ? (
        <div role="status" className="flash">
          <p>Webhook added for {created.url}. Copy its signing secret now: it is not shown again.</p>
          <label className="mt-1 block text-sm">
            Signing secret
            <input readOnly value={created.secret} className="mt-1 block w-full rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-sm text-zinc-900" />
          </label>
        </div>
      ) : null}
      <SettingsSection
        id="webhooks-title"
        title={`Webhooks (${webhooks.length} of ${max})`}
        description="Cairn POSTs each chosen event to the URL, signed as Standard Webhooks define (webhook-id, webhook-timestamp, webhook-signature), and tries again when it fails."
      >
        {webhooks.length ? (
          <ul className={settingsListClass}>
            {webhooks.map((webhook) => (
              <WebhookItem key={webhook.id} webhook={webhook} />
            ))}
          </ul>
        ) : (
          <p className="text-zinc-700 dark:text-zinc-300">No webhooks yet. A webhook tells another service (CI, chat, a script) when issues and comments change: add the first one below.</p>
        )}
        {!publicUrlSet && webhooks.length ? (
          <p className="mt-2 text-[13px] text-zinc-600 dark:text-zinc-400">PUBLIC_URL is not set, so each issue's url is sent as a path.</p>
        ) : null}
      </SettingsSection>
      <SettingsSection id="add-webhook-title" title="Add webhook">
        <AddWebhookForm lastResult={lastResult?.initialValue?.intent === "create" || created ? lastResult : undefined} />
      </SettingsSection>
    </div>
  );
}

function AddWebhookForm({ lastResult }: { lastResult: LastResult | undefined }) {
  const [form, fields] = useRouteForm<NewWebhookForm>({ id: "add-webhook", lastResult });
  const chosen = new Set([fields.events.initialValue ?? []].flat());
  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="add-webhook-title" className="max-w-xl space-y-4">
      <FormSummary form={form} />
      <TextField label="Payload URL" meta={fields.url} autoComplete="off" hint="An http:// or https:// address on the internet, e.g. https://ci.example.com/hooks/cairn." />
      <fieldset aria-describedby={fields.events.errors?.length ? fields.events.errorId : undefined}>
        <legend className="block text-sm font-medium">Events</legend>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">None chosen sends them all.</p>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {webhookEventTypes.map((type) => (
            <label key={`${form.key}-${type}`} className="inline-flex items-center gap-1.5 text-sm">
              <input type="checkbox" name={fields.events.name} value={type} defaultChecked={chosen.has(type)} />
              {eventLabels[type]} <code className="text-[12px] text-zinc-600 dark:text-zinc-400">{type}</code>
            </label>
          ))}
        </div>
        {fields.events.errors?.length ? (
          <p id={fields.events.errorId} className="field-error mt-1">
            {fields.events.errors.join(" ")}
          </p>
        ) : null}
      </fieldset>
      <SubmitButton name="intent" value="create" pendingText="Adding…">
        Add webhook
      </SubmitButton>
    </Form>
  );
}

function WebhookItem({ webhook }: { webhook: WebhookRow }) {
  const toggle = useFetcher({ key: `webhook-toggle-${webhook.id}` });
  const pending = toggle.formData?.get("intent");
  const enabled = pending ? pending === "enable" : webhook.enabled;
  const all = webhook.events.length === webhookEventTypes.length;
  return (
    <li aria-label={webhook.url} className="px-3 py-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <div className="min-w-0 flex-1">
          <p className="font-mono text-[13px] break-all">{webhook.url}</p>
          <p className="text-[13px] text-zinc-600 dark:text-zinc-400">
            {enabled ? "On" : webhook.disabledReason === "failing" && !pending ? "Off: turned off by Cairn after a day of failed deliveries" : "Off"} ·{" "}
            {all ? "all events" : webhook.events.join(", ")} · added <RelativeTime at={webhook.createdAt} />
          </p>
        </div>
        <toggle.Form method="post">
          <input type="hidden" name="webhookId" value={webhook.id} />
          <button type="submit" name="intent" value={enabled ? "disable" : "enable"} className={rowActionClass} aria-label={`${enabled ? "Turn off" : "Turn on"} ${webhook.url}`}>
            {enabled ? "Turn off" : "Turn on"}
          </button>
        </toggle.Form>
        <ConfirmAction
          name={`delete-webhook-${webhook.id}`}
          label={
            <>
              Delete<span className="sr-only"> webhook {webhook.url}</span>
            </>
          }
          title="Delete this webhook?"
          message={`Nothing more is sent to ${webhook.url}, and its delivery log goes with it. This cannot be undone.`}
          triggerClassName={dangerButtonClass}
        >
          <Form method="post">
            <input type="hidden" name="webhookId" value={webhook.id} />
            <button type="submit" name="intent" value="delete" className={dangerButtonClass}>
              Delete webhook
            </button>
          </Form>
        </ConfirmAction>
      </div>
      <details className="mt-1">
        <summary className="cursor-pointer text-[13px] text-zinc-700 dark:text-zinc-300">Recent deliveries ({webhook.deliveries.length})</summary>
        {webhook.deliveries.length ? (
          <ul aria-label={`Deliveries to ${webhook.url}`} className="mt-1 divide-y divide-zinc-200 dark:divide-zinc-800">
            {webhook.deliveries.map((delivery) => (
              <DeliveryItem key={delivery.id} delivery={delivery} />
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-[13px] text-zinc-600 dark:text-zinc-400">Nothing sent yet.</p>
        )}
      </details>
    </li>
  );
}

/** One delivery: its event, its state, and each attempt (time, status code or error, duration). */
function DeliveryItem({ delivery }: { delivery: WebhookDeliveryRow }) {
  const fetcher = useFetcher({ key: `redeliver-${delivery.id}` });
  const state = delivery.status === "pending" ? (delivery.attempts.length ? "retrying" : "pending") : delivery.status;
  return (
    <li className="py-1.5 text-[13px]" data-delivery-status={delivery.status}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <code className="font-mono">{delivery.type}</code>
        <span className={delivery.status === "failed" ? "text-red-700 dark:text-red-300" : "text-zinc-700 dark:text-zinc-300"}>{state}</span>
        <span className="text-zinc-600 dark:text-zinc-400">
          <RelativeTime at={delivery.createdAt} />
        </span>
        <span className="flex-1" />
        <fetcher.Form method="post">
          <input type="hidden" name="deliveryId" value={delivery.id} />
          <button type="submit" name="intent" value="redeliver" className={rowActionClass} aria-label={`Redeliver ${delivery.type} #${delivery.id}`} disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle" ? "Sending…" : "Redeliver"}
          </button>
        </fetcher.Form>
      </div>
      {delivery.attempts.length ? (
        <ol className="mt-0.5 space-y-0.5 text-zinc-600 dark:text-zinc-400">
          {delivery.attempts.map((attempt) => (
            <li key={attempt.attempt} className="flex flex-wrap gap-x-3">
              <span>attempt {attempt.attempt}</span>
              <RelativeTime at={attempt.at} />
              <span className="break-all">{attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : attempt.error}</span>
              <span>{attempt.durationMs} ms</span>
            </li>
          ))}
        </ol>
      ) : null}
    </li>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
