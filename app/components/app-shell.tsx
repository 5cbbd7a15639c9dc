import { ChevronDown, LogOut, Menu as MenuIcon, Settings, Shield } from "~/components/icons/icon";
import { type ReactNode, useRef } from "react";
import { Form, Link, NavLink, useRouteLoaderData } from "react-router";
import { Avatar } from "./avatar";
import { FlashMessage } from "./flash-message";
import { menuItemClass, PopoverMenu } from "./menu";
import { usePaneScroll } from "./pane-scroll";

/** The `meta` of a page: its subject first, then where it is, then Cairn (DESIGN.md §2, Document titles). */
export const pageTitle = (...parts: (string | undefined)[]) => [{ title: [...parts.filter(Boolean), "Cairn"].join(" · ") }];

/** Route handle of the signed-in layouts: the root then leaves the page to their app shell. */
export const appShellHandle = { appShell: true } as const;

/**
 * The signed-in frame (DESIGN.md §2): a 240 px sidebar with its own scroll beside a content area of
 * the whole width. From 768 px the frame is the viewport and never scrolls itself: the sidebar and
 * the content area (`main`) scroll on their own, and so do the panes a page splits it into (the
 * board's columns, an issue beside the list). Below 768 px the page scrolls under a sticky top bar,
 * and the sidebar is a drawer: the same element, a `popover` that the menu button opens without
 * JavaScript (CSS shows it in place on wider screens). app.css has the frame's rules.
 */
export function AppShell({ sidebar, children }: { sidebar: ReactNode; children: ReactNode }) {
  const main = useRef<HTMLElement>(null);
  usePaneScroll(main);
  return (
    <div className="app-frame">
      <div className="topbar">
        <button type="button" popoverTarget="app-sidebar" aria-label="Open navigation" className="topbar-btn">
          <MenuIcon size={18} aria-hidden="true" />
        </button>
        <Link to="/" className="text-sm font-semibold">
          Cairn
        </Link>
      </div>
      <div id="app-sidebar" popover="auto" className="app-sidebar">
        {sidebar}
      </div>
      {/* Focusable, so that "Skip to content" puts the focus in it and the keyboard then scrolls it. */}
      <main id="main" ref={main} tabIndex={-1} className="app-main">
        <FlashMessage />
        {children}
      </main>
    </div>
  );
}

/** The current page's link is styled by its `aria-current="page"` (shell.css); a function, so that NavLink adds no `active` class. */
export const sidebarLinkClass = () => "side-link";

/** A link in the sidebar; the current page's is marked (aria-current) and highlighted. */
export function SidebarLink({ to, end, children }: { to: string; end?: boolean; children: ReactNode }) {
  return (
    <NavLink to={to} end={end} className={sidebarLinkClass}>
      {children}
    </NavLink>
  );
}

type RootUser = { id: number; name: string; email: string; isInstanceAdmin: boolean };

/** The account menu at the bottom of every sidebar: Settings, Admin (instance admin), Sign out. */
export function AccountMenu() {
  const user = useRouteLoaderData<{ user: RootUser | null }>("root")?.user;
  if (!user) return null;
  return (
    <div className="border-t border-zinc-200 p-2 dark:border-zinc-800">
      <PopoverMenu
        id="account-menu"
        label={`Account: ${user.name}`}
        triggerClassName="side-menu-btn"
        trigger={
          <>
            <Avatar user={user} size="md" decorative />
            <span className="min-w-0 flex-1 truncate font-medium">{user.name}</span>
            <ChevronDown size={14} aria-hidden="true" className="text-zinc-500" />
          </>
        }
      >
        {() => (
          <>
            <p className="menu-title truncate font-normal">{user.email}</p>
            <Link to="/settings" className={menuItemClass}>
              <Settings size={14} aria-hidden="true" /> Settings
            </Link>
            {user.isInstanceAdmin ? (
              <Link to="/admin" className={menuItemClass}>
                <Shield size={14} aria-hidden="true" /> Admin
              </Link>
            ) : null}
            <Form method="post" action="/logout">
              <button type="submit" className={menuItemClass}>
                <LogOut size={14} aria-hidden="true" /> Sign out
              </button>
            </Form>
          </>
        )}
      </PopoverMenu>
    </div>
  );
}

/**
 * The 48 px bar over the content (DESIGN.md §2): a breadcrumb, the page's heading, optional view
 * tabs, and the page's actions at the right.
 */
export function ContentHeader({
  crumbs = [],
  title,
  tabs,
  children,
}: {
  crumbs?: { label: string; to: string }[];
  title: ReactNode;
  tabs?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className="content-header">
      {crumbs.length ? (
        <nav aria-label="Breadcrumb" className="crumbs">
          <ol>
            {crumbs.map((crumb) => (
              <li key={crumb.to}>
                <Link to={crumb.to}>
                  {crumb.label}
                </Link>
                <span aria-hidden="true">›</span>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <h1 className="min-w-0 truncate text-sm font-semibold">{title}</h1>
      {tabs}
      {children ? <div className="ml-auto flex items-center gap-2">{children}</div> : null}
    </header>
  );
}

/** View switch of a section (List · Board · Settings): links, the current one marked. */
export function ViewTabs({ label, tabs }: { label: string; tabs: { to: string; label: string; icon?: ReactNode; end?: boolean }[] }) {
  return (
    <nav aria-label={label}>
      {/* On a phone the tabs go on as many lines as they need, rather than widening the page. */}
      <ul className="flex flex-wrap items-center gap-1 text-sm">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end={tab.end}
              className={tabClass}
            >
              {tab.icon}
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const tabClass = () => "tab";

/** The buttons (and button-like links) of DESIGN.md: short component classes of app/styles/shell.css. */
export const primaryButtonClass = "btn-primary";
export const secondaryButtonClass = "btn-secondary";

/** Padding of a page's body under its ContentHeader. */
export function PageBody({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  return <div className={`px-4 py-6 md:px-6 ${narrow ? "max-w-3xl" : ""}`}>{children}</div>;
}
