import { data, Link } from "react-router";
import { requireInstanceAdmin } from "~/auth/authorization.server";
import type { ReactNode } from "react";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { RoutePath } from "~/components/route-path";
import { RelativeTime } from "~/components/time";
import { appContext } from "~/context/app-context.server";
import { findErrorGroup, normaliseDigest } from "~/monitoring/dashboard.server";
import type { Route } from "./+types/$digest";

/** One error by its digest (docs/product.md, Screens): what an operator looks up from a user's screenshot. */
export async function loader(args: Route.LoaderArgs) {
  requireInstanceAdmin(args);
  const digest = normaliseDigest(args.params.digest);
  const error = digest ? await findErrorGroup(args.context.get(appContext).db, digest) : undefined;
  if (!error) throw data(`No error has the digest ${args.params.digest.slice(0, 20)}.`, { status: 404 });
  return { error };
}

export const meta: Route.MetaFunction = ({ loaderData, params }) => pageTitle(`Error ${loaderData?.error.digest ?? params.digest.slice(0, 20)}`, "Monitoring");

export default function ErrorDetail({ loaderData }: Route.ComponentProps) {
  const { error } = loaderData;
  const facts: [string, ReactNode][] = [
    ["Digest", error.digest ?? ""],
    ["Where", error.kind === "server_error" ? "Server" : "Browser"],
    ["Route", error.route ? <RoutePath path={error.route} /> : "—"],
    ["Request", [error.method, error.url].filter(Boolean).join(" ") || "—"],
    ["Request id", error.request_id ?? "—"],
    ["User", error.user_name ? `${error.user_name} <${error.user_email}>` : "Not signed in"],
    ["Browser", error.user_agent ?? "—"],
    ["Count", String(error.count)],
    ["First seen", <RelativeTime at={error.first_seen} />],
    ["Last seen", <RelativeTime at={error.last_seen} />],
  ];
  return (
    <article aria-labelledby="error-message">
      <p className="text-sm">
        <Link to="/admin/monitoring" className="text-indigo-700 hover:underline dark:text-indigo-300">
          ← All errors
        </Link>
      </p>
      <h2 id="error-message" className="mt-3 text-xl font-semibold break-words">
        {error.message}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">The request, user and browser are those of the latest occurrence.</p>
      <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        {facts.map(([term, detail]) => (
          <div key={term} className="contents">
            <dt className="font-medium">{term}</dt>
            {/* A route breaks after a slash; an address or a browser's name anywhere, rather than widen the page. */}
            <dd className={`${term === "Route" ? "break-words" : "break-all"} ${term === "Digest" || term === "Request id" ? "font-mono" : ""}`}>{detail}</dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-6 font-semibold">Stack</h3>
      {error.stack ? (
        <pre className="mt-2 overflow-x-auto rounded bg-zinc-100 p-3 text-xs leading-relaxed dark:bg-zinc-900">{error.stack}</pre>
      ) : (
        <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">No stack was recorded.</p>
      )}
    </article>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
