import { type Kysely, sql } from "kysely";
import type { Dialect } from "~/db/database.server";

/**
 * Typo tolerance (docs/decisions/029-typo-tolerant-search.md): each workspace's vocabulary, the
 * distinct words of its issues' titles, descriptions and comments as the search index has them
 * (folded), in `search_words`, with a trigram index to find the words that may be a typo away from
 * a query's word ("footr" → "footer": app/search/close-words.server.ts). A search then also looks for
 * those words, ranked after the issues that match the words as typed.
 *
 * Words are only added: a word no longer in any issue stays and finds nothing. Only words of 3 to
 * 40 characters without digits are kept: shorter words are never corrected, longer ones are hashes
 * and the like, and a number with a typo is another number.
 *
 * SQLite: `search_word_trigrams`, an FTS5 table with the trigram tokenizer, holds each word padded
 * ("  word "), so that a phrase can find a piece of a word at its start or its end.
 * Triggers on issues and comments split the new text into the index's words by passing it through
 * `search_new_text`, an FTS5 table with the search index's tokenizer that holds one text at a time,
 * and reading its vocabulary.
 *
 * PostgreSQL: pg_trgm (a contrib extension every managed PostgreSQL offers; trusted, so a database
 * owner may create it), a GIN trigram index on the words (which serves `LIKE '%piece%'`), and
 * triggers on `search_index` that add the lexemes of every vector written.
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  if (dialect === "sqlite") await upSqlite(db);
  else await upPostgres(db);
}

async function upSqlite(db: Kysely<any>) {
  /** Adds the words of the text in `search_new_text` that workspace `workspace` does not have yet. */
  const addNewWords = (workspace: string) => `
    insert into search_words (workspace_id, word)
      select ${workspace}, v.term from search_new_words v
      where length(v.term) between 3 and 40 and v.term not glob '*[0-9]*'
        and not exists (select 1 from search_words w where w.workspace_id = ${workspace} and w.word = v.term)`;
  const clearNewText = `insert into search_new_text (search_new_text) values ('delete-all')`;
  const statements = [
    sql`create table search_words (
      id integer primary key,
      workspace_id integer not null references workspaces (id) on delete cascade,
      word text not null,
      unique (workspace_id, word)
    )`,
    sql`create virtual table search_word_trigrams using fts5(word, content = '', tokenize = 'trigram')`,
    sql`create trigger search_words_insert after insert on search_words begin
      insert into search_word_trigrams (rowid, word) values (new.id, '  ' || new.word || ' ');
    end`,
    sql`create trigger search_words_delete after delete on search_words begin
      insert into search_word_trigrams (search_word_trigrams, rowid, word) values ('delete', old.id, '  ' || old.word || ' ');
    end`,
    // The search index's tokenizer (migrations/0011), so that the words are the index's.
    sql`create virtual table search_new_text using fts5(text, content = '', tokenize = 'unicode61 remove_diacritics 2')`,
    sql`create virtual table search_new_words using fts5vocab(search_new_text, row)`,
    sql.raw(`create trigger issues_search_words_insert after insert on issues begin
      insert into search_new_text (text) values (new.title || char(10) || new.description);
      ${addNewWords("(select workspace_id from projects where id = new.project_id)")};
      ${clearNewText};
    end`),
    sql.raw(`create trigger issues_search_words_update after update of title, description on issues begin
      insert into search_new_text (text) values (new.title || char(10) || new.description);
      ${addNewWords("(select workspace_id from projects where id = new.project_id)")};
      ${clearNewText};
    end`),
    sql.raw(`create trigger comments_search_words_insert after insert on comments when new.deleted_at is null begin
      insert into search_new_text (text) values (new.body);
      ${addNewWords("(select p.workspace_id from issues i join projects p on p.id = i.project_id where i.id = new.issue_id)")};
      ${clearNewText};
    end`),
    sql.raw(`create trigger comments_search_words_update after update of body on comments when new.deleted_at is null begin
      insert into search_new_text (text) values (new.body);
      ${addNewWords("(select p.workspace_id from issues i join projects p on p.id = i.project_id where i.id = new.issue_id)")};
      ${clearNewText};
    end`),
  ];
  for (const statement of statements) await statement.execute(db);

  // The words of the issues there are, a workspace at a time.
  const workspaces = await sql<{ id: number }>`select id from workspaces`.execute(db);
  for (const { id } of workspaces.rows) {
    await sql`insert into search_new_text (text)
      select i.title || char(10) || i.description from issues i join projects p on p.id = i.project_id where p.workspace_id = ${id}
      union all
      select c.body from comments c join issues i on i.id = c.issue_id join projects p on p.id = i.project_id
      where p.workspace_id = ${id} and c.deleted_at is null`.execute(db);
    await sql.raw(addNewWords(String(Number(id)))).execute(db);
    await sql.raw(clearNewText).execute(db);
  }
}

async function upPostgres(db: Kysely<any>) {
  // Per statement, like the index's own triggers: the demo seed's bulk load adds its words at once.
  const addWords = (rows: string) => `
    insert into search_words (workspace_id, word)
      select distinct n.workspace_id, v.lexeme from ${rows} n, unnest(n.vector) v
      where char_length(v.lexeme) between 3 and 40 and v.lexeme !~ '[0-9]'
      on conflict do nothing;`;
  const statements = [
    sql`create extension if not exists pg_trgm`,
    sql`create table search_words (
      workspace_id integer not null references workspaces (id) on delete cascade,
      word text not null,
      primary key (workspace_id, word)
    )`,
    sql`create index search_words_trigrams on search_words using gin (word gin_trgm_ops)`,
    sql.raw(`create function cairn_add_search_words() returns trigger
      language plpgsql
      as $words$
      begin
        ${addWords("new_rows")}
        return null;
      end
      $words$`),
    sql`create trigger search_index_words_insert after insert on search_index referencing new table as new_rows
      for each statement execute function cairn_add_search_words()`,
    sql`create trigger search_index_words_update after update on search_index referencing new table as new_rows
      for each statement execute function cairn_add_search_words()`,
    sql.raw(addWords("search_index")),
  ];
  for (const statement of statements) await statement.execute(db);
}
