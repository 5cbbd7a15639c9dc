import { ArrowLeft, Settings, Shield } from "lucide-react";
import { Link, useRouteLoaderData } from "react-router";
import { AccountMenu, SidebarLink } from "./app-shell";

/** The sidebar of the pages outside any workspace: account settings, administration, a new workspace. */
export function AccountSidebar() {
  const user = useRouteLoaderData<{ user: { isInstanceAdmin: boolean } | null }>("root")?.user;
  return (
    <>
      <div className="p-2">
        <Link to="/" className="flex h-8 items-center gap-2 rounded px-2 font-semibold hover:bg-zinc-200/50 dark:hover:bg-zinc-800/60">
          <ArrowLeft size={14} aria-hidden="true" /> Back to workspace
        </Link>
      </div>
      <nav aria-label="Account" className="flex-1 px-2">
        <SidebarLink to="/settings">
          <Settings size={14} aria-hidden="true" /> Account settings
        </SidebarLink>
        {user?.isInstanceAdmin ? (
          <SidebarLink to="/admin">
            <Shield size={14} aria-hidden="true" /> Administration
          </SidebarLink>
        ) : null}
      </nav>
      <AccountMenu />
    </>
  );
}
