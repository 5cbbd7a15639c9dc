import { useRouteLoaderData } from "react-router";
import type { Flash } from "~/flash/flash.server";

/** What the last action did (the root loader takes it from its cookie), above the page's content. */
export function FlashMessage() {
  const flash = useRouteLoaderData<{ flash: Flash | null }>("root")?.flash;
  if (!flash) return null;
  return (
    <div
      role="status"
      className="mx-4 mt-3 rounded-md border border-emerald-300 bg-emerald-50 px-4 py-2 text-sm text-emerald-900 md:mx-6 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
    >
      <p>{flash.text}</p>
      {flash.link ? (
        <p className="mt-1">
          <label className="block text-sm">
            Invitation link
            <input readOnly value={flash.link} className="mt-1 block w-full rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-sm text-zinc-900" />
          </label>
        </p>
      ) : null}
    </div>
  );
}
