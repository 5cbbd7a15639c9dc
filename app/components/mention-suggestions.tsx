import { type RefObject, useEffect, useId, useRef, useState } from "react";
import { activeMention, insertMention, type MentionCandidate, matchMembers } from "./mention-query";

type Open = { mention: { start: number; query: string }; matches: MentionCandidate[]; active: number };

/**
 * `@mention` suggestions for a textarea: a listbox under it (the caller wraps both in a `relative`
 * element) whose active option the textarea points to. Only a browser enhancement: nothing renders
 * on the server.
 */
export function MentionSuggestions({ textarea, members }: { textarea: RefObject<HTMLTextAreaElement | null>; members: MentionCandidate[] }) {
  const listId = useId();
  const [el, setEl] = useState<HTMLTextAreaElement | null>(null);
  const [open, setOpenState] = useState<Open | null>(null);
  // The listeners read the latest state without being attached again on every keystroke.
  const current = useRef<Open | null>(null);
  const setOpen = (next: Open | null) => {
    current.current = next;
    setOpenState(next);
  };
  const enabled = members.length > 0;
  const latestMembers = useRef(members);
  useEffect(() => {
    latestMembers.current = members;
  });

  // The textarea may be remounted (a new `key` after a save): follow whichever element the ref holds.
  // After every render, on purpose: a ref's change causes none, and setEl runs only when it changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (textarea.current !== el) setEl(textarea.current);
  });

  const optionId = (index: number) => `${listId}-${index}`;

  const choose = (target: HTMLTextAreaElement, handle: string) => {
    const mention = activeMention(target.value, target.selectionStart) ?? current.current?.mention;
    setOpen(null);
    if (!mention) return;
    const next = insertMention(target.value, mention, handle);
    // The native setter and a bubbling `input` event, so React (and Conform) see the new value.
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!.call(target, next.text);
    target.setSelectionRange(next.caret, next.caret);
    target.dispatchEvent(new Event("input", { bubbles: true }));
  };

  useEffect(() => {
    if (!el || !enabled) return;
    const update = () => {
      const mention = el.selectionStart === el.selectionEnd ? activeMention(el.value, el.selectionStart) : null;
      const matches = mention ? matchMembers(latestMembers.current, mention.query) : [];
      setOpen(mention && matches.length ? { mention, matches, active: 0 } : null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const state = current.current;
      if (!state || event.isComposing) return;
      const plain = !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
      const count = state.matches.length;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        setOpen({ ...state, active: (state.active + (event.key === "ArrowDown" ? 1 : count - 1)) % count });
      } else if ((event.key === "Enter" || event.key === "Tab") && plain) {
        event.preventDefault();
        choose(el, state.matches[state.active]!.handle);
      } else if (event.key === "Escape") {
        // Only the list closes, not an enclosing dialog or editor.
        event.preventDefault();
        event.stopPropagation();
        setOpen(null);
      } else if (["ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"].includes(event.key)) {
        setOpen(null);
      }
    };
    const close = () => setOpen(null);
    el.addEventListener("input", update);
    el.addEventListener("click", update);
    el.addEventListener("keydown", onKeyDown);
    el.addEventListener("blur", close);
    return () => {
      el.removeEventListener("input", update);
      el.removeEventListener("click", update);
      el.removeEventListener("keydown", onKeyDown);
      el.removeEventListener("blur", close);
      setOpen(null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `choose` reads refs alone: the listeners stay attached while typing
  }, [el, enabled]);

  // The textarea stays a textbox (a combobox role would hide that it is a multi-line text field):
  // a textbox may say that it suggests (`aria-autocomplete`) and which suggestion is active.
  useEffect(() => {
    if (!el || !enabled) return;
    el.setAttribute("aria-autocomplete", "list");
    return () => ["aria-autocomplete", "aria-controls", "aria-activedescendant"].forEach((name) => el.removeAttribute(name));
  }, [el, enabled]);

  useEffect(() => {
    if (!el || !enabled) return;
    if (open) {
      el.setAttribute("aria-controls", listId);
      el.setAttribute("aria-activedescendant", optionId(open.active));
    } else {
      el.removeAttribute("aria-controls");
      el.removeAttribute("aria-activedescendant");
    }
  });

  if (!enabled || !open) return null;
  return (
    <ul
      role="listbox"
      id={listId}
      aria-label="People to mention"
      className="absolute top-full left-0 z-20 mt-1 w-max max-w-72 min-w-44 rounded-md border border-zinc-200 bg-white p-1 text-sm text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      {open.matches.map((member, index) => (
        <li
          key={member.handle}
          id={optionId(index)}
          role="option"
          aria-selected={index === open.active}
          className="flex cursor-pointer items-baseline gap-2 rounded px-2 py-1.5 hover:bg-zinc-50 aria-selected:bg-zinc-100 dark:hover:bg-zinc-800/60 dark:aria-selected:bg-zinc-800"
          onMouseDown={(event) => {
            // Keep the focus (and the caret) in the textarea.
            event.preventDefault();
            if (el) choose(el, member.handle);
          }}
        >
          <span className="min-w-0 truncate">{member.name}</span>
          <span className="muted shrink-0">@{member.handle}</span>
        </li>
      ))}
    </ul>
  );
}
