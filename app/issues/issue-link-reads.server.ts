import { sql } from "kysely";
import type { Database } from "~/db/database.server";
import type { RelationType, Status } from "~/db/schema";
import { closedStatuses, isClosed, issueKey } from "./issue-fields";
import { type IssueRelation, type LinkedIssue, relationOrder, type SubIssueProgress, toSideView } from "./issue-links";

/**
 * Sub-issues and relations as pages read them (decision record 021): the issue page's links, and a
 * page of issues' progress and blocked flags. Kept apart from the changes of links
 * (issue-links.server.ts), which record events: the list and the API, which webhooks read, depend
 * on these reads alone.
 */

/**
 * The union branches of the issue page's one query (`findIssueDetail`) that bring its links, in
 * its columns: `p` its parent, `s` its sub-issues, `r` its relations (`n2` the relation's id, `s4`
 * its stored type, `n3` 1 when the issue is its `from` side). Each reads an index: issues by id and
 * by parent, relations by `from_id` and by `to_id`.
 */
export function linkBranches(issueId: ReturnType<typeof sql>) {
  const int = sql`cast(null as integer)`;
  const text = sql`cast(null as text)`;
  const time = sql`cast(null as timestamptz)`;
  const other = (alias: string) => sql`${sql.ref(`${alias}.id`)}, ${sql.ref(`${alias}.number`)}`;
  return sql`
    union all
    select 'p', pi.id, pi.number, ${int}, ${int}, ${int}, ${int}, pp.key, pi.title, pi.status, ${text}, ${text}, ${text}, ${time}, ${time}, ${time}
      from issues pi inner join projects pp on pp.id = pi.project_id
      where pi.id = (select parent_id from issues where id = ${issueId})
    union all
    select 's', si.id, si.number, ${int}, ${int}, ${int}, ${int}, sp.key, si.title, si.status, ${text}, ${text}, ${text}, ${time}, ${time}, ${time}
      from issues si inner join projects sp on sp.id = si.project_id
      where si.parent_id = ${issueId}
    union all
    select 'r', ${other("ri")}, rel.id, 1, ${int}, ${int}, rp.key, ri.title, ri.status, rel.type, ${text}, ${text}, ${time}, ${time}, ${time}
      from issue_relations rel inner join issues ri on ri.id = rel.to_id inner join projects rp on rp.id = ri.project_id
      where rel.from_id = ${issueId}
    union all
    select 'r', ${other("ri")}, rel.id, 0, ${int}, ${int}, rp.key, ri.title, ri.status, rel.type, ${text}, ${text}, ${time}, ${time}, ${time}
      from issue_relations rel inner join issues ri on ri.id = rel.from_id inner join projects rp on rp.id = ri.project_id
      where rel.to_id = ${issueId}`;
}

type LinkRow = { k: string; id: number; n1: number | null; n2: number | null; n3: number | null; s1: string | null; s2: string | null; s3: string | null; s4: string | null };

/** The issue's parent, sub-issues (by key) with their progress, and relations, from the page query's rows. */
export function linksOf(rows: readonly LinkRow[]) {
  const linked = (r: LinkRow): LinkedIssue => ({ id: r.id, key: issueKey(r.s1!, r.n1!), title: r.s2!, status: r.s3 as Status });
  const parentRow = rows.find((r) => r.k === "p");
  const subIssues = rows
    .filter((r) => r.k === "s")
    .map(linked)
    .sort((a, b) => a.key.localeCompare(b.key, "en", { numeric: true }));
  const relations = rows
    .filter((r) => r.k === "r")
    .map((r): IssueRelation => {
      const type = r.s4 as RelationType;
      // From this issue's side: it is the relation's `from` when n3 is 1.
      return { id: r.n2!, view: r.n3 === 1 ? type : toSideView[type], issue: linked(r) };
    })
    .sort((a, b) => relationOrder[a.view] - relationOrder[b.view] || a.issue.key.localeCompare(b.issue.key, "en", { numeric: true }));
  const progress: SubIssueProgress = { done: subIssues.filter((s) => isClosed(s.status)).length, total: subIssues.length };
  return { parent: parentRow ? linked(parentRow) : null, subIssues, progress, relations };
}

/**
 * For a page of issues (a list's rows, a board's cards): each parent's progress, and which are
 * blocked (an open issue blocks them) — one query for the page, on the indexes of sub-issues by
 * parent and status and of relations by `to_id`.
 */
export async function linkFlagsOfIssues(db: Database, issueIds: number[]) {
  const progress = new Map<number, SubIssueProgress>();
  const blocked = new Set<number>();
  if (!issueIds.length) return { progress, blocked };
  const ids = sql.join(issueIds);
  const closed = sql.join(closedStatuses);
  const { rows } = await sql<{ k: string; id: number; closed: number; n: number }>`
    select 's' as k, parent_id as id, case when status in (${closed}) then 1 else 0 end as closed, count(*) as n
      from issues where parent_id in (${ids}) group by parent_id, status
    union all
    select 'b', rel.to_id, 0, count(*)
      from issue_relations rel inner join issues blocker on blocker.id = rel.from_id
      where rel.to_id in (${ids}) and rel.type = 'blocks' and blocker.status not in (${closed})
      group by rel.to_id`.execute(db);
  for (const row of rows) {
    if (row.k === "b") {
      blocked.add(row.id);
      continue;
    }
    const counted = progress.get(row.id) ?? { done: 0, total: 0 };
    counted.total += Number(row.n);
    if (Number(row.closed)) counted.done += Number(row.n);
    progress.set(row.id, counted);
  }
  return { progress, blocked };
}
