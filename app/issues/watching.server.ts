import type { Transaction } from "kysely";
import type { Database } from "~/db/database.server";
import type { DB } from "~/db/schema";
import type { ProjectScope } from "./write-scope.server";

/**
 * Starts watching: the issue (of that project) and the user, once however often it is asked. The
 * write paths call it for the reporter, the assignee and commenters, in their own transactions.
 */
export async function watchIssue(db: Database | Transaction<DB>, watch: { project: ProjectScope; issueId: number; userId: number; now: Date }): Promise<void> {
  await db
    .insertInto("watches")
    .columns(["issue_id", "user_id", "created_at"])
    .expression((eb) =>
      eb
        .selectFrom("issues")
        .select([eb.val(watch.issueId).as("issue_id"), eb.val(watch.userId).as("user_id"), eb.val(watch.now.toISOString()).as("created_at")])
        .where("id", "=", watch.issueId)
        .where("project_id", "=", watch.project.id),
    )
    .onConflict((oc) => oc.columns(["issue_id", "user_id"]).doNothing())
    .execute();
}

/** Stops watching (until they comment, are assigned or watch again). */
export async function unwatchIssue(db: Database, watch: { project: ProjectScope; issueId: number; userId: number }): Promise<void> {
  await db
    .deleteFrom("watches")
    .where("user_id", "=", watch.userId)
    .where("issue_id", "=", (eb) => eb.selectFrom("issues").select("id").where("id", "=", watch.issueId).where("project_id", "=", watch.project.id))
    .execute();
}
