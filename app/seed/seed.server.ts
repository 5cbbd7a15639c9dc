import { parseArgs } from "node:util";
import { sql } from "kysely";
import { freeHandle, handleFromEmail } from "~/auth/handles.server";
import { hashPassword } from "~/auth/password.server";
import type { DatabaseHandle, Dialect } from "~/db/database.server";
import type { ActivityKind, Status } from "~/db/schema";
import { isClosed, priorityOf } from "~/issues/issue-fields";
import { workspaceSlugField } from "~/workspaces/workspaces.server";
import { commentText, demoEmail, demoLabels, demoPeople, demoProjects, issueText } from "./demo-content";
import { createRandom, type Random } from "./random";

/** Every seeded account signs in with this password (README, "npm run seed"). */
export const demoPassword = "cairn-demo-password";
export const maxSeedIssues = 1_000_000;

/** Fixed, so that the same arguments always seed the same workspace (benchmarks compare runs). */
const randomSeed = 20_250_301;
const hour = 60 * 60 * 1000;
const day = 24 * hour;
/** Issues were filed over the year before the seed runs. */
const history = 365 * day;

export const seedUsage = "Usage: npm run seed -- --workspace SLUG --issues COUNT";

/** `--workspace SLUG --issues COUNT` (defaults: demo, 1000), or the one line that says what is wrong. */
export function parseSeedArguments(args: string[]): { slug: string; issueCount: number } | { error: string } {
  let values: { workspace: string; issues: string };
  try {
    ({ values } = parseArgs({
      args,
      options: { workspace: { type: "string", default: "demo" }, issues: { type: "string", default: "1000" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // Node's messages may span lines; the operator gets one.
    return { error: `${(error as Error).message.replace(/\s*\n\s*/g, " ").replace(/\.?$/, ".")} ${seedUsage}` };
  }
  const slug = workspaceSlugField.safeParse(values.workspace);
  if (!slug.success) return { error: `Invalid --workspace ${JSON.stringify(values.workspace)}: ${slug.error.issues[0]!.message} ${seedUsage}` };
  const issueCount = /^\d{1,7}$/.test(values.issues) ? Number(values.issues) : NaN;
  if (!(issueCount >= 1 && issueCount <= maxSeedIssues)) {
    return { error: `Invalid --issues ${JSON.stringify(values.issues)}: a whole number from 1 to ${maxSeedIssues.toLocaleString("en")}. ${seedUsage}` };
  }
  return { slug: slug.data, issueCount };
}

type PlannedComment = { authorIndex: number; body: string; createdAt: string; editedAt: string | null };
/** A change, its values as activity keeps them: keys; the assignee and labels by demo index. */
type PlannedActivity = {
  actorIndex: number;
  kind: ActivityKind;
  version: number;
  from: string | null;
  to: string | null;
  toPersonIndex?: number;
  toLabelIndexes?: number[];
  createdAt: string;
};

/** One issue as it will be stored; people, projects and labels by their index in demo-content. */
type PlannedIssue = {
  projectIndex: number;
  number: number;
  title: string;
  description: string;
  status: Status;
  priority: number;
  assigneeIndex: number | null;
  reporterIndex: number;
  dueDate: string | null;
  closedAt: string | null;
  sortOrder: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  labelIndexes: number[];
  comments: PlannedComment[];
  activities: PlannedActivity[];
};

const iso = (ms: number) => new Date(Math.floor(ms)).toISOString();

/** People who work on issues (not viewers), as often as their workload says. */
const workers = demoPeople.flatMap((person, index) => (person.workload > 0 ? [[index, person.workload] as const] : []));
const projectShares = demoProjects.map((project, index) => [index, project.share] as const);
const labelIndexByName = new Map(demoLabels.map((label, index) => [label.name, index]));
const progression: Status[] = ["backlog", "todo", "in_progress", "in_review", "done"];

/** The statuses an issue went through, from the one it was filed in to `final`. */
function statusPath(final: Status, random: Random): Status[] {
  if (final === "backlog") return ["backlog"];
  const first: Status = random.chance(0.5) ? "backlog" : "todo";
  if (final === "canceled") return [first, ...(random.chance(0.3) ? (["in_progress"] as const) : []), "canceled"];
  const path = progression.slice(progression.indexOf(first), progression.indexOf(final) + 1);
  // Some work skips review.
  return final === "done" && random.chance(0.3) ? path.filter((status) => status !== "in_review") : path;
}

/**
 * The issues, in the order they were filed over the year before `now`: older ones are more often
 * closed; each has the activity its history implies (its version counts the changes) and comments.
 */
function planIssues(count: number, now: Date, random: Random): PlannedIssue[] {
  const end = now.getTime() - hour;
  const start = end - history;
  const step = history / count;
  const nextNumber = demoProjects.map(() => 0);
  // Board order: each card goes to the bottom of its column, as a new issue does.
  const columnLength = new Map<string, number>();
  const issues: PlannedIssue[] = [];

  for (let i = 0; i < count; i++) {
    const created = start + (i + random.next()) * step;
    const age = (end - created) / history;
    const projectIndex = random.weighted(projectShares);
    const { title, description, kindLabel } = issueText(demoProjects[projectIndex]!.areas, random);
    const closed = random.chance(0.15 + 0.7 * age);
    const status: Status = closed
      ? random.chance(0.85) ? "done" : "canceled"
      : random.weighted<Status>([["backlog", 35], ["todo", 30], ["in_progress", 20], ["in_review", 15]]);
    const priority = random.weighted([[0, 20], [1, 25], [2, 30], [3, 18], [4, 7]]);
    const reporterIndex = random.weighted(workers);
    const started = status === "in_progress" || status === "in_review" || status === "done";
    const assigneeIndex = random.chance(started ? 0.95 : 0.7) ? random.weighted(workers) : null;
    const labelIndexes = [
      ...(random.chance(0.7) ? [labelIndexByName.get(kindLabel)!] : []),
      ...random.sample([...demoLabels.keys()], random.int(0, 2)),
    ].filter((index, position, all) => all.indexOf(index) === position);
    // Closed issues were mostly closed soon after they were filed.
    const lastChange = created + (now.getTime() - created) * (closed ? random.next() ** 2 : random.next());

    // The changes after filing, in order: status changes last, so the final one may close the issue.
    const changes: Omit<PlannedActivity, "version" | "createdAt" | "actorIndex">[] = [];
    const assignedLater = assigneeIndex !== null && random.chance(0.5);
    if (assignedLater) changes.push({ kind: "assignee", from: null, to: null, toPersonIndex: assigneeIndex });
    if (random.chance(0.15)) {
      const filedWith = priorityOf((priority + random.int(1, 4)) % 5);
      changes.push({ kind: "priority", from: filedWith, to: priorityOf(priority) });
    }
    const labeledLater = labelIndexes.length > 0 && random.chance(0.2);
    if (labeledLater) changes.push({ kind: "labels", from: null, to: null, toLabelIndexes: labelIndexes });
    const path = statusPath(status, random);
    for (let s = 1; s < path.length; s++) changes.push({ kind: "status", from: path[s - 1]!, to: path[s]! });

    const changeTimes = changes.map(() => created + random.next() * (lastChange - created)).sort((a, b) => a - b);
    if (closed && changeTimes.length) changeTimes[changeTimes.length - 1] = lastChange;
    const activities: PlannedActivity[] = [
      { actorIndex: reporterIndex, kind: "created", version: 1, from: null, to: null, createdAt: iso(created) },
      ...changes.map((change, index) => ({ ...change, actorIndex: random.weighted(workers), version: index + 2, createdAt: iso(changeTimes[index]!) })),
    ];

    const commentCount = random.weighted([[0, 35], [1, 25], [2, 18], [3, 10], [4, 6], [5, 4], [8, 2]]);
    const comments = Array.from({ length: commentCount }, () => created + random.next() * (lastChange - created))
      .sort((a, b) => a - b)
      .map((at): PlannedComment => ({
        authorIndex: random.weighted(workers),
        body: commentText(random),
        createdAt: iso(at),
        editedAt: random.chance(0.08) ? iso(Math.min(now.getTime(), at + random.int(1, 120) * 60_000)) : null,
      }));

    const number = ++nextNumber[projectIndex]!;
    const column = `${projectIndex}:${status}`;
    const sortOrder = (columnLength.get(column) ?? 0) + 1;
    columnLength.set(column, sortOrder);
    const updated = Math.max(created, changeTimes.at(-1) ?? created, comments.length ? Date.parse(comments.at(-1)!.createdAt) : created);
    issues.push({
      projectIndex,
      number,
      title,
      description,
      status,
      priority,
      assigneeIndex,
      reporterIndex,
      dueDate: random.chance(0.3) ? iso(created + random.int(3, 60) * day).slice(0, 10) : null,
      closedAt: isClosed(status) ? activities.at(-1)!.createdAt : null,
      sortOrder,
      version: activities.length,
      createdAt: iso(created),
      updatedAt: iso(updated),
      labelIndexes,
      comments,
      activities,
    });
  }
  return issues;
}

/** The most bind parameters one statement may have: SQLite's default limit, PostgreSQL's protocol limit. */
const maxParameters: Record<Dialect, number> = { sqlite: 32_766, postgres: 65_535 };

/** Inserts rows in as few statements as the database's parameter limit allows. */
async function insertInChunks<Row extends object, Result>(
  dialect: Dialect,
  rows: Row[],
  insert: (chunk: Row[]) => Promise<Result[]>,
): Promise<Result[]> {
  if (!rows.length) return [];
  const size = Math.floor(maxParameters[dialect] / Object.keys(rows[0]!).length);
  const results: Result[] = [];
  for (let at = 0; at < rows.length; at += size) results.push(...(await insert(rows.slice(at, at + size))));
  return results;
}

export type SeedSummary = {
  workspaceId: number;
  ownerEmail: string;
  /** Only the first account of an instance administers it: on an instance with accounts, the owner does not. */
  ownerIsInstanceAdmin: boolean;
  members: number;
  labels: number;
  projects: { key: string; issues: number }[];
  issues: number;
  comments: number;
  activities: number;
};

/**
 * Creates a realistic workspace `slug` — the team of demo-content.ts with one password, projects,
 * labels, and `issueCount` issues with comments, activity and board order — in one transaction,
 * with few, large statements. Search finds the issues at once (SQLite's triggers and PostgreSQL's
 * generated columns index them), and each project's counter continues after its last issue.
 * Refuses, changing nothing, when the workspace or one of the accounts exists already.
 */
export async function seedWorkspace(
  { db, dialect }: DatabaseHandle,
  options: { slug: string; issueCount: number; now: Date },
): Promise<SeedSummary | { refused: string }> {
  const { slug, now } = options;
  // Hashed once for everyone: scrypt is meant to be slow.
  const passwordHash = await hashPassword(demoPassword);
  const issues = planIssues(options.issueCount, now, createRandom(randomSeed));
  const since = iso(now.getTime() - hour - history);

  const seeded = await db.transaction().execute(async (trx): Promise<SeedSummary | { refused: string }> => {
    if (await trx.selectFrom("workspaces").select("id").where("slug", "=", slug).executeTakeFirst()) {
      return { refused: `A workspace with the slug "${slug}" exists already: seed another slug.` };
    }
    const emails = demoPeople.map((person) => demoEmail(person.name, slug));
    const taken = await trx.selectFrom("users").select("email").where("email", "in", emails).executeTakeFirst();
    if (taken) return { refused: `An account with the email ${taken.email} exists already: seed another slug.` };
    // As with sign-up, the first account of an instance administers it.
    const firstAccount = !(await trx.selectFrom("users").select("id").limit(1).executeTakeFirst());

    const { id: workspaceId } = await trx
      .insertInto("workspaces")
      .values({ slug, name: `${slug.charAt(0).toUpperCase()}${slug.slice(1)} workspace`, created_at: since, updated_at: since })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Handles as sign-up makes them: from the email, told apart from any the instance has.
    const handles: string[] = [];
    for (const email of emails) handles.push(await freeHandle(trx, handleFromEmail(email)));
    const users = await trx
      .insertInto("users")
      .values(
        demoPeople.map((person, index) => ({
          email: emails[index]!,
          name: person.name,
          handle: handles[index]!,
          password_hash: passwordHash,
          is_instance_admin: firstAccount && index === 0 ? 1 : 0,
          last_workspace_id: workspaceId,
          created_at: since,
          updated_at: since,
        })),
      )
      .returning(["id", "email"])
      .execute();
    const userIds = emails.map((email) => users.find((user) => user.email === email)!.id);
    await trx
      .insertInto("memberships")
      .values(demoPeople.map((person, index) => ({ workspace_id: workspaceId, user_id: userIds[index]!, role: person.role, created_at: since, updated_at: since })))
      .execute();

    const labels = await trx
      .insertInto("labels")
      .values(demoLabels.map((label) => ({ workspace_id: workspaceId, name: label.name, color: label.color, created_at: since, updated_at: since })))
      .returning(["id", "name"])
      .execute();
    const labelIds = demoLabels.map((label) => labels.find((row) => row.name === label.name)!.id);

    const issueCounts = demoProjects.map((_, index) => issues.filter((issue) => issue.projectIndex === index).length);
    const projects = await trx
      .insertInto("projects")
      .values(
        demoProjects.map((project, index) => ({
          workspace_id: workspaceId,
          key: project.key,
          name: project.name,
          description: project.description,
          next_issue_number: issueCounts[index]! + 1,
          created_at: since,
          updated_at: since,
        })),
      )
      .returning(["id", "key"])
      .execute();
    const projectIds = demoProjects.map((project) => projects.find((row) => row.key === project.key)!.id);

    const inserted = await insertInChunks(
      dialect,
      issues.map((issue) => ({
        project_id: projectIds[issue.projectIndex]!,
        number: issue.number,
        title: issue.title,
        description: issue.description,
        status: issue.status,
        priority: issue.priority,
        assignee_id: issue.assigneeIndex === null ? null : userIds[issue.assigneeIndex]!,
        reporter_id: userIds[issue.reporterIndex]!,
        due_date: issue.dueDate,
        closed_at: issue.closedAt,
        sort_order: issue.sortOrder,
        version: issue.version,
        created_at: issue.createdAt,
        updated_at: issue.updatedAt,
      })),
      (chunk) => trx.insertInto("issues").values(chunk).returning(["id", "project_id", "number"]).execute(),
    );
    // Matched by (project, number) rather than trusting the order RETURNING gives rows back in.
    const issueIdOf = new Map(inserted.map((row) => [`${row.project_id}:${row.number}`, row.id]));
    const issueIds = issues.map((issue) => issueIdOf.get(`${projectIds[issue.projectIndex]}:${issue.number}`)!);

    await insertInChunks(
      dialect,
      issues.flatMap((issue, i) => issue.labelIndexes.map((labelIndex) => ({ issue_id: issueIds[i]!, label_id: labelIds[labelIndex]! }))),
      (chunk) => trx.insertInto("issue_labels").values(chunk).execute(),
    );
    const comments = issues.flatMap((issue, i) =>
      issue.comments.map((comment) => ({
        issue_id: issueIds[i]!,
        author_id: userIds[comment.authorIndex]!,
        body: comment.body,
        edited_at: comment.editedAt,
        created_at: comment.createdAt,
        updated_at: comment.editedAt ?? comment.createdAt,
      })),
    );
    await insertInChunks(dialect, comments, (chunk) => trx.insertInto("comments").values(chunk).execute());
    const activities = issues.flatMap((issue, i) =>
      issue.activities.map((activity) => ({
        issue_id: issueIds[i]!,
        actor_id: userIds[activity.actorIndex]!,
        kind: activity.kind,
        issue_version: activity.version,
        from_value: activity.from,
        to_value: activity.toLabelIndexes ? JSON.stringify(activity.toLabelIndexes.map((index) => labelIds[index]!).sort((a, b) => a - b)) : activity.to,
        from_user_id: null,
        to_user_id: activity.toPersonIndex === undefined ? null : userIds[activity.toPersonIndex]!,
        created_at: activity.createdAt,
      })),
    );
    await insertInChunks(dialect, activities, (chunk) => trx.insertInto("activities").values(chunk).execute());

    // Reporters, assignees and commenters watch their issues, as the write path would have it.
    const watches = issues.flatMap((issue, i) => {
      const people = new Set([issue.reporterIndex, ...(issue.assigneeIndex === null ? [] : [issue.assigneeIndex]), ...issue.comments.map((c) => c.authorIndex)]);
      return [...people].map((index) => ({ issue_id: issueIds[i]!, user_id: userIds[index]!, created_at: issue.createdAt }));
    });
    await insertInChunks(dialect, watches, (chunk) => trx.insertInto("watches").values(chunk).execute());
    // The owner's inbox: the latest issues others assigned to them, the newest five unread.
    const assignedToOwner = issues
      .map((issue, i) => ({ issue, id: issueIds[i]! }))
      .filter(({ issue }) => issue.assigneeIndex === 0 && issue.reporterIndex !== 0)
      .slice(-20)
      .reverse();
    await insertInChunks(
      dialect,
      assignedToOwner.map(({ issue, id }, rank) => ({
        user_id: userIds[0]!,
        workspace_id: workspaceId,
        issue_id: id,
        reason: "assigned" as const,
        actor_id: userIds[issue.reporterIndex]!,
        read_at: rank < 5 ? null : issue.createdAt,
        created_at: issue.createdAt,
        updated_at: issue.createdAt,
      })),
      (chunk) => trx.insertInto("notifications").values(chunk).execute(),
    );

    return {
      workspaceId,
      ownerEmail: emails[0]!,
      ownerIsInstanceAdmin: firstAccount,
      members: demoPeople.length,
      labels: demoLabels.length,
      projects: demoProjects.map((project, index) => ({ key: project.key, issues: issueCounts[index]! })),
      issues: issues.length,
      comments: comments.length,
      activities: activities.length,
    };
  });
  if (!("refused" in seeded)) await tidyAfterBulkLoad({ db, dialect });
  return seeded;
}

/**
 * As after any import: SQLite's full-text indexes, left in many small pieces (each comment re-indexes
 * its issue; each new word is indexed by its trigrams, migrations/0026), are merged into one each;
 * PostgreSQL's issues, rewritten as their comments were indexed (migrations/0011), are vacuumed and
 * its statistics brought up to date. Searches then read what a running instance's own upkeep (FTS5's
 * merges, autovacuum) would leave.
 */
async function tidyAfterBulkLoad({ db, dialect }: DatabaseHandle) {
  if (dialect === "sqlite") {
    await sql`insert into search_index (search_index) values ('optimize')`.execute(db);
    await sql`insert into search_word_trigrams (search_word_trigrams) values ('optimize')`.execute(db);
  } else await sql`vacuum analyze`.execute(db);
}
