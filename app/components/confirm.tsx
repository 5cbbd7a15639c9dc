import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";

/**
 * A destructive action that asks first (DESIGN.md §1, principle 5). The trigger is a link to this
 * page with `?confirm=<name>`: without JavaScript the server renders the question and the real form
 * in place; with JavaScript the click opens the same question in a modal `<dialog>`. `children` is
 * the form that does it (its submit button says what it does, e.g. "Leave workspace").
 */
export function ConfirmAction({
  name,
  label,
  title,
  message,
  children,
  triggerClassName,
}: {
  name: string;
  /** The trigger's visible text (and accessible name). */
  label: ReactNode;
  title: string;
  message: ReactNode;
  children: ReactNode;
  triggerClassName: string;
}) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const askedOnServer = params.get("confirm") === name;
  params.set("confirm", name);
  const askHref = `${location.pathname}?${params}`;
  params.delete("confirm");
  const cancelHref = `${location.pathname}${params.size ? `?${params}` : ""}`;
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);

  if (askedOnServer && !open) {
    return (
      <section role="alertdialog" aria-labelledby={`confirm-${name}-title`} className={confirmBoxClass}>
        <ConfirmContent id={`confirm-${name}-title`} title={title} message={message}>
          {children}
          <Link to={cancelHref} preventScrollReset className={cancelClass}>
            Cancel
          </Link>
        </ConfirmContent>
      </section>
    );
  }
  return (
    <>
      <Link
        to={askHref}
        preventScrollReset
        className={triggerClassName}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        {label}
      </Link>
      {open ? (
        <dialog
          ref={dialog}
          aria-labelledby={`confirm-${name}-title`}
          onClose={() => setOpen(false)}
          onSubmit={() => dialog.current?.close()}
          className={`${confirmBoxClass} m-auto backdrop:bg-zinc-950/40`}
        >
          <ConfirmContent id={`confirm-${name}-title`} title={title} message={message}>
            {children}
            <button type="button" className={cancelClass} onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </ConfirmContent>
        </dialog>
      ) : null}
    </>
  );
}

const confirmBoxClass = "confirm-box";
const cancelClass = "cancel";

function ConfirmContent({ id, title, message, children }: { id: string; title: string; message: ReactNode; children: ReactNode }) {
  return (
    <>
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      <div className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">{message}</div>
      <div className="mt-4 flex flex-row-reverse flex-wrap items-center gap-2">{children}</div>
    </>
  );
}
