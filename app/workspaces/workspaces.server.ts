import { sql } from "kysely";
import { recalled, remember } from "~/auth/request-memo.server";
import type { Database } from "~/db/database.server";
import { isUniqueViolation } from "~/db/errors.server";
import type { Role } from "~/db/schema";
import { singleLineText } from "~/forms/fields.server";
import { maxSlugLength } from "./slug-from-name";

/** Words that name pages of the site, or would read like them. */
const reservedSlugs = new Set([
  "new", "settings", "admin", "api", "login", "logout", "signup", "invitations", "w", "p", "search",
  "assets", "healthz", "readyz", "monitoring", "help", "about", "account", "app", "static", "www",
]);

export const workspaceNameField = singleLineText({ empty: "Enter a workspace name.", max: 80 });

const slugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const workspaceSlugField = singleLineText({ empty: "Enter a slug.", max: maxSlugLength })
  .toLowerCase()
  .min(3, "Use at least 3 characters.")
  .regex(slugPattern, "Use a–z, 0–9 and single hyphens, not at the start or the end.")
  .refine((slug) => !reservedSlugs.has(slug), "That slug is reserved: choose another.");

/** Whether a URL's `:workspace` can name a workspace at all: anything else is not looked up. */
export const isWorkspaceSlug = (text: string) => text.length <= maxSlugLength && slugPattern.test(text);

export const slugTakenMessage = "That slug is taken: choose another.";

export type WorkspaceSummary = { id: number; slug: string; name: string; role: Role };

export async function createWorkspace(
  db: Database,
  workspace: { name: string; slug: string; ownerId: number; now: Date },
): Promise<{ slug: string } | { field: "slug"; message: string }> {
  const now = workspace.now.toISOString();
  try {
    await db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto("workspaces")
        .values({ slug: workspace.slug, name: workspace.name, created_at: now, updated_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("memberships")
        .values({ workspace_id: id, user_id: workspace.ownerId, role: "owner", created_at: now, updated_at: now })
        .execute();
      await trx.updateTable("users").set({ last_workspace_id: id }).where("id", "=", workspace.ownerId).execute();
    });
    return { slug: workspace.slug };
  } catch (error) {
    if (isUniqueViolation(error)) return { field: "slug", message: slugTakenMessage };
    throw error;
  }
}

export function listUserWorkspaces(db: Database, userId: number): Promise<WorkspaceSummary[]> {
  return db
    .selectFrom("memberships")
    .innerJoin("workspaces", "workspaces.id", "memberships.workspace_id")
    .select(["workspaces.id", "workspaces.slug", "workspaces.name", "memberships.role"])
    .where("memberships.user_id", "=", userId)
    .orderBy("workspaces.name")
    .execute();
}

/**
 * Whether the user is a member of a workspace at all: yes when they have a last used one (leaving or
 * losing it clears it), else asked (the pages outside a workspace offer "Back to workspace" on it).
 */
export async function isInAnyWorkspace(db: Database, user: { id: number; lastWorkspaceId: number | null }): Promise<boolean> {
  if (user.lastWorkspaceId !== null) return true;
  return (await db.selectFrom("memberships").select("id").where("user_id", "=", user.id).limit(1).executeTakeFirst()) !== undefined;
}

/** The workspace with this slug and the user's role in it; undefined when it does not exist or they are not a member. */
export function findWorkspaceAccess(db: Database, slug: string, userId: number): Promise<WorkspaceSummary | undefined> {
  return db
    .selectFrom("workspaces")
    .innerJoin("memberships", "memberships.workspace_id", "workspaces.id")
    .select(["workspaces.id", "workspaces.slug", "workspaces.name", "memberships.role"])
    .where("workspaces.slug", "=", slug)
    .where("memberships.user_id", "=", userId)
    .executeTakeFirst();
}

export async function renameWorkspace(db: Database, workspaceId: number, name: string, now: Date): Promise<void> {
  await db.updateTable("workspaces").set({ name, updated_at: now.toISOString() }).where("id", "=", workspaceId).execute();
}

/** Deletes the workspace and, through foreign keys, everything in it. */
export async function deleteWorkspace(db: Database, workspaceId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ last_workspace_id: null }).where("last_workspace_id", "=", workspaceId).execute();
    await trx.deleteFrom("workspaces").where("id", "=", workspaceId).execute();
  });
}

export type ProjectSummary = { id: number; key: string; name: string; archived_at: string | null };
export type MemberSummary = { userId: number; name: string; email: string; handle: string; role: Role; created_at: string };
export type LabelSummary = { id: number; name: string; color: string; updated_at: string };

