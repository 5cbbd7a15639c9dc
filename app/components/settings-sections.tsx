import type { ReactNode } from "react";

/** The look of a settings page's parts: a small heading over its content, rows in one bordered list. */

export const settingsListClass =
  "divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800";

/** A row of a settings list: 40 px high at least, its parts on one line where they fit. */
export const settingsRowClass = "flex min-h-10 flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5";

/** A quiet text button in a row ("Edit", "Remove", "Revoke"). */
export const rowActionClass =
  "inline-flex h-7 items-center gap-1.5 rounded px-2 text-[13px] font-medium text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-100";

/** A destructive action's trigger and its confirming button: red outline, not a red block on every row. */
export const dangerButtonClass =
  "inline-flex h-7 items-center gap-1.5 rounded-md border border-red-300 px-2.5 text-sm font-medium text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950";

export function SettingsSection({ id, title, description, action, children }: { id: string; title: string; description?: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id={id} className="text-base font-semibold">
            {title}
          </h2>
          {description ? <p className="mt-0.5 text-[13px] text-zinc-600 dark:text-zinc-400">{description}</p> : null}
        </div>
        {action}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** The page's destructive actions, apart from the rest (leave, delete, archive). */
export function DangerZone({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="danger-zone-title">
      <h2 id="danger-zone-title" className="text-base font-semibold">
        Danger zone
      </h2>
      <div className="mt-3 space-y-5 rounded-md border border-red-200 p-4 dark:border-red-900">{children}</div>
    </section>
  );
}
