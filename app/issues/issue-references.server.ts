import type { Kysely, Transaction } from "kysely";
import type { DB } from "~/db/schema";
import { isClosed, issueKey } from "./issue-fields";
import type { ReferencedIssue } from "./markdown.server";
import type { IssueReference } from "./references";

type Trx = Transaction<DB>;

/** An issue a text references, found: enough to link it and to record the reference on it. */
export type FoundReference = ReferencedIssue & { id: number; version: number };

/**
 * The issues of this workspace that these references name, by key (`WEB-42`) — one query, on the
 * projects' (workspace, key) and the issues' (project, number) unique indexes. A key of another
 * workspace's project, or a number its project has not reached, is simply absent: such a reference
 * stays text, and says nothing about what exists elsewhere.
 */
export async function findReferencedIssues(db: Kysely<DB>, workspaceId: number, references: readonly IssueReference[]): Promise<Map<string, FoundReference>> {
  const found = new Map<string, FoundReference>();
  if (!references.length) return found;
  const numbersByKey = new Map<string, number[]>();
  for (const { projectKey, number } of references) numbersByKey.set(projectKey, [...(numbersByKey.get(projectKey) ?? []), number]);
  // Each key's project id as a subquery of its own, so that every branch of the OR is a lookup in
  // the issues' (project, number) index — a join on the key would leave PostgreSQL a full scan.
  const rows = await db
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .select(["issues.id", "issues.number", "issues.title", "issues.status", "issues.version", "projects.key"])
    .where((eb) =>
      eb.or(
        [...numbersByKey].map(([key, numbers]) =>
          eb.and([
            eb("issues.project_id", "=", eb.selectFrom("projects as keyed").select("keyed.id").where("keyed.workspace_id", "=", workspaceId).where("keyed.key", "=", key)),
            eb("issues.number", "in", numbers),
          ]),
        ),
      ),
    )
    .execute();
  for (const row of rows) {
    found.set(issueKey(row.key, row.number), { id: row.id, version: row.version, title: row.title, closed: isClosed(row.status) });
  }
  return found;
}

/**
 * Records on each issue a text newly references that it was mentioned in the source issue (its
 * timeline reads "Ada mentioned it in WEB-7"), once per source issue however often it is
 * mentioned again. Part of recording the source issue's event, in its transaction; the referenced
 * issue's fields and version do not change.
 */
export async function recordReferences(
  trx: Trx,
  source: { workspaceId: number; issueId: number; actorId: number; now: Date },
  references: readonly IssueReference[],
): Promise<void> {
  if (!references.length) return;
  const targets = [...(await findReferencedIssues(trx, source.workspaceId, references)).values()].filter((t) => t.id !== source.issueId);
  if (!targets.length) return;
  const { key, number } = await trx
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .select(["projects.key", "issues.number"])
    .where("issues.id", "=", source.issueId)
    .executeTakeFirstOrThrow();
  const sourceKey = issueKey(key, number);
  const already = await trx
    .selectFrom("activities")
    .select("issue_id")
    .where("issue_id", "in", targets.map((t) => t.id))
    .where("kind", "=", "referenced")
    .where("to_value", "=", sourceKey)
    .execute();
  const recorded = new Set(already.map((row) => row.issue_id));
  const rows = targets
    .filter((t) => !recorded.has(t.id))
    .map((t) => ({
      issue_id: t.id,
      actor_id: source.actorId,
      kind: "referenced" as const,
      issue_version: t.version,
      from_value: null,
      to_value: sourceKey,
      from_user_id: null,
      to_user_id: null,
      created_at: source.now.toISOString(),
    }));
  if (rows.length) await trx.insertInto("activities").values(rows).execute();
}
