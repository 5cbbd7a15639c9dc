import { requireWorkspace } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/page-header";
import type { Route } from "./+types/index";

export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args);
  return { workspaceName: workspace.name };
}

export default function MyIssues({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <PageHeader title="My issues">{loaderData.workspaceName}</PageHeader>
      <p className="rounded border border-dashed border-zinc-300 px-4 py-8 text-center text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
        No open issues are assigned to you.
      </p>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
