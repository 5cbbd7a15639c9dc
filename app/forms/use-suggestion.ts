import { useEffect } from "react";

/**
 * With JavaScript, the input `targetId` takes `make(source)` as the input `sourceId` is typed (a
 * workspace's slug from its name), until the person types a value of their own into it; emptied, it
 * follows again. Without JavaScript the server makes the same suggestion for a target left empty
 * (parseForm's `suggest`). Listening on the document follows inputs that re-render anew.
 */
export function useSuggestion(sourceId: string, targetId: string, make: (text: string) => string) {
  useEffect(() => {
    const input = (id: string) => {
      const element = document.getElementById(id);
      return element instanceof HTMLInputElement ? element : null;
    };
    // What the target was last given: while it still holds that (or nothing), it follows.
    let suggested = make(input(sourceId)?.value.trim() ?? "");
    const follow = (event: Event) => {
      const target = input(targetId);
      if (!(event.target instanceof HTMLInputElement) || event.target.id !== sourceId || !target) return;
      const next = make(event.target.value.trim());
      if (target.value === "" || target.value === suggested) target.value = next;
      suggested = next;
    };
    document.addEventListener("input", follow);
    return () => document.removeEventListener("input", follow);
  }, [sourceId, targetId, make]);
}
