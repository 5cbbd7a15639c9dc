import { type ReactNode, useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/**
 * The submit button of a control that saves on its own with JavaScript (a select that submits on
 * change). The server renders it, so the form works without JavaScript and before the page is
 * hydrated; once React has taken over it is gone, so that a click cannot send the change twice.
 */
export function NoScriptSubmit({ children, className }: { children: ReactNode; className: string }) {
  // false while hydrating (as on the server), true after, and on pages rendered in the browser.
  const hydrated = useSyncExternalStore(subscribeToNothing, () => true, () => false);
  if (hydrated) return null;
  return (
    <button type="submit" className={className}>
      {children}
    </button>
  );
}
