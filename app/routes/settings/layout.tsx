import { Outlet } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { AccountSidebar } from "~/components/account-sidebar";
import { AppShell, appShellHandle, ContentHeader, PageBody, ViewTabs } from "~/components/app-shell";
import { ShellErrorBoundary } from "~/components/error-boundary";
import { appContext } from "~/context/app-context.server";
import { isInAnyWorkspace } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/layout";

export async function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  return { email: user.email, inWorkspace: await isInAnyWorkspace(args.context.get(appContext).db, user) };
}

export const handle = appShellHandle;

export default function AccountSettings({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell sidebar={<AccountSidebar inWorkspace={loaderData.inWorkspace} />}>
      <ContentHeader
        title="Account settings"
        tabs={
          <ViewTabs
            label="Account settings"
            tabs={[
              { to: "/settings", label: "Profile", end: true },
              { to: "/settings/notifications", label: "Notifications" },
              { to: "/settings/password", label: "Password" },
              { to: "/settings/sessions", label: "Sessions" },
              { to: "/settings/tokens", label: "API tokens" },
            ]}
          />
        }
      />
      <PageBody narrow>
        <Outlet />
      </PageBody>
    </AppShell>
  );
}

export const ErrorBoundary = ShellErrorBoundary;
