import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link, type Location, useFetcher, useLocation } from "react-router";

/**
 * Menus (DESIGN.md §1, principles 3 and 4): a property shows as a value; pressing it opens a small
 * menu whose choices are the submit buttons of one real `<form method="post">`. Without JavaScript
 * the form posts natively; with it, the same form goes through a fetcher and the value on screen
 * changes at once (`useChoice` reads the pending choice).
 */

export type Choice = { value: string; label: string; icon?: ReactNode };

/** Short component classes (app/styles/shell.css): a menu's panel, its items, the button that opens it. */
const panelClass = "menu-panel";
export const menuItemClass = "menu-item";
export const triggerClass = "menu-btn";

/** The value a choice form shows: the one being saved while it is on its way, else the stored one. */
export function useChoice(fetcherKey: string, name: string, stored: string) {
  const fetcher = useFetcher({ key: fetcherKey });
  const pending = fetcher.formData?.get(name);
  return typeof pending === "string" ? pending : stored;
}

/** The form inside a menu: hidden fields, then one submit button per choice (`name=value`). */
export function ChoiceForm({
  fetcherKey,
  action,
  title,
  name,
  current,
  choices,
  hidden,
  onSubmitted,
}: {
  fetcherKey: string;
  action?: string;
  title: string;
  name: string;
  current: string;
  choices: Choice[];
  hidden: Record<string, string | number>;
  onSubmitted?: () => void;
}) {
  const fetcher = useFetcher({ key: fetcherKey });
  return (
    <fetcher.Form method="post" action={action} onSubmit={onSubmitted} aria-label={title}>
      {Object.entries(hidden).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
      <p className="menu-title">{title}</p>
      <ul>
        {choices.map((choice) => (
          <li key={choice.value}>
            <button type="submit" name={name} value={choice.value} aria-current={choice.value === current ? "true" : undefined} className={menuItemClass}>
              {choice.icon}
              <span className="item-label">{choice.label}</span>
              {choice.value === current ? <span aria-hidden="true">✓</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </fetcher.Form>
  );
}

/**
 * A button and the popover it opens — declaratively (`popovertarget`), so it opens without
 * JavaScript in browsers with the popover API; CSS anchors it to its button.
 */
export function PopoverMenu({
  label,
  trigger,
  children,
  triggerClassName = triggerClass,
  id: givenId,
}: {
  /** The button's accessible name. */
  label: string;
  trigger: ReactNode;
  children: (close: () => void) => ReactNode;
  triggerClassName?: string;
  id?: string;
}) {
  const generated = useId();
  const id = givenId ?? `menu${generated.replace(/[^a-zA-Z0-9]/g, "")}`;
  const panel = useRef<HTMLDivElement>(null);
  return (
    <>
      <button type="button" popoverTarget={id} aria-label={label} className={triggerClassName}>
        {trigger}
      </button>
      <div id={id} ref={panel} popover="auto" className={panelClass}>
        {children(() => panel.current?.hidePopover())}
      </div>
    </>
  );
}

type MenuAddress = { opened: string | null; closeHref: string; openPrefix: string };
const menuAddresses = new WeakMap<Location, MenuAddress>();

/**
 * The page's address as its on-demand menus need it: which menu it opens (`?menu=<id>`), itself
 * without it, and the start of the link that opens a menu — read once per address, not once per
 * menu (a board has hundreds).
 */
function menuAddressOf(location: Location): MenuAddress {
  let address = menuAddresses.get(location);
  if (!address) {
    const params = new URLSearchParams(location.search);
    const opened = params.get("menu");
    params.delete("menu");
    const rest = params.toString();
    address = { opened, closeHref: `${location.pathname}${rest ? `?${rest}` : ""}`, openPrefix: `${location.pathname}?${rest ? `${rest}&` : ""}menu=` };
    menuAddresses.set(location, address);
  }
  return address;
}

/**
 * The state of a menu rendered only when open (`OnDemandMenu`, the list's toolbar menus): whether
 * the page's URL opens it (`?menu=<id>`, rendered by the server for browsers without JavaScript),
 * whether a click opened it in the browser, and, once it has, the popover shown anchored to its
 * button with the focus on its first `focus` element.
 */
export function useMenuOnDemand<Button extends HTMLElement>(menuId: string, focus: string) {
  const openOnServer = menuAddressOf(useLocation()).opened === menuId;
  const [open, setOpen] = useState(false);
  const button = useRef<Button>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open || !panel.current) return;
    // `source` anchors the popover to its button (CSS anchor positioning); older browsers ignore it.
    (panel.current.showPopover as (options?: { source?: HTMLElement }) => void).call(panel.current, { source: button.current ?? undefined });
    panel.current.querySelector<HTMLElement>(focus)?.focus();
  }, [open, focus]);
  return { openOnServer, open, setOpen, button, panel };
}

/**
 * A menu for pages with many of them (a list's rows, a board's cards), where rendering every menu
 * would multiply the page's size: only the opened one is rendered. The button is a link to the page
 * with `?menu=<id>`, so without JavaScript the server renders that menu open (decision record 011);
 * with JavaScript the click renders it in the browser as a popover.
 */
export function OnDemandMenu({
  menuId,
  label,
  trigger,
  children,
  triggerClassName = triggerClass,
}: {
  menuId: string;
  label: string;
  trigger: ReactNode;
  /** `returnTo`: this page without the open menu, where a choice's answer should lead. */
  children: (menu: { close: () => void; returnTo: string }) => ReactNode;
  triggerClassName?: string;
}) {
  const { closeHref, openPrefix } = menuAddressOf(useLocation());
  const { openOnServer, open, setOpen, button, panel } = useMenuOnDemand<HTMLAnchorElement>(menuId, "button[aria-current=true], button");
  const openHref = openPrefix + encodeURIComponent(menuId);

  if (openOnServer && !open) {
    // Without JavaScript (or before it runs): the menu as a panel under its button (fixed to the
    // viewport, app.css), and a way back. The page opens focused on the button, which scrolls the
    // row or card into view, and the next Tab is the menu's first choice.
    return (
      <span className="inline-flex">
        <Link to={closeHref} aria-label={label} aria-expanded="true" preventScrollReset autoFocus className={`${triggerClassName} menu-anchor`}>
          {trigger}
        </Link>
        <div role="group" aria-label={label} className={`${panelClass} server-open`}>
          {children({ close: () => undefined, returnTo: closeHref })}
          <Link to={closeHref} preventScrollReset className={`${menuItemClass} muted`}>
            Close
          </Link>
        </div>
      </span>
    );
  }
  return (
    <>
      {/* A plain link, not a <Link>: with JavaScript a click opens the popover and never navigates,
          and a <Link> resolves its path on every render — a page has one of these per row or card. */}
      <a
        ref={button}
        href={openHref}
        aria-label={label}
        aria-haspopup="true"
        aria-expanded={open}
        className={triggerClassName}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {trigger}
      </a>
      {open ? (
        <div
          ref={panel}
          popover="auto"
          className={panelClass}
          onToggle={(event) => {
            if (event.nativeEvent.newState === "closed") setOpen(false);
          }}
        >
          {children({ close: () => panel.current?.hidePopover(), returnTo: closeHref })}
        </div>
      ) : null}
    </>
  );
}
