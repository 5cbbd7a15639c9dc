import { type RefObject, useContext, useEffect, useLayoutEffect, useRef } from "react";
import { UNSAFE_DataRouterStateContext, useLocation, useNavigationType } from "react-router";

/** Where each history entry left the content area (by location key), for Back and Forward. */
const positions = new Map<string, number>();

/**
 * React Router's <ScrollRestoration> resets and restores the window's scroll, but from 768 px the
 * window never scrolls: the content area does (app-shell.tsx). This does the same for that area,
 * with the same rules: a new page starts at the top unless its link or form asked
 * `preventScrollReset` (a menu opened, a filter changed), Back and Forward return to where the entry
 * was left, and a `#fragment` is left to the router. The page the server sent keeps where the
 * browser put it (an autofocused menu, a fragment).
 */
export function usePaneScroll(pane: RefObject<HTMLElement | null>) {
  const location = useLocation();
  const type = useNavigationType();
  // The router's own flag for this navigation, read as <ScrollRestoration> reads it: no public hook has it.
  const preventScrollReset = useContext(UNSAFE_DataRouterStateContext)?.preventScrollReset ?? false;
  // The entry on screen: set before the paint, so that a scroll the change itself causes counts for the new entry.
  const shownKey = useRef<string | null>(null);

  useEffect(() => {
    const element = pane.current;
    if (!element) return;
    const remember = () => {
      if (shownKey.current !== null) positions.set(shownKey.current, element.scrollTop);
    };
    element.addEventListener("scroll", remember, { passive: true });
    return () => element.removeEventListener("scroll", remember);
  }, [pane]);

  // Before the paint, as the router's own restoration: the new page never shows at the old place.
  // Only a new location moves the area: what else changes (a fetcher's answer) leaves it where it is.
  useLayoutEffect(() => {
    const element = pane.current;
    const first = shownKey.current === null;
    shownKey.current = location.key;
    if (!element) return;
    const saved = type === "POP" ? positions.get(location.key) : undefined;
    if (saved !== undefined) element.scrollTop = saved;
    else if (!first && !location.hash && !preventScrollReset) element.scrollTop = 0;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new location moves the area (above)
  }, [pane, location.key]);
}
