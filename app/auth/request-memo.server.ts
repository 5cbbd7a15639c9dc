import { currentQueryTally } from "~/db/query-tally.server";

/**
 * What one page's loaders look up, looked up once: the nested loaders of a page (the workspace
 * layout, the project layout, the page) each ask for the same workspace, project, members and
 * labels. `sessionMiddleware` opens a memo for every GET (and HEAD) request; a lookup run inside it
 * is shared by every loader of that request. Only for reads: a POST's action may change what a
 * lookup finds, so POSTs (and the loaders React Router runs after their action, in the same
 * request) have no memo and always look again.
 *
 * The memo lives in the request's query tally (app/db/query-tally.server.ts), the one
 * AsyncLocalStorage of a request: outside a request (a test calling a loader) there is none.
 */
export function withRequestMemo<T>(request: Request, work: () => T): T {
  const tally = currentQueryTally();
  if (tally && (request.method === "GET" || request.method === "HEAD")) tally.memo = new Map();
  return work();
}

const memo = () => currentQueryTally()?.memo;

/** `lookup()`, once per request under a memo (its promise is shared); outside one, every time. */
export function memoized<T>(key: string, lookup: () => T): T {
  const store = memo();
  if (!store) return lookup();
  if (!store.has(key)) store.set(key, lookup());
  return store.get(key) as T;
}

/** A value this request has already remembered (`remember`), if any. */
export function recalled<T>(key: string): T | undefined {
  return memo()?.get(key) as T | undefined;
}

/** Remembers a value for the rest of this request (nothing happens outside a memo). */
export function remember(key: string, value: unknown): void {
  memo()?.set(key, value);
}
