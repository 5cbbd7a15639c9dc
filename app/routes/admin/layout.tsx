import { Outlet } from "react-router";
import { requireInstanceAdmin } from "~/auth/authorization.server";
import { AccountSidebar } from "~/components/account-sidebar";
import { AppShell, appShellHandle, ContentHeader, PageBody, ViewTabs } from "~/components/app-shell";
import { ShellErrorBoundary } from "~/components/error-boundary";
import { appContext } from "~/context/app-context.server";
import { isInAnyWorkspace } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/layout";

/** /admin is the instance admin's (docs/product.md, Roles); to anyone else it does not exist. */
export async function loader(args: Route.LoaderArgs) {
  const user = requireInstanceAdmin(args);
  return { inWorkspace: await isInAnyWorkspace(args.context.get(appContext).db, user) };
}

export const handle = appShellHandle;

export default function Admin({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell sidebar={<AccountSidebar inWorkspace={loaderData.inWorkspace} />}>
      <ContentHeader title="Administration" tabs={<ViewTabs label="Administration" tabs={[
            { to: "/admin/monitoring", label: "Monitoring" },
            { to: "/admin/users", label: "Users" },
          ]} />} />
      <PageBody>
        <Outlet />
      </PageBody>
    </AppShell>
  );
}

export const ErrorBoundary = ShellErrorBoundary;
