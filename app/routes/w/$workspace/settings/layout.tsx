import { Outlet } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/page-header";
import { TabNav } from "~/components/tab-nav";
import type { Route } from "./+types/layout";

/** Workspace settings are for admins and owners. */
export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args, "members:manage");
  return { slug: workspace.slug };
}

export default function WorkspaceSettings({ loaderData }: Route.ComponentProps) {
  const base = `/w/${loaderData.slug}/settings`;
  return (
    <div>
      <PageHeader title="Workspace settings" />
      <TabNav
        label="Workspace settings"
        tabs={[
          { to: base, label: "General", end: true },
          { to: `${base}/members`, label: "Members" },
          { to: `${base}/labels`, label: "Labels" },
        ]}
      />
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
