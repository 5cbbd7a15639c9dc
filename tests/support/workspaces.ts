import type { Database } from "~/db/database.server";
import type { DB, Role } from "~/db/schema";
import type { LabelColor } from "~/labels/palette";
import { insertUser } from "./users";

/** What createIssue and the board's functions take of a project. */
export type SeededProject = { id: number; workspace_id: number };

/**
 * A workspace with its members, projects and labels, written directly: for tests of what happens
 * inside a workspace rather than of setting one up (those go through createWorkspace or HTTP).
 * Rows go in the order given, so ids follow it.
 */
export async function seedTestWorkspace<Member extends string = never, Key extends string = never, Label extends string = never>(
  db: Database,
  workspace: {
    slug: string;
    /** The slug unless given. */
    name?: string;
    at: Date;
    /** New users by name (see insertUser for their email), and their role here. */
    members?: Record<Member, Role>;
    /** Projects by key, and their names. */
    projects?: Record<Key, string>;
    /** Labels by name, and their colors. */
    labels?: Record<Label, LabelColor>;
  },
): Promise<{ id: number; users: Record<Member, number>; projects: Record<Key, SeededProject>; labels: Record<Label, number> }> {
  const now = workspace.at.toISOString();
  const stamps = { created_at: now, updated_at: now };
  const users = {} as Record<Member, number>;
  for (const name of Object.keys(workspace.members ?? {}) as Member[]) users[name] = await insertUser(db, { name, at: workspace.at });

  const { id } = await db
    .insertInto("workspaces")
    .values({ slug: workspace.slug, name: workspace.name ?? workspace.slug, ...stamps })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const [name, role] of Object.entries(workspace.members ?? {}) as [Member, Role][]) {
    await addMember(db, { workspaceId: id, userId: users[name], role, at: workspace.at });
  }

  const projects = {} as Record<Key, SeededProject>;
  for (const [key, name] of Object.entries(workspace.projects ?? {}) as [Key, string][]) {
    projects[key] = await insertProject(db, { workspaceId: id, key, name, at: workspace.at });
  }

  const labels = {} as Record<Label, number>;
  for (const [name, color] of Object.entries(workspace.labels ?? {}) as [Label, LabelColor][]) {
    const label = await db.insertInto("labels").values({ workspace_id: id, name, color, ...stamps }).returning("id").executeTakeFirstOrThrow();
    labels[name] = label.id;
  }
  return { id, users, projects, labels };
}

export async function addMember(db: Database, member: { workspaceId: number; userId: number; role: Role; at: Date }): Promise<void> {
  const now = member.at.toISOString();
  await db
    .insertInto("memberships")
    .values({ workspace_id: member.workspaceId, user_id: member.userId, role: member.role, created_at: now, updated_at: now })
    .execute();
}

export async function insertProject(db: Database, project: { workspaceId: number; key: string; name: string; at: Date }): Promise<SeededProject> {
  const now = project.at.toISOString();
  return db
    .insertInto("projects")
    .values({ workspace_id: project.workspaceId, key: project.key, name: project.name, created_at: now, updated_at: now })
    .returning(["id", "workspace_id"])
    .executeTakeFirstOrThrow();
}

/** Every table seedTestWorkspace and the issue functions write, children first so that foreign keys hold. */
const workspaceTables: (keyof DB)[] = ["attachments", "notifications", "events", "watches", "activities", "comments", "issue_labels", "issue_relations", "issues", "labels", "projects", "memberships", "workspaces", "users"];

/** Empties those tables, for suites that share one database and start each test from nothing. */
export async function emptyWorkspaceTables(db: Database): Promise<void> {
  for (const table of workspaceTables) await db.deleteFrom(table).execute();
}
