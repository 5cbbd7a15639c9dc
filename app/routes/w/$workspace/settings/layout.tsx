import { Outlet } from "react-router";
import { requireWorkspace } from "~/auth/authorization.server";
import { ContentHeader, PageBody, ViewTabs } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { can } from "~/workspaces/roles";
import type { Route } from "./+types/layout";

/** Every member may open General (to leave); Members, Labels and Webhooks are for admins and owners (their loaders check). */
export async function loader(args: Route.LoaderArgs) {
  const { workspace } = await requireWorkspace(args);
  return { slug: workspace.slug, name: workspace.name, canManage: can(workspace.role, "members:manage") };
}

export default function WorkspaceSettings({ loaderData }: Route.ComponentProps) {
  const { slug, name, canManage } = loaderData;
  const base = `/w/${slug}/settings`;
  const tabs = [
    { to: base, label: "General", end: true },
    ...(canManage
      ? [
          { to: `${base}/members`, label: "Members" },
          { to: `${base}/labels`, label: "Labels" },
          { to: `${base}/webhooks`, label: "Webhooks" },
        ]
      : []),
  ];
  return (
    <>
      <ContentHeader
        crumbs={[{ label: name, to: `/w/${slug}` }]}
        title="Workspace settings"
        tabs={<ViewTabs label="Workspace settings" tabs={tabs} />}
      />
      <PageBody narrow>
        <Outlet />
      </PageBody>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
