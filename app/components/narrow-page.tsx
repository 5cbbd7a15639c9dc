import type { ReactNode } from "react";

/** The frame of the small one-form pages (sign in, create account, create workspace). */
export function NarrowPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-6">
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{title}</h1>
      {children}
    </div>
  );
}
