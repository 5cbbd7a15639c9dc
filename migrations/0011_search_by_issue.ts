import { type Kysely, sql } from "kysely";
import type { Dialect } from "~/db/database.server";

/**
 * Search ranks issues, not the texts in them: an issue matches when its words, wherever they are
 * (title, description, live comments), include every word searched, and the index has one entry
 * per issue. Before (migrations/0004) each comment was its own entry, and every search joined all
 * of its hits to their issues and ranked them again per issue: at 50,000 issues a common word took
 * ~23 ms on SQLite and ~28 ms on PostgreSQL in the database; now ~8 and ~15.
 *
 * SQLite: one FTS5 row per issue (rowid = its id) with its workspace, title, description and live
 * comments. The workspace is a column whose one word is `w<id>`, so the index scopes a search by
 * itself; searches name their columns, so no query word ever matches it. A comment's change
 * re-indexes its issue with all of its live comments.
 *
 * PostgreSQL: likewise a table `search_index` of one narrow row per issue (its workspace and one
 * tsvector of its title, description and live comments) with a GIN index, kept by triggers; the
 * vectors of issues and comments and their indexes go. Kept apart from `issues`, re-indexing an
 * issue for each comment leaves no dead rows in the issues' table, and a search reads ~600 bytes an
 * issue. A tsvector holds at most 1 MiB, so the comments' first `commentTextIndexed` characters are
 * indexed (up to an issue's 25th comment of the longest kind).
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  if (dialect === "sqlite") await upSqlite(db);
  else await upPostgres(db);
}

/** Characters of an issue's comments that PostgreSQL indexes: well under a tsvector's 1 MiB. */
const commentTextIndexed = 250_000;

async function upSqlite(db: Kysely<any>) {
  for (const trigger of ["issues_search_insert", "issues_search_update", "issues_search_delete", "comments_search_insert", "comments_search_update", "comments_search_delete"]) {
    await sql`drop trigger if exists ${sql.ref(trigger)}`.execute(db);
  }
  await sql`drop table if exists search_index`.execute(db);

  const { version } = (await sql<{ version: string }>`select sqlite_version() as version`.execute(db)).rows[0]!;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const contentless = major > 3 || (major === 3 && minor >= 43) ? sql`, content='', contentless_delete=1` : sql``;
  await sql`create virtual table search_index using fts5(workspace, title, body, comments, tokenize = 'unicode61 remove_diacritics 2'${contentless})`.execute(db);

  /** Writes issue `id`'s row again (or none, when the issue is gone). */
  const reindex = (id: string) => sql.raw(`
    delete from search_index where rowid = ${id};
    insert into search_index (rowid, workspace, title, body, comments)
      select i.id, 'w' || p.workspace_id, i.title, i.description,
             coalesce((select group_concat(c.body, char(10)) from comments c where c.issue_id = i.id and c.deleted_at is null), '')
      from issues i join projects p on p.id = i.project_id
      where i.id = ${id};`);
  const statements = [
    sql`create trigger issues_search_insert after insert on issues begin
      insert into search_index (rowid, workspace, title, body, comments)
        select new.id, 'w' || p.workspace_id, new.title, new.description, '' from projects p where p.id = new.project_id;
    end`,
    sql`create trigger issues_search_update after update of title, description, project_id on issues begin ${reindex("new.id")} end`,
    sql`create trigger issues_search_delete after delete on issues begin
      delete from search_index where rowid = old.id;
    end`,
    sql`create trigger comments_search_insert after insert on comments when new.deleted_at is null begin ${reindex("new.issue_id")} end`,
    sql`create trigger comments_search_update after update of body, deleted_at on comments begin ${reindex("new.issue_id")} end`,
    // Also runs for the comments of a deleted issue (foreign-key cascades fire triggers): the
    // issue is gone by then, so nothing is written again.
    sql`create trigger comments_search_delete after delete on comments begin ${reindex("old.issue_id")} end`,
    sql`insert into search_index (rowid, workspace, title, body, comments)
      select i.id, 'w' || p.workspace_id, i.title, i.description,
             coalesce((select group_concat(c.body, char(10)) from comments c where c.issue_id = i.id and c.deleted_at is null), '')
      from issues i join projects p on p.id = i.project_id`,
  ];
  for (const statement of statements) await statement.execute(db);
}

