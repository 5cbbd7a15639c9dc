import { type Kysely, sql } from "kysely";
import { columnTypes } from "~/db/column-types.server";
import type { Dialect } from "~/db/database.server";

/**
 * The issue write path's records (app/issues/issue-events.server.ts, decision record 018):
 * - `events`: every change to an issue as a typed domain event, written with the change;
 * - `notifications`: one row per person and issue, its latest reason; read or not;
 * - `users.notification_email`: which notifications are mailed (`all`, `direct`, `none`);
 * - activities keep values, not display strings: status and priority keys, label ids (JSON), and
 *   the assignee as a user id (`from_user_id`, `to_user_id`). Existing rows are converted; a name
 *   or a label list that no longer matches anything stays as it was written, and is shown as such.
 * (The labels are written out here, not imported, so that this migration does tomorrow what it does today.)
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  const t = columnTypes(dialect);
  await t
    .withId(db.schema.createTable("events"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("actor_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("events_issue_id").on("events").columns(["issue_id", "id"]).execute();
  await db.schema.createIndex("events_workspace_id").on("events").columns(["workspace_id", "id"]).execute();

  await t
    .withId(db.schema.createTable("notifications"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("workspace_id", "integer", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("actor_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("read_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("notifications_user_issue").on("notifications").columns(["user_id", "issue_id"]).unique().execute();
  // The inbox, newest first, and its unread count.
  await db.schema.createIndex("notifications_inbox").on("notifications").columns(["user_id", "workspace_id", "updated_at"]).execute();
  await db.schema
    .createIndex("notifications_unread")
    .on("notifications")
    .columns(["user_id", "workspace_id"])
    .where(sql.ref("read_at"), "is", null)
    .execute();

  await db.schema.alterTable("users").addColumn("notification_email", "text", (c) => c.notNull().defaultTo("direct")).execute();

  await db.schema.alterTable("activities").addColumn("from_user_id", "integer", (c) => c.references("users.id").onDelete("set null")).execute();
  await db.schema.alterTable("activities").addColumn("to_user_id", "integer", (c) => c.references("users.id").onDelete("set null")).execute();
  await convertActivities(db);
}

const statusKeys: Record<string, string> = {
  Backlog: "backlog",
  Todo: "todo",
  "In progress": "in_progress",
  "In review": "in_review",
  Done: "done",
  Canceled: "canceled",
};
const priorityKeys: Record<string, string> = { "No priority": "none", Low: "low", Medium: "medium", High: "high", Urgent: "urgent" };

async function convertActivities(db: Kysely<any>) {
  for (const [kind, keys] of [["status", statusKeys], ["priority", priorityKeys]] as const) {
    for (const column of ["from_value", "to_value"]) {
      const cases = sql.join(Object.entries(keys).map(([label, key]) => sql`when ${label} then ${key}`), sql` `);
      await sql`update activities set ${sql.ref(column)} = case ${sql.ref(column)} ${cases} else ${sql.ref(column)} end where kind = ${kind}`.execute(db);
    }
  }

  // An assignee's name becomes their id: the one member of the workspace of that name, else
  // the one user of that name.
  for (const [value, userId] of [["from_value", "from_user_id"], ["to_value", "to_user_id"]] as const) {
    const named = sql`activities.kind = 'assignee' and activities.${sql.ref(value)} is not null and activities.${sql.ref(userId)} is null`;
    await sql`
      update activities set ${sql.ref(userId)} = (
        select min(m.user_id) from memberships m
          inner join users u on u.id = m.user_id
          inner join issues i on i.id = activities.issue_id
          inner join projects p on p.id = i.project_id
          where m.workspace_id = p.workspace_id and u.name = activities.${sql.ref(value)}
          having count(*) = 1)
      where ${named}`.execute(db);
    await sql`
      update activities set ${sql.ref(userId)} = (select min(u.id) from users u where u.name = activities.${sql.ref(value)} having count(*) = 1)
      where ${named}`.execute(db);
    await sql`update activities set ${sql.ref(value)} = null where kind = 'assignee' and ${sql.ref(userId)} is not null`.execute(db);
  }

  // "Bug, Security" becomes [3,7] when every name is a label of the workspace.
  const lists: { workspace_id: number; value: string }[] = (
    await sql<{ workspace_id: number; value: string }>`
      select distinct p.workspace_id, v.value from (
        select issue_id, from_value as value from activities where kind = 'labels' and from_value is not null
        union select issue_id, to_value from activities where kind = 'labels' and to_value is not null) v
      inner join issues i on i.id = v.issue_id
      inner join projects p on p.id = i.project_id`.execute(db)
  ).rows;
  const labelsOf = new Map<number, Map<string, number>>();
  for (const { workspace_id, value } of lists) {
    let labels = labelsOf.get(workspace_id);
    if (!labels) {
      const rows: { id: number; name: string }[] = await db.selectFrom("labels").select(["id", "name"]).where("workspace_id", "=", workspace_id).execute();
      labels = new Map(rows.map((row) => [row.name, row.id]));
      labelsOf.set(workspace_id, labels);
    }
    const ids = value.split(", ").map((name) => labels.get(name));
    if (ids.some((id) => id === undefined)) continue;
    const json = JSON.stringify((ids as number[]).sort((a, b) => a - b));
    const inWorkspace = sql`issue_id in (select i.id from issues i inner join projects p on p.id = i.project_id where p.workspace_id = ${workspace_id})`;
    for (const column of ["from_value", "to_value"]) {
      await sql`update activities set ${sql.ref(column)} = ${json} where kind = 'labels' and ${sql.ref(column)} = ${value} and ${inWorkspace}`.execute(db);
    }
  }
}
