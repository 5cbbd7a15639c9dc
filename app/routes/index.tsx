import { ChevronRight, Gauge, Plus, Server, Unplug } from "~/components/icons/icon";
import { Link, redirect } from "react-router";
import { currentUserContext } from "~/auth/current-user.server";
import { instanceHasUsers } from "~/auth/users.server";
import { pageTitle } from "~/components/app-shell";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { PendingInvitations } from "~/components/pending-invitations";
import { CairnMark, PublicCard, publicPrimaryClass, publicSecondaryClass } from "~/components/public-card";
import { appContext } from "~/context/app-context.server";
import { type InvitationForYou, listInvitationsFor } from "~/workspaces/invitations.server";
import { listUserWorkspaces } from "~/workspaces/workspaces.server";
import type { Route } from "./+types/index";

/** Signed out: what Cairn is. Signed in: the last used workspace, or a picker with the invitations waiting. */
export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const user = context.get(currentUserContext);
  if (!user) return { view: "landing" as const, firstAccountIsAdmin: !(await instanceHasUsers(db)) };
  const workspaces = await listUserWorkspaces(db, user.id);
  const last = workspaces.find((w) => w.id === user.lastWorkspaceId) ?? (workspaces.length === 1 ? workspaces[0] : undefined);
  if (last) throw redirect(`/w/${last.slug}`);
  return { view: "picker" as const, workspaces, invitations: await listInvitationsFor(db, user.email, new Date()) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...(loaderData?.view === "picker" ? pageTitle("Your workspaces") : [{ title: "Cairn — issue tracking for teams" }]),
  { name: "description", content: "Cairn is a self-hosted issue tracker: fast, light to host, works with or without JavaScript." },
];

const points = [
  { icon: Gauge, title: "Fast", text: "Pages are rendered on the server and stay quick with tens of thousands of issues." },
  { icon: Unplug, title: "Works everywhere", text: "Every screen and form works in any browser, with or without JavaScript." },
  { icon: Server, title: "Yours", text: "One command runs it with an embedded database; PostgreSQL takes over when you grow." },
] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  return loaderData.view === "landing" ? (
    <Landing firstAccountIsAdmin={loaderData.firstAccountIsAdmin} />
  ) : (
    <WorkspacePicker workspaces={loaderData.workspaces} invitations={loaderData.invitations} />
  );
}

function WorkspacePicker({
  workspaces,
  invitations,
}: {
  workspaces: { slug: string; name: string }[];
  invitations: InvitationForYou[];
}) {
  return (
    <PublicCard
      title="Your workspaces"
      lead={workspaces.length ? "Open one, or create another for a new team." : undefined}
      below={
        <Link to="/w/new" className={`${publicPrimaryClass} w-full`}>
          <Plus size={16} aria-hidden="true" /> Create workspace
        </Link>
      }
    >
      {invitations.length ? (
        <div className="mb-4">
          <PendingInvitations invitations={invitations} />
        </div>
      ) : null}
      {workspaces.length ? (
        <ul className="-mx-2 space-y-px">
          {workspaces.map((workspace) => (
            <li key={workspace.slug}>
              <Link to={`/w/${workspace.slug}`} className="flex h-10 items-center gap-3 rounded-md px-2 hover:bg-zinc-100 dark:hover:bg-zinc-800">
                <span aria-hidden="true" className="flex size-6 shrink-0 items-center justify-center rounded bg-indigo-600 text-xs font-semibold text-white">
                  {Array.from(workspace.name)[0]?.toUpperCase()}
                </span>
                <span className="min-w-0 flex-1 truncate font-medium">{workspace.name}</span>
                <span className="text-[13px] text-zinc-600 dark:text-zinc-400">/{workspace.slug}</span>
                <ChevronRight size={14} aria-hidden="true" className="text-zinc-500" />
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {invitations.length
            ? "You are not in a workspace yet. Join one you are invited to, or create one for your team."
            : "You are not in a workspace yet. Create one for your team, or ask for an invitation to an existing one."}
        </p>
      )}
    </PublicCard>
  );
}

function Landing({ firstAccountIsAdmin }: { firstAccountIsAdmin: boolean }) {
  return (
    <div className="mx-auto max-w-3xl py-8 sm:py-16">
      <CairnMark className="size-10" />
      <h1 className="mt-6 text-3xl font-semibold tracking-tight text-balance">Issue tracking for teams that ship.</h1>
      <p className="mt-4 max-w-2xl text-base text-zinc-700 dark:text-zinc-300">
        Cairn is a self-hosted issue tracker. File issues, discuss them, move them through your workflow
        and find them again — on your own server.
      </p>
      {firstAccountIsAdmin ? (
        <p className="mt-6 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          This Cairn has no accounts yet: the first account you create administers it.
        </p>
      ) : null}
      <div className="mt-8 flex flex-wrap gap-3">
        <Link to="/signup" className={publicPrimaryClass}>
          Create account
        </Link>
        <Link to="/login" className={publicSecondaryClass}>
          Sign in
        </Link>
      </div>
      <ul className="mt-14 grid gap-4 sm:grid-cols-3">
        {points.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
            <Icon size={18} aria-hidden="true" className="text-indigo-600 dark:text-indigo-400" />
            <h2 className="mt-3 text-sm font-semibold">{title}</h2>
            <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
