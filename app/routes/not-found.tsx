import { data } from "react-router";
import { RouteErrorBoundary } from "~/components/error-boundary";

/** Any URL no other route matches: a 404 inside the app's layout. */
export function loader() {
  throw data("Page not found.", { status: 404 });
}

export function action() {
  throw data("Page not found.", { status: 404 });
}

export default function NotFound() {
  return null;
}

export const ErrorBoundary = RouteErrorBoundary;
