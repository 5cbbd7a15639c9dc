import type { Database } from "~/db/database.server";
import { isUniqueViolation } from "~/db/errors.server";
import { multiLineText, singleLineText } from "~/forms/fields.server";
import { knownWorkspaceContext, type ProjectSummary } from "~/workspaces/workspaces.server";

/** docs/product.md, Limits. */
export const maxProjectsPerWorkspace = 200;

export const projectKeyField = singleLineText({ empty: "Enter a key." })
  .toUpperCase()
  .regex(/^[A-Z]{2,6}$/, "Use 2 to 6 letters A–Z, like WEB.");

export const projectNameField = singleLineText({ empty: "Enter a project name.", max: 80 });

export const projectDescriptionField = multiLineText({ max: 10_000 }).default("");

export const projectKeyTakenMessage = "A project with this key already exists in this workspace.";

export type Project = {
  id: number;
  workspace_id: number;
  key: string;
  name: string;
  description: string;
  archived_at: string | null;
};

export async function createProject(
  db: Database,
  project: { workspaceId: number; key: string; name: string; description: string; now: Date },
): Promise<{ key: string } | { field?: "key"; message: string }> {
  const { count } = await db
    .selectFrom("projects")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("workspace_id", "=", project.workspaceId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= maxProjectsPerWorkspace) {
    return { message: `A workspace can have at most ${maxProjectsPerWorkspace} projects.` };
  }
  const now = project.now.toISOString();
  try {
    await db
      .insertInto("projects")
      .values({
        workspace_id: project.workspaceId,
        key: project.key,
        name: project.name,
        description: project.description,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { key: project.key };
  } catch (error) {
    if (isUniqueViolation(error)) return { field: "key", message: projectKeyTakenMessage };
    throw error;
  }
}

/** A workspace's projects, by name (from this request's workspace lookup when it made one). */
export function listProjects(db: Database, workspaceId: number): Promise<ProjectSummary[]> {
  const known = knownWorkspaceContext(workspaceId);
  if (known) return Promise.resolve(known.projects);
  return db
    .selectFrom("projects")
    .select(["id", "key", "name", "archived_at"])
    .where("workspace_id", "=", workspaceId)
    .orderBy("name")
    .execute();
}

export function findProject(db: Database, workspaceId: number, key: string): Promise<Project | undefined> {
  return db
    .selectFrom("projects")
    .select(["id", "workspace_id", "key", "name", "description", "archived_at"])
    .where("workspace_id", "=", workspaceId)
    .where("key", "=", key.toUpperCase())
    .executeTakeFirst();
}

export async function updateProject(
  db: Database,
  projectId: number,
  changes: { name: string; description: string; now: Date },
): Promise<void> {
  await db
    .updateTable("projects")
    .set({ name: changes.name, description: changes.description, updated_at: changes.now.toISOString() })
    .where("id", "=", projectId)
    .execute();
}

export async function setProjectArchived(db: Database, projectId: number, archived: boolean, now: Date): Promise<void> {
  await db
    .updateTable("projects")
    .set({ archived_at: archived ? now.toISOString() : null, updated_at: now.toISOString() })
    .where("id", "=", projectId)
    .execute();
}