async function upPostgres(db: Kysely<any>) {
  await sql.raw(`create function cairn_comments_vector(issue integer) returns tsvector
    language sql stable parallel safe
    as $vector$
      select to_tsvector('simple', cairn_search_text(left(coalesce(string_agg(body, ' ' order by id), ''), ${commentTextIndexed})))
      from comments where issue_id = issue and deleted_at is null
    $vector$`).execute(db);
  // The title weighs A, the description B, the comments D (ts_rank's 1.0, 0.4 and 0.1).
  await sql`create function cairn_issue_vector(title text, description text, issue integer) returns tsvector
    language sql stable parallel safe
    as $vector$
      select setweight(to_tsvector('simple', cairn_search_text(title)), 'A') ||
             setweight(to_tsvector('simple', cairn_search_text(description)), 'B') ||
             cairn_comments_vector(issue)
    $vector$`.execute(db);
  // New issues per statement (an import, the demo seed); an edit of one issue per row, and only of
  // what is indexed. A comment's change re-indexes its issue, once per statement.
  await sql`create function cairn_index_issues() returns trigger
    language plpgsql
    as $index$
    begin
      if tg_op = 'INSERT' then
        insert into search_index (issue_id, workspace_id, vector)
          select n.id, p.workspace_id, cairn_issue_vector(n.title, n.description, n.id)
          from new_issues n join projects p on p.id = n.project_id;
        return null;
      end if;
      update search_index
        set workspace_id = (select workspace_id from projects where id = new.project_id),
            vector = cairn_issue_vector(new.title, new.description, new.id)
        where issue_id = new.id;
      return null;
    end
    $index$`.execute(db);
  await sql`create function cairn_index_comments() returns trigger
    language plpgsql
    as $index$
    begin
      if tg_op = 'INSERT' then
        update search_index s set vector = cairn_issue_vector(i.title, i.description, i.id)
          from issues i where i.id = s.issue_id and s.issue_id in (select issue_id from new_comments);
      elsif tg_op = 'UPDATE' then
        update search_index s set vector = cairn_issue_vector(i.title, i.description, i.id)
          from issues i where i.id = s.issue_id and s.issue_id in (select issue_id from new_comments union select issue_id from old_comments);
      else
        -- The comments of a deleted issue find its row gone with it: nothing is updated.
        update search_index s set vector = cairn_issue_vector(i.title, i.description, i.id)
          from issues i where i.id = s.issue_id and s.issue_id in (select issue_id from old_comments);
      end if;
      return null;
    end
    $index$`.execute(db);

  const statements = [
    sql`drop index comments_search`,
    sql`alter table comments drop column search_vector`,
    sql`drop index issues_search`,
    sql`alter table issues drop column search_vector`,
    sql`create table search_index (
      issue_id integer primary key references issues (id) on delete cascade,
      workspace_id integer not null,
      vector tsvector not null
    )`,
    sql`insert into search_index (issue_id, workspace_id, vector)
      select i.id, p.workspace_id, cairn_issue_vector(i.title, i.description, i.id) from issues i join projects p on p.id = i.project_id`,
    sql`create index search_index_vector on search_index using gin (vector)`,
    sql`create trigger issues_search_insert after insert on issues referencing new table as new_issues
      for each statement execute function cairn_index_issues()`,
    sql`create trigger issues_search_update after update of title, description, project_id on issues
      for each row execute function cairn_index_issues()`,
    sql`create trigger comments_search_insert after insert on comments referencing new table as new_comments
      for each statement execute function cairn_index_comments()`,
    sql`create trigger comments_search_update after update on comments referencing old table as old_comments new table as new_comments
      for each statement execute function cairn_index_comments()`,
    sql`create trigger comments_search_delete after delete on comments referencing old table as old_comments
      for each statement execute function cairn_index_comments()`,
  ];
  for (const statement of statements) await statement.execute(db);
}
