import { createContext, type ReactNode, use, useContext } from "react";

/**
 * The parts of a long page that the server renders one at a time, each in a turn of the event loop
 * of its own (decision record 027): `gate(part)` resolves once the part before it has started and
 * the event loop has had a turn since; `entered(part)` says that the part is being rendered.
 */
export type RenderTurns = { gate(part: string): Promise<void>; entered(part: string): void };

/** The request's turns while the server renders a page (app/entry.server.tsx); none in the browser. */
export const RenderTurnsContext = createContext<RenderTurns | null>(null);

/**
 * A part of a long page — a page of a board column's cards — that the server renders in a turn of
 * its own, so that other requests are answered between the parts instead of after the whole page:
 * it suspends until its turn comes (React renders what follows it meanwhile, then comes back). It
 * renders no element of its own, so the markup is the same as without it; in the browser it is
 * only its children. `part` names it, unique in the page.
 */
export function InTurn({ part, children }: { part: string; children: ReactNode }) {
  const turns = useContext(RenderTurnsContext);
  if (turns) {
    use(turns.gate(part));
    turns.entered(part);
  }
  return children;
}
