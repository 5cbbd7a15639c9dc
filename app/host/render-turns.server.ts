import type { RenderTurns } from "~/components/render-turns";

/**
 * One request's turns (app/components/render-turns.tsx): the parts' gates open one at a time, in
 * the order React first met them, each once the part before it has started rendering — and only on
 * the next turn of the event loop (setImmediate), after the I/O of other requests. React then
 * renders the part on the turn after that (its own setImmediate), so a part is all React renders in
 * one go, whatever the page holds.
 */
export function createRenderTurns(): RenderTurns {
  type Gate = { promise: Promise<void>; open: () => void; entered: boolean };
  const gates = new Map<string, Gate>();
  const waiting: Gate[] = [];
  let rendering = false;

  const openNext = () => {
    if (rendering) return;
    const next = waiting.shift();
    if (!next) return;
    rendering = true;
    setImmediate(next.open);
  };

  return {
    gate(part) {
      let gate = gates.get(part);
      if (!gate) {
        let open = () => {};
        const promise = new Promise<void>((resolve) => (open = resolve));
        gate = { promise, open, entered: false };
        gates.set(part, gate);
        waiting.push(gate);
        openNext();
      }
      return gate.promise;
    },
    entered(part) {
      const gate = gates.get(part);
      if (!gate || gate.entered) return;
      gate.entered = true;
      rendering = false;
      openNext();
    },
  };
}