/** Everything a page of a workspace shares: the workspace, its sidebar, its people and labels. */
export type WorkspaceContext = {
  /** The workspace and the user's role in it. */
  workspace: WorkspaceSummary;
  /** All of the user's workspaces (this one too), by name. */
  workspaces: WorkspaceSummary[];
  /** Its projects, by name; `description` only for the project asked for (`projectKey`), else null. */
  projects: (ProjectSummary & { description: string | null })[];
  /** Its members, by name (as `listMembers`). */
  members: MemberSummary[];
  /** Its labels, by name (as `listLabels`). */
  labels: LabelSummary[];
  /** How many of the user's inbox rows in it are unread (the sidebar's count). */
  unread: number;
  /** The saved views the user sees in the sidebar — the workspace's shared ones and their own — by name. */
  views: SidebarView[];
};

export type SidebarView = { id: number; projectId: number; name: string; query: string; shared: boolean };

type ContextRow = { k: "w" | "p" | "m" | "l" | "n" | "v"; id: number; a: string; b: string; c: string | null; t: string | null; h: string | null };

/**
 * The workspace with this slug, if the user is a member, with what every page of it shows or
 * checks — the user's workspaces, its projects, members and labels, their unread count (less the issue
 * `issueNumber` of `projectKey`, which its page reads as it loads), the saved views they see (each
 * branch through one of the unique indexes on names, migrations/0021) — in one query: one row per
 * thing, the same columns in each branch. Undefined when it does not exist or they are not a member.
 */
export async function loadWorkspaceContext(db: Database, slug: string, userId: number, projectKey?: string, issueNumber?: number): Promise<WorkspaceContext | undefined> {
  const here = sql`(select w.id from workspaces w inner join memberships m on m.workspace_id = w.id where w.slug = ${slug} and m.user_id = ${userId})`;
  const { rows } = await sql<ContextRow>`
    select 'w' as k, w.id, w.slug as a, w.name as b, m.role as c, cast(null as timestamptz) as t, w.name as s, cast(null as text) as h
      from memberships m inner join workspaces w on w.id = m.workspace_id
      where m.user_id = ${userId}
    union all
    select 'p', p.id, p.key, p.name, case when p.key = ${projectKey?.toUpperCase() ?? null} then p.description end, p.archived_at, p.name, null
      from projects p
      where p.workspace_id = ${here}
    union all
    select 'm', u.id, u.name, u.email, m.role, m.created_at, u.name, u.handle
      from memberships m inner join users u on u.id = m.user_id
      where m.workspace_id = ${here}
    union all
    select 'l', l.id, l.name, l.color, null, l.updated_at, lower(l.name), null
      from labels l
      where l.workspace_id = ${here}
    union all
    select 'n', cast(count(*) as integer), '', '', null, null, '', null
      from notifications n
      where n.user_id = ${userId} and n.workspace_id = ${here} and n.read_at is null
        and n.issue_id <> coalesce((select i.id from issues i inner join projects p on p.id = i.project_id
          where p.workspace_id = ${here} and p.key = ${projectKey?.toUpperCase() ?? null} and i.number = ${issueNumber ?? null}), 0)
    union all
    select 'v', v.id, v.name, v.query, 'shared', null, lower(v.name), cast(v.project_id as text)
      from saved_views v
      where v.workspace_id = ${here} and v.shared = 1
    union all
    select 'v', v.id, v.name, v.query, 'private', null, lower(v.name), cast(v.project_id as text)
      from saved_views v
      where v.owner_id = ${userId} and v.workspace_id = ${here} and v.shared = 0
    order by k, s, id`.execute(db);
  const context: WorkspaceContext = { workspace: undefined as never, workspaces: [], projects: [], members: [], labels: [], unread: 0, views: [] };
  for (const row of rows) {
    if (row.k === "w") {
      const workspace = { id: row.id, slug: row.a, name: row.b, role: row.c as Role };
      context.workspaces.push(workspace);
      if (workspace.slug === slug) context.workspace = workspace;
    } else if (row.k === "p") context.projects.push({ id: row.id, key: row.a, name: row.b, description: row.c, archived_at: row.t });
    else if (row.k === "m") context.members.push({ userId: row.id, name: row.a, email: row.b, handle: row.h!, role: row.c as Role, created_at: row.t! });
    else if (row.k === "n") context.unread = Number(row.id);
    else if (row.k === "v") context.views.push({ id: row.id, projectId: Number(row.h), name: row.a, query: row.b, shared: row.c === "shared" });
    else context.labels.push({ id: row.id, name: row.a, color: row.b, updated_at: row.t! });
  }
  return context.workspace ? context : undefined;
}

const contextKey = (workspaceId: number) => `workspace context ${workspaceId}`;

/** Keeps a workspace's context for the rest of this request (a read: see `request-memo.server.ts`). */
export const rememberWorkspaceContext = (context: WorkspaceContext) => remember(contextKey(context.workspace.id), context);

/** What this request already knows of a workspace (its projects, members, labels), if it does. */
export const knownWorkspaceContext = (workspaceId: number) => recalled<WorkspaceContext>(contextKey(workspaceId));
