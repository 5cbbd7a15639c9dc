import { Outlet } from "react-router";
import { requireInstanceAdmin } from "~/auth/authorization.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { PageHeader } from "~/components/page-header";
import { TabNav } from "~/components/tab-nav";
import type { Route } from "./+types/layout";

/** /admin is the instance admin's (docs/product.md, Roles); to anyone else it does not exist. */
export async function loader(args: Route.LoaderArgs) {
  requireInstanceAdmin(args);
  return null;
}

export default function Admin() {
  return (
    <div>
      <PageHeader title="Administration" />
      <TabNav label="Administration" tabs={[{ to: "/admin/monitoring", label: "Monitoring" }]} />
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
