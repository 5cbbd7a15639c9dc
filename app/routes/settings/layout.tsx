import { Outlet } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { AccountSidebar } from "~/components/account-sidebar";
import { AppShell, appShellHandle, ContentHeader, PageBody, ViewTabs } from "~/components/app-shell";
import { ShellErrorBoundary } from "~/components/error-boundary";
import type { Route } from "./+types/layout";

export function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  return { email: user.email };
}

export const handle = appShellHandle;

export default function AccountSettings() {
  return (
    <AppShell sidebar={<AccountSidebar />}>
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
