import { Outlet } from "react-router";
import { requireUser } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/page-header";
import { TabNav } from "~/components/tab-nav";
import type { Route } from "./+types/layout";

export function loader(args: Route.LoaderArgs) {
  const user = requireUser(args);
  return { email: user.email };
}

export default function AccountSettings() {
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Account settings" />
      <TabNav
        label="Account settings"
        tabs={[
          { to: "/settings", label: "Profile", end: true },
          { to: "/settings/password", label: "Password" },
          { to: "/settings/sessions", label: "Sessions" },
        ]}
      />
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
