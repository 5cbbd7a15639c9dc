import { type Kysely, sql } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);

  await t
    .withId(db.schema.createTable("projects"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("archived_at", t.timestamp)
    .addColumn("next_issue_number", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("projects_workspace_key", ["workspace_id", "key"])
    .execute();

  await t
    .withId(db.schema.createTable("issues"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull())
    // 0 none, 1 low, 2 medium, 3 high, 4 urgent: a number, so that sorting by priority uses an index.
    .addColumn("priority", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("assignee_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("reporter_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("due_date", t.date)
    .addColumn("closed_at", t.timestamp)
    .addColumn("sort_order", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addUniqueConstraint("issues_project_number", ["project_id", "number"])
    .execute();
  // One index per way the list sorts and filters, each led by the project, ending in id for ties.
  const issueIndexes: [string, string[]][] = [
    ["issues_project_updated", ["project_id", "updated_at", "id"]],
    ["issues_project_created", ["project_id", "created_at", "id"]],
    ["issues_project_priority", ["project_id", "priority", "updated_at", "id"]],
    ["issues_project_status", ["project_id", "status", "updated_at", "id"]],
    ["issues_project_assignee", ["project_id", "assignee_id", "updated_at", "id"]],
    ["issues_project_board", ["project_id", "status", "sort_order"]],
    ["issues_assignee_status", ["assignee_id", "status"]],
    ["issues_reporter", ["reporter_id", "updated_at"]],
  ];
  for (const [name, columns] of issueIndexes) {
    await db.schema.createIndex(name).on("issues").columns(columns).execute();
  }
  // Due date with the undated last: the list orders by this very expression.
  await sql`create index issues_project_due on issues (project_id, (due_date is null), due_date, id)`.execute(db);

  await t
    .withId(db.schema.createTable("labels"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("color", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  // Label names are unique in a workspace ignoring case.
  await db.schema
    .createIndex("labels_workspace_name")
    .on("labels")
    .columns(["workspace_id"])
    .expression(sql`lower(name)`)
    .unique()
    .execute();

  await db.schema
    .createTable("issue_labels")
    .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("label_id", "integer", (c) => c.notNull().references("labels.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("issue_labels_pk", ["issue_id", "label_id"])
    .execute();
  await db.schema.createIndex("issue_labels_label").on("issue_labels").columns(["label_id", "issue_id"]).execute();

  await t
    .withId(db.schema.createTable("comments"))
    .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("author_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("edited_at", t.timestamp)
    .addColumn("deleted_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("comments_issue").on("comments").columns(["issue_id", "created_at"]).execute();

  await t
    .withId(db.schema.createTable("activities"))
    .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("actor_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("kind", "text", (c) => c.notNull())
    // The issue's version this change produced: a stale save finds what changed since its version.
    .addColumn("issue_version", "integer", (c) => c.notNull())
    .addColumn("from_value", "text")
    .addColumn("to_value", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("activities_issue").on("activities").columns(["issue_id", "created_at"]).execute();
}
