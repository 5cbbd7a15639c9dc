import { NavLink } from "react-router";

/** Section tabs as links: the current one is marked for screen readers (aria-current) and styled. */
export function TabNav({ label, tabs }: { label: string; tabs: { to: string; label: string; end?: boolean }[] }) {
  return (
    <nav aria-label={label} className="mb-6 border-b border-zinc-200 dark:border-zinc-800">
      <ul className="-mb-px flex gap-4">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink
              to={tab.to}
              end={tab.end}
              className={({ isActive }) =>
                `inline-block border-b-2 px-1 pb-2 ${isActive ? "border-indigo-600 font-medium" : "border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"}`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
