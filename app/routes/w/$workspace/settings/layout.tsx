import { Outlet } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { ContentHeader, PageBody, ViewTabs } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import type { Route } from "./+types/layout";

/** Workspace settings are for admins and owners. */
export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args, "members:manage");
  return { slug: workspace.slug, name: workspace.name };
}

export default function WorkspaceSettings({ loaderData }: Route.ComponentProps) {
  const base = `/w/${loaderData.slug}/settings`;
  return (
    <>
      <ContentHeader
        crumbs={[{ label: loaderData.name, to: `/w/${loaderData.slug}` }]}
        title="Workspace settings"
        tabs={
          <ViewTabs
            label="Workspace settings"
            tabs={[
              { to: base, label: "General", end: true },
              { to: `${base}/members`, label: "Members" },
              { to: `${base}/labels`, label: "Labels" },
            ]}
          />
        }
      />
      <PageBody narrow>
        <Outlet />
      </PageBody>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
