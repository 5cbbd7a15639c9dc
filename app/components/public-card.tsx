import type { ReactNode } from "react";

/** Cairn's mark (the favicon's stacked stones), decorative beside the name. */
export function CairnMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={`shrink-0 fill-indigo-600 dark:fill-indigo-400 ${className}`}>
      <ellipse cx="16" cy="26" rx="12" ry="4" />
      <ellipse cx="16" cy="18" rx="9" ry="3.5" />
      <ellipse cx="16" cy="11" rx="6" ry="3" />
      <ellipse cx="16" cy="5" rx="3.5" ry="2.2" />
    </svg>
  );
}

export const publicPrimaryClass =
  "inline-flex h-9 items-center justify-center gap-1.5 rounded-md bg-indigo-600 px-4 text-sm font-medium text-white hover:bg-indigo-700 dark:bg-indigo-400 dark:text-zinc-950 dark:hover:bg-indigo-300";
export const publicSecondaryClass =
  "inline-flex h-9 items-center justify-center gap-1.5 rounded-md border border-zinc-300 px-4 text-sm font-medium text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800";
export const publicLinkClass = "font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

/**
 * The signed-out pages' card (sign in, create account, an invitation, the workspace picker, a
 * missing page): Cairn's mark, the page's heading, the form or message, and below the card a way
 * elsewhere ("No account yet? Create account").
 */
export function PublicCard({ title, lead, children, below }: { title: string; lead?: ReactNode; children: ReactNode; below?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-sm py-4 sm:py-10">
      <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
        <CairnMark />
        <h1 className="mt-4 text-xl font-semibold tracking-tight">{title}</h1>
        {lead ? <div className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{lead}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
      {below ? <div className="mt-4 text-center text-sm text-zinc-600 dark:text-zinc-400">{below}</div> : null}
    </div>
  );
}
