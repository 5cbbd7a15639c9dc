import type { Flash } from "~/flash/flash.server";

export function FlashMessage({ flash }: { flash: Flash | null }) {
  if (!flash) return null;
  return (
    <div
      role="status"
      className="mx-auto mt-4 max-w-6xl rounded border border-emerald-300 bg-emerald-50 px-4 py-2 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
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
