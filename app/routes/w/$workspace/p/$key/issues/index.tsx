import { requireProject } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import type { Route } from "./+types/index";

export async function loader(args: Route.LoaderArgs) {
  await requireProject(args);
  return null;
}

/** The detail pane before an issue is chosen (wide screens only: the list fills narrow ones). */
export default function NoIssueSelected() {
  return (
    <p className="hidden rounded border border-dashed border-zinc-300 px-4 py-16 text-center text-zinc-600 xl:block dark:border-zinc-700 dark:text-zinc-400">
      Select an issue
    </p>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
