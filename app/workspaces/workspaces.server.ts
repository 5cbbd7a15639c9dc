import type { Database } from "~/db/database.server";
import { isUniqueViolation } from "~/db/errors.server";
import type { Role } from "~/db/schema";
import { singleLineText } from "~/forms/fields.server";

/** Words that name pages of the site, or would read like them. */
const reservedSlugs = new Set([
  "new", "settings", "admin", "api", "login", "logout", "signup", "invitations", "w", "p", "search",
  "assets", "healthz", "readyz", "monitoring", "help", "about", "account", "app", "static", "www",
]);

export const workspaceNameField = singleLineText({ empty: "Enter a workspace name.", max: 80 });

const slugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const maxSlugLength = 40;

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
