import { ArrowLeft, Settings, Shield } from "~/components/icons/icon";
import { Link, useRouteLoaderData } from "react-router";
import { AccountMenu, SidebarLink } from "./app-shell";

/**
 * The sidebar of the pages outside any workspace: account settings, administration, a new workspace.
 * "Back to workspace" leads to "/", which opens the last used workspace (or a picker): only for
 * someone in one (`inWorkspace`, from the page's loader: isInAnyWorkspace).
 */
export function AccountSidebar({ inWorkspace }: { inWorkspace: boolean }) {
  const user = useRouteLoaderData<{ user: { isInstanceAdmin: boolean } | null }>("root")?.user;
  return (
    <>
      {inWorkspace ? (
        <div className="p-2">
          <Link to="/" className="side-menu-btn h-8 py-0 font-semibold">
            <ArrowLeft size={14} aria-hidden="true" /> Back to workspace
          </Link>
        </div>
      ) : null}
      <nav aria-label="Account" className={inWorkspace ? "flex-1 px-2" : "flex-1 px-2 pt-2"}>
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
