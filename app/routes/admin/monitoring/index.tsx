import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { requireInstanceAdmin } from "~/auth/authorization.server";
import { pageTitle, secondaryButtonClass } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { FilterSelect } from "~/components/filter-select";
import { SubmitButton } from "~/components/forms";
import { RoutePath } from "~/components/route-path";
import { RelativeTime } from "~/components/time";
import { type DailyPercentile, WebVitalChart, WebVitalValue } from "~/components/web-vitals";
import { queryText } from "~/forms/fields.server";
import { parseForm } from "~/forms/parse-form.server";
import { appContext } from "~/context/app-context.server";
import {
  findErrorGroup,
  listErrorGroups,
  normaliseDigest,
  webVitalPercentiles,
  webVitalRoutes,
} from "~/monitoring/dashboard.server";
import { type WebVitalName, webVitalNames, webVitalTitles } from "~/monitoring/web-vital-thresholds";
import type { Route } from "./+types/index";

/** The screen looks back this many days (UTC), today included. */
const windowDays = 30;
const groupsShown = 50;

function windowDaysEndingOn(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: windowDays }, (_, i) => new Date(today - (windowDays - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

export async function loader(args: Route.LoaderArgs) {
  requireInstanceAdmin(args);
  const services = args.context.get(appContext);
  const params = args.url.searchParams;

  const lookup = params.get("digest");
  let lookupError: string | null = null;
  if (lookup !== null) {
    const digest = normaliseDigest(lookup);
    if (!digest) lookupError = "A digest is 8 characters: digits 0–9 and letters A–F.";
    else if (await findErrorGroup(services.db, digest)) throw redirect(`/admin/monitoring/${digest}`);
    else lookupError = `No error has the digest ${digest}.`;
  }

  const days = windowDaysEndingOn(new Date());
  const since = new Date(`${days[0]}T00:00:00.000Z`);
  // A route is chosen from a list: one no route can be (a NUL …) is ignored, as an unknown one shows nothing.
  const route = queryText(params, "route", 200);
  const chartRoute = (!route.problem && route.value) || undefined;
  const [serverErrors, clientErrors, byRoute, byDay, routes] = await Promise.all([
    listErrorGroups(services.db, "server_error", groupsShown),
    listErrorGroups(services.db, "client_error", groupsShown),
    webVitalPercentiles(services, { since, by: "route" }),
    webVitalPercentiles(services, { since, by: "day", route: chartRoute }),
    webVitalRoutes(services.db, since),
  ]);

  const vitalsByRoute = new Map<string, { route: string; pageLoads: number; p75: Partial<Record<WebVitalName, number>> }>();
  for (const row of byRoute) {
    const entry = vitalsByRoute.get(row.bucket) ?? { route: row.bucket, pageLoads: 0, p75: {} };
    entry.p75[row.name] = row.p75;
    // Each page load reports each vital at most once (INP and LCP only when there was one).
    entry.pageLoads = Math.max(entry.pageLoads, row.samples);
    vitalsByRoute.set(row.bucket, entry);
  }
  const chartPoints = Object.fromEntries(webVitalNames.map((name) => [name, [] as DailyPercentile[]])) as Record<WebVitalName, DailyPercentile[]>;
  for (const row of byDay) chartPoints[row.name].push({ day: row.bucket, p75: row.p75, samples: row.samples });

  return {
    lookup: { value: lookup ?? "", error: lookupError },
    serverErrors,
    clientErrors,
    vitalsByRoute: [...vitalsByRoute.values()],
    chart: { route: chartRoute ?? "", routes, days, points: chartPoints },
  };
}

export const meta: Route.MetaFunction = () => pageTitle("Monitoring");

const testErrorSchema = z.object({ intent: z.literal("test-error") });

/** Thrown on purpose, handled like any unexpected error: logged, recorded, answered with its digest. */
class MonitoringTestError extends Error {
  override name = "MonitoringTestError";
}

export async function action(args: Route.ActionArgs) {
  requireInstanceAdmin(args);
  const submission = await parseForm(args.request, testErrorSchema);
  if (submission.status !== "success") throw data("That request was not valid.", { status: 400 });
  throw new MonitoringTestError("Test error sent from /admin/monitoring to check the digest path.");
}

const linkClass = "text-indigo-700 hover:underline dark:text-indigo-300";
const tableClass = "w-full border-collapse text-left text-sm";
const headClass = "border-b border-zinc-200 py-2 pr-3 font-medium whitespace-nowrap dark:border-zinc-800";
const cellClass = "border-b border-zinc-100 py-2 pr-3 align-top dark:border-zinc-900";
/** The first column of a table that scrolls sideways: it stays, on the page's own background. */
const stickyClass = "sticky left-0 z-10 bg-white dark:bg-zinc-950";
const inputClass = "h-7 rounded-md border border-zinc-300 bg-white px-2 dark:border-zinc-700 dark:bg-zinc-900";

type ErrorGroups = Route.ComponentProps["loaderData"]["serverErrors"];

function ErrorGroupTable({ id, title, empty, errors }: { id: string; title: string; empty: string; errors: ErrorGroups }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      {errors.groups.length === 0 ? (
        <p className="mt-2 text-zinc-700 dark:text-zinc-300">{empty}</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            {errors.total > errors.groups.length
              ? `The ${errors.groups.length} most recent of ${errors.total} groups.`
              : `${errors.total} ${errors.total === 1 ? "group" : "groups"}, the most recent first.`}
          </p>
          {/* Scrolls sideways on a phone: focusable, so that a keyboard can scroll it too. */}
          <div className="mt-2 overflow-x-auto" tabIndex={0} role="group" aria-label={`${title}, table`}>
            <table className={tableClass}>
              <thead>
                <tr>
                  <th scope="col" className={headClass}>Digest</th>
                  <th scope="col" className={headClass}>Error</th>
                  <th scope="col" className={headClass}>Route</th>
                  <th scope="col" className={`${headClass} text-right`}>Count</th>
                  <th scope="col" className={headClass}>First seen</th>
                  <th scope="col" className={headClass}>Last seen</th>
                </tr>
              </thead>
              <tbody>
                {errors.groups.map((group) => (
                  <tr key={group.digest}>
                    <td className={cellClass}>
                      <Link to={`/admin/monitoring/${group.digest}`} className={`font-mono ${linkClass}`}>
                        {group.digest}
                      </Link>
                    </td>
                    <td className={`${cellClass} max-w-xs break-words`}>{group.message}</td>
                    <td className={`${cellClass} min-w-36 break-words`}>
                      {group.method ? `${group.method} ` : ""}
                      {group.route ? <RoutePath path={group.route} /> : null}
                    </td>
                    <td className={`${cellClass} text-right tabular-nums`}>{group.count}</td>
                    <td className={`${cellClass} whitespace-nowrap`}>
                      <RelativeTime at={group.first_seen} />
                    </td>
                    <td className={`${cellClass} whitespace-nowrap`}>
                      <RelativeTime at={group.last_seen} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

export default function Monitoring({ loaderData }: Route.ComponentProps) {
  const { lookup, serverErrors, clientErrors, vitalsByRoute, chart } = loaderData;
  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-6">
        <Form method="get" role="search" aria-label="Look up a digest" className="flex items-end gap-2">
          <label className="flex flex-col text-sm font-medium">
            Digest
            <input
              key={lookup.value}
              name="digest"
              defaultValue={lookup.value}
              placeholder="e.g. 3F9A0C12"
              maxLength={20}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={lookup.error ? true : undefined}
              aria-describedby={lookup.error ? "digest-error" : undefined}
              className={`mt-1 w-40 font-mono ${inputClass}`}
            />
          </label>
          <button type="submit" className={secondaryButtonClass}>
            Look up
          </button>
        </Form>
        <Form method="post">
          <SubmitButton name="intent" value="test-error" variant="secondary" pendingText="Sending…">
            Send a test error
          </SubmitButton>
        </Form>
      </div>
      {lookup.error ? (
        <p id="digest-error" role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {lookup.error}
        </p>
      ) : null}

      <ErrorGroupTable id="server-errors" title="Server errors" empty="No unexpected server error has been recorded." errors={serverErrors} />
      <ErrorGroupTable id="client-errors" title="Browser errors" empty="No browser has reported an error." errors={clientErrors} />

      <section aria-labelledby="web-vitals" className="mt-10">
        <h2 id="web-vitals" className="text-base font-semibold">
          Web vitals
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          75th percentile per route over the last {chart.days.length} days, rated against web.dev's thresholds.
        </p>
        {vitalsByRoute.length === 0 ? (
          <p className="mt-2 text-zinc-700 dark:text-zinc-300">No browser has reported web vitals in that time.</p>
        ) : (
          // On a phone the table scrolls sideways in its own box, its route column staying in place.
          <div className="mt-2 overflow-x-auto" tabIndex={0} role="group" aria-label="Web vitals, table">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th scope="col" className={`${headClass} ${stickyClass}`}>Route</th>
                  {webVitalNames.map((name) => (
                    <th key={name} scope="col" className={headClass}>
                      <abbr title={webVitalTitles[name]} className="no-underline">
                        {name}
                      </abbr>
                    </th>
                  ))}
                  <th scope="col" className={`${headClass} text-right`}>Page loads</th>
                </tr>
              </thead>
              <tbody>
                {vitalsByRoute.map((row) => (
                  <tr key={row.route}>
                    <th scope="row" className={`${cellClass} ${stickyClass} min-w-36 font-normal break-words`}>
                      <RoutePath path={row.route} />
                    </th>
                    {webVitalNames.map((name) => {
                      const p75 = row.p75[name];
                      return (
                        <td key={name} className={`${cellClass} whitespace-nowrap`}>
                          {p75 === undefined ? <span className="text-zinc-600 dark:text-zinc-400">—</span> : <WebVitalValue name={name} value={p75} />}
                        </td>
                      );
                    })}
                    <td className={`${cellClass} text-right tabular-nums`}>{row.pageLoads}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}

        <h3 className="mt-8 font-semibold">Over time</h3>
        <Form method="get" className="mt-2 flex items-end gap-2 text-sm font-medium">
          <FilterSelect
            label="Route"
            name="route"
            value={chart.route}
            options={[{ value: "", label: "All routes" }, ...chart.routes.map((route) => ({ value: route, label: route }))]}
            className={`mt-1 ${inputClass}`}
          />
          <button type="submit" className={secondaryButtonClass}>
            Show
          </button>
        </Form>
        <div className="mt-4 grid gap-4 lg:grid-cols-2">
          {webVitalNames.map((name) => (
            <WebVitalChart key={name} name={name} days={chart.days} points={chart.points[name]} />
          ))}
        </div>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary digestHref={(digest) => `/admin/monitoring/${digest}`} />;
}
