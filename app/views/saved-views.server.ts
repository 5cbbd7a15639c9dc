import type { Database } from "~/db/database.server";
import { isUniqueViolation } from "~/db/errors.server";
import { singleLineText } from "~/forms/fields.server";
import { filterParams } from "~/issues/filter-params";
import { parseIssueFilters, refusedQueryMessage } from "~/issues/issue-list.server";
import { lockWorkspace } from "~/workspaces/members.server";
import { can, type Role } from "~/workspaces/roles";

/** docs/product.md, Limits: views one person may have in one project, shared or not. */
export const maxViewsPerProject = 50;

export const viewNameField = singleLineText({ empty: "Enter a name for the view.", max: 60 });

/** Who acts on a view, and where: the workspace of the URL and their role in it. */
export type ViewActor = { workspaceId: number; role: Role; userId: number };

/** A view as its page shows it. */
export type SavedView = {
  id: number;
  projectId: number;
  ownerId: number;
  ownerName: string;
  name: string;
  query: string;
  shared: boolean;
};

/** A refusal, in the shapes the issue writes use: a status and a message, or a field's message (400). */
export type ViewRefusal = { ok: false; status: 403 | 404; message: string } | { ok: false; status: 400; field: "name" | "query"; message: string };

export const viewNotFound = { ok: false, status: 404, message: "View not found." } as const;
const forbidden = { ok: false, status: 403, message: "You don't have permission to do that." } as const;
const duplicateName = (name: string): ViewRefusal => ({ ok: false, status: 400, field: "name", message: `A view named “${name}” already exists. Choose another name.` });
const limitReached: ViewRefusal = {
  ok: false,
  status: 400,
  field: "name",
  message: `You can have at most ${maxViewsPerProject} views in a project. Delete one you no longer use.`,
};

/** The unique indexes on names (saved_views_shared_name, saved_views_private_name) are the judge: two saves at once cannot both pass a lookup. */
const isDuplicateName = (error: unknown) => isUniqueViolation(error, "saved_views_");

/**
 * The list's query string a view keeps: what the list itself reads of `raw` (parseIssueFilters), written
 * back as the list writes its own links (filterParams, the sort unless it is the default), so a view
 * holds no page, no open menu and nothing the list would ignore. Search text the list refuses is
 * refused here too.
 */
export function canonicalListQuery(raw: string): { query: string } | { problem: string } {
  const filters = parseIssueFilters(new URLSearchParams(raw));
  if (filters.refusedQuery) return { problem: refusedQueryMessage(filters.refusedQuery) };
  return { query: filterParams(filters, { sort: filters.sort === "updated" ? null : filters.sort }).toString() };
}

/** Whether `actor` may rename or delete the view: its owner; for a shared view, also an admin or owner of the workspace. */
export const mayManageView = (view: { ownerId: number; shared: boolean }, actor: ViewActor) =>
  view.ownerId === actor.userId || (view.shared && can(actor.role, "views:manage-shared"));

/**
 * Saves the list of a project as a view, for its owner alone or, `shared`, for the workspace (a
 * viewer may save only their own: sharing needs `views:share`).
 */
export async function saveView(
  db: Database,
  view: { actor: ViewActor; projectId: number; name: string; query: string; shared: boolean; now: Date },
): Promise<{ ok: true; id: number; query: string } | ViewRefusal> {
  const { actor } = view;
  if (view.shared && !can(actor.role, "views:share")) return forbidden;
  const canonical = canonicalListQuery(view.query);
  if ("problem" in canonical) return { ok: false, status: 400, field: "query", message: canonical.problem };
  const now = view.now.toISOString();
  try {
    return await db.transaction().execute(async (trx) => {
      // So that two saves at once cannot both see room for one more view.
      await lockWorkspace(trx, actor.workspaceId);
      const { count } = await trx
        .selectFrom("saved_views")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("owner_id", "=", actor.userId)
        .where("project_id", "=", view.projectId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxViewsPerProject) return limitReached;
      const { id } = await trx
        .insertInto("saved_views")
        .values({
          workspace_id: actor.workspaceId,
          project_id: view.projectId,
          owner_id: actor.userId,
          name: view.name,
          query: canonical.query,
          shared: view.shared ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return { ok: true, id, query: canonical.query } as const;
    });
  } catch (error) {
    if (isDuplicateName(error)) return duplicateName(view.name);
    throw error;
  }
}

/**
 * A view of the project that `actor` can see — a shared one, or their own — with its owner's name;
 * undefined for any other (another person's private view is not revealed).
 */
export async function findView(db: Database, actor: ViewActor, projectId: number, viewId: number): Promise<SavedView | undefined> {
  const row = await db
    .selectFrom("saved_views")
    .innerJoin("users", "users.id", "saved_views.owner_id")
    .select([
      "saved_views.id",
      "saved_views.project_id",
      "saved_views.owner_id",
      "users.name as owner_name",
      "saved_views.name",
      "saved_views.query",
      "saved_views.shared",
    ])
    .where("saved_views.id", "=", viewId)
    .where("saved_views.workspace_id", "=", actor.workspaceId)
    .where("saved_views.project_id", "=", projectId)
    .where((eb) => eb.or([eb("saved_views.shared", "=", 1), eb("saved_views.owner_id", "=", actor.userId)]))
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, projectId: row.project_id, ownerId: row.owner_id, ownerName: row.owner_name, name: row.name, query: row.query, shared: row.shared === 1 };
}

/** The view if `actor` may change it; else why not (404 when they cannot see it, 403 when they only may look). */
async function manageableView(db: Database, actor: ViewActor, projectId: number, viewId: number): Promise<SavedView | ViewRefusal> {
  const view = await findView(db, actor, projectId, viewId);
  if (!view) return viewNotFound;
  return mayManageView(view, actor) ? view : forbidden;
}

export async function renameView(
  db: Database,
  rename: { actor: ViewActor; projectId: number; viewId: number; name: string; now: Date },
): Promise<{ ok: true } | ViewRefusal> {
  const view = await manageableView(db, rename.actor, rename.projectId, rename.viewId);
  if ("ok" in view) return view;
  try {
    await db.updateTable("saved_views").set({ name: rename.name, updated_at: rename.now.toISOString() }).where("id", "=", view.id).execute();
    return { ok: true };
  } catch (error) {
    if (isDuplicateName(error)) return duplicateName(rename.name);
    throw error;
  }
}

export async function deleteView(db: Database, removal: { actor: ViewActor; projectId: number; viewId: number }): Promise<{ ok: true } | ViewRefusal> {
  const view = await manageableView(db, removal.actor, removal.projectId, removal.viewId);
  if ("ok" in view) return view;
  await db.deleteFrom("saved_views").where("id", "=", view.id).execute();
  return { ok: true };
}
