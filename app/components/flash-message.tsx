import { useRouteLoaderData } from "react-router";
import type { Flash } from "~/flash/flash.server";

/** What the last action did (the root loader takes it from its cookie), above the page's content. */
export function FlashMessage() {
  const flash = useRouteLoaderData<{ flash: Flash | null }>("root")?.flash;
  if (!flash) return null;
  return (
    <div role="status" className="flash">
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
