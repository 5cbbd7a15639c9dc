import { data, Link } from "react-router";
import { pageTitle } from "~/components/app-shell";
import { PublicCard, publicPrimaryClass } from "~/components/public-card";
import type { Route } from "./+types/not-found";

/** Any URL no other route matches: a 404 inside the app's layout. */
export function loader() {
  throw data("Page not found.", { status: 404 });
}

export function action() {
  throw data("Page not found.", { status: 404 });
}

export const meta: Route.MetaFunction = () => pageTitle("Page not found");

export default function NotFound() {
  return null;
}

/** Only ever a 404 (the loader and action throw nothing else): a card that says so, and the way back. */
export function ErrorBoundary() {
  return (
    <PublicCard title="Not found">
      <div role="alert" className="text-sm text-zinc-700 dark:text-zinc-300">
        <p>Page not found.</p>
        <p className="mt-1">The address may be mistyped, or the page may have moved.</p>
      </div>
      <Link to="/" className={`${publicPrimaryClass} mt-6`}>
        Go to the start page
      </Link>
    </PublicCard>
  );
}
