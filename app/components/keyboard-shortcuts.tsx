import { useEffect, useRef, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { issueLinkSelector } from "~/components/issue-link";

const shortcuts: [key: string, what: string][] = [
  ["/", "Search"],
  ["c", "New issue (in a project)"],
  ["j / k", "Next / previous issue in a list"],
  ["x", "Select the focused issue, for a bulk edit"],
  ["?", "Show these shortcuts"],
];

/** Typing in a field, or holding a modifier, is never a shortcut. */
function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return (
    event.ctrlKey ||
    event.metaKey ||
    event.altKey ||
    !!target?.closest("input, textarea, select, [contenteditable]:not([contenteditable='false'])")
  );
}

function moveThroughIssues(step: 1 | -1) {
  const links = [...document.querySelectorAll<HTMLAnchorElement>(issueLinkSelector)];
  if (!links.length) return;
  const current = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next = current === -1 ? (step === 1 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, current + step));
  links[next]!.focus();
}

/**
 * The workspace's keyboard shortcuts. They exist only with JavaScript, like this component's effect;
 * so does their list ("?"), which is rendered only once asked for.
 */
export function KeyboardShortcuts() {
  const navigate = useNavigate();
  const { workspace, key } = useParams();
  const dialog = useRef<HTMLDialogElement>(null);
  const [listed, setListed] = useState(false);
  useEffect(() => {
    if (listed && !dialog.current?.open) dialog.current?.showModal();
  }, [listed]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || isTyping(event)) return;
      switch (event.key) {
        case "/":
          document.querySelector<HTMLInputElement>("form[role=search] input[name=q]")?.focus();
          break;
        case "c":
          if (!key) return;
          void navigate(`/w/${workspace}/p/${key}/issues/new`);
          break;
        case "j":
          moveThroughIssues(1);
          break;
        case "k":
          moveThroughIssues(-1);
          break;
        case "x": {
          // The box of the row whose link has the focus (j / k move it), where the list has boxes.
          const box = document.activeElement?.closest("li")?.querySelector<HTMLInputElement>("input[type=checkbox][name=issueIds]");
          if (!box) return;
          box.click();
          break;
        }
        case "?":
          if (dialog.current) dialog.current.showModal();
          else setListed(true);
          break;
        default:
          return;
      }
      event.preventDefault();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [navigate, workspace, key]);

  if (!listed) return null;
  return (
    <dialog ref={dialog} aria-labelledby="shortcuts-title" className="m-auto rounded border border-zinc-300 p-6 backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100">
      <h2 id="shortcuts-title" className="text-lg font-semibold">
        Keyboard shortcuts
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        {shortcuts.map(([keys, what]) => (
          <div key={keys} className="contents">
            <dt>
              <kbd className="rounded border border-zinc-300 px-1 font-mono dark:border-zinc-600">{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog" className="mt-4">
        <button type="submit" className="rounded border border-zinc-300 px-3 py-1 dark:border-zinc-600">
          Close
        </button>
      </form>
    </dialog>
  );
}
