import { Link, redirect } from "react-router";
import { currentUserContext } from "~/auth/current-user.server";
import { instanceHasUsers } from "~/auth/users.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { appContext } from "~/host/app-context.server";
import { listUserWorkspaces } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/index";

/** Signed out: what Cairn is. Signed in: the last used workspace, or a picker. */
export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const user = context.get(currentUserContext);
  if (!user) return { view: "landing" as const, firstAccountIsAdmin: !(await instanceHasUsers(db)) };
  const workspaces = await listUserWorkspaces(db, user.id);
  const last = workspaces.find((w) => w.id === user.lastWorkspaceId) ?? (workspaces.length === 1 ? workspaces[0] : undefined);
  if (last) throw redirect(`/w/${last.slug}`);
  return { view: "picker" as const, workspaces };
}

export const meta: Route.MetaFunction = () => [
  { title: "Cairn — issue tracking for teams" },
  { name: "description", content: "Cairn is a self-hosted issue tracker: fast, light to host, works with or without JavaScript." },
];

const points = [
  ["Fast", "Pages are rendered on the server and stay quick with tens of thousands of issues."],
  ["Works everywhere", "Every screen and form works in any browser, with or without JavaScript."],
  ["Yours", "One command runs it with an embedded database; PostgreSQL takes over when you grow."],
] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  return loaderData.view === "landing" ? (
    <Landing firstAccountIsAdmin={loaderData.firstAccountIsAdmin} />
  ) : (
    <WorkspacePicker workspaces={loaderData.workspaces} />
  );
}

function WorkspacePicker({ workspaces }: { workspaces: { slug: string; name: string }[] }) {
  return (
    <div className="mx-auto max-w-md py-6">
      <h1 className="text-2xl font-semibold tracking-tight">Your workspaces</h1>
      {workspaces.length ? (
        <ul className="mt-4 divide-y divide-zinc-200 rounded border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {workspaces.map((workspace) => (
            <li key={workspace.slug}>
              <Link to={`/w/${workspace.slug}`} className="block px-4 py-3 hover:bg-zinc-50 dark:hover:bg-zinc-900">
                {workspace.name} <span className="text-sm text-zinc-600 dark:text-zinc-400">/{workspace.slug}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-zinc-700 dark:text-zinc-300">
          You are not in a workspace yet. Create one for your team, or ask for an invitation to an existing one.
        </p>
      )}
      <Link to="/w/new" className="mt-6 inline-block rounded bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800">
        Create workspace
      </Link>
    </div>
  );
}

function Landing({ firstAccountIsAdmin }: { firstAccountIsAdmin: boolean }) {
  return (
    <div className="mx-auto max-w-3xl py-10">
      <h1 className="text-4xl font-bold tracking-tight">Issue tracking for teams that ship.</h1>
      <p className="mt-4 text-lg text-zinc-700 dark:text-zinc-300">
        Cairn is a self-hosted issue tracker. File issues, discuss them, move them through your workflow
        and find them again — on your own server.
      </p>
      {firstAccountIsAdmin ? (
        <p className="mt-4 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          This Cairn has no accounts yet: the first account you create administers it.
        </p>
      ) : null}
      <div className="mt-8 flex gap-3">
        <Link to="/signup" className="rounded bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800">
          Create account
        </Link>
        <Link
          to="/login"
          className="rounded border border-zinc-300 px-4 py-2 font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-900"
        >
          Sign in
        </Link>
      </div>
      <ul className="mt-12 grid gap-6 sm:grid-cols-3">
        {points.map(([title, text]) => (
          <li key={title}>
            <h2 className="font-semibold">{title}</h2>
            <p className="mt-1 text-zinc-700 dark:text-zinc-300">{text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
