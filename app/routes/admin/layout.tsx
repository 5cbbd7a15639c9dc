import { Outlet } from "react-router";
import { requireInstanceAdmin } from "~/auth/authorization.server";
import { AccountSidebar } from "~/components/account-sidebar";
import { AppShell, appShellHandle, ContentHeader, PageBody, ViewTabs } from "~/components/app-shell";
import { ShellErrorBoundary } from "~/components/error-boundary";
import type { Route } from "./+types/layout";

/** /admin is the instance admin's (docs/product.md, Roles); to anyone else it does not exist. */
export async function loader(args: Route.LoaderArgs) {
  requireInstanceAdmin(args);
  return null;
}

export const handle = appShellHandle;

export default function Admin() {
  return (
    <AppShell sidebar={<AccountSidebar />}>
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
