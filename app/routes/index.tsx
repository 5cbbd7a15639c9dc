import { Link } from "react-router";
import { instanceHasUsers } from "~/auth/users.server";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { appContext } from "~/host/app-context.server";
import type { Route } from "./+types/index";

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  return { firstAccountIsAdmin: !(await instanceHasUsers(db)) };
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

export default function Landing({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl py-10">
      <h1 className="text-4xl font-bold tracking-tight">Issue tracking for teams that ship.</h1>
      <p className="mt-4 text-lg text-zinc-700 dark:text-zinc-300">
        Cairn is a self-hosted issue tracker. File issues, discuss them, move them through your workflow
        and find them again — on your own server.
      </p>
      {loaderData.firstAccountIsAdmin ? (
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
