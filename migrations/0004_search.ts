import { type Kysely, sql } from "kysely";
import type { Dialect } from "~/db/database.server";
import { latinFoldPairs } from "~/search/latin-folding";

/**
 * Full-text search over issue titles, descriptions and live comments (docs/product.md, Screens /w/:workspace/search).
 *
 * SQLite: one FTS5 table, `search_index(title, body)`, one row per issue (its title and description,
 * rowid = id * 2) and one per live comment (body, rowid = id * 2 + 1), kept in step by triggers.
 *
 * PostgreSQL: stored generated `tsvector` columns ('simple' configuration: no stemming, no stop
 * words, like SQLite's unicode61) with GIN indexes: issues weight the title A and the description B,
 * comments have their body. Both go through `cairn_search_text`, which does what SQLite's tokenizer
 * does and the 'simple' parser does not: it splits words at punctuation (so `WEB-42`,
 * `user@example.com` and `v1.2.3` are words, not one token) and folds accented Latin letters to
 * their base letter (`café` is found by `cafe`). app/search/search.server.ts folds query words the
 * same way (tests/integration/search.test.ts checks that they agree).
 */
export async function up(db: Kysely<any>, dialect: Dialect) {
  if (dialect === "sqlite") await upSqlite(db);
  else await upPostgres(db);
}

async function upSqlite(db: Kysely<any>) {
  const { version } = (await sql<{ version: string }>`select sqlite_version() as version`.execute(db)).rows[0]!;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  // Contentless (the text stays in issues and comments, not twice on disk) where SQLite can delete
  // from such a table (3.43+); otherwise an ordinary FTS5 table that keeps its own copy.
  const contentless = major > 3 || (major === 3 && minor >= 43) ? sql`, content='', contentless_delete=1` : sql``;
  await sql`create virtual table search_index using fts5(title, body, tokenize = 'unicode61 remove_diacritics 2'${contentless})`.execute(db);

  const statements = [
    sql`create trigger issues_search_insert after insert on issues begin
      insert into search_index (rowid, title, body) values (new.id * 2, new.title, new.description);
    end`,
    sql`create trigger issues_search_update after update of title, description on issues begin
      delete from search_index where rowid = old.id * 2;
      insert into search_index (rowid, title, body) values (new.id * 2, new.title, new.description);
    end`,
    sql`create trigger issues_search_delete after delete on issues begin
      delete from search_index where rowid = old.id * 2;
    end`,
    sql`create trigger comments_search_insert after insert on comments when new.deleted_at is null begin
      insert into search_index (rowid, title, body) values (new.id * 2 + 1, '', new.body);
    end`,
    sql`create trigger comments_search_update after update of body, deleted_at on comments begin
      delete from search_index where rowid = old.id * 2 + 1;
      insert into search_index (rowid, title, body) select new.id * 2 + 1, '', new.body where new.deleted_at is null;
    end`,
    // Also runs for the comments of a deleted issue (foreign-key cascades fire triggers).
    sql`create trigger comments_search_delete after delete on comments begin
      delete from search_index where rowid = old.id * 2 + 1;
    end`,
    sql`insert into search_index (rowid, title, body) select id * 2, title, description from issues`,
    sql`insert into search_index (rowid, title, body) select id * 2 + 1, '', body from comments where deleted_at is null`,
  ];
  for (const statement of statements) await statement.execute(db);
}

async function upPostgres(db: Kysely<any>) {
  const [from, to] = latinFoldPairs();
  const separators = separatorClass();
  // Immutable (lower, regexp_replace and translate are), so generated columns may use it.
  await sql`create function cairn_search_text(value text) returns text
    language sql immutable strict parallel safe
    as ${sql.raw(`$fold$ select translate(regexp_replace(lower(value), E'${separators}+', ' ', 'g'), '${from}', '${to}') $fold$`)}`.execute(db);

  await sql`alter table issues add column search_vector tsvector generated always as (
    setweight(to_tsvector('simple', cairn_search_text(title)), 'A') ||
    setweight(to_tsvector('simple', cairn_search_text(description)), 'B')
  ) stored`.execute(db);
  await sql`create index issues_search on issues using gin (search_vector)`.execute(db);

  await sql`alter table comments add column search_vector tsvector generated always as (
    to_tsvector('simple', cairn_search_text(body))
  ) stored`.execute(db);
  await sql`create index comments_search on comments using gin (search_vector)`.execute(db);
}

/**
 * A regular-expression class (PostgreSQL ARE, `\uXXXX` escapes doubled for an E'' string) of the
 * punctuation, symbols and emoji that separate words, whatever the database's locale thinks of
 * them: ASCII punctuation, Latin-1's, general punctuation, arrows to dingbats, CJK and full-width
 * punctuation, emoji. Letters and digits in those blocks (ª, ², ①) are left out.
 */
export function separatorClass(): string {
  const blocks: [number, number][] = [
    [0x21, 0x7e], [0xa0, 0xbf], [0xd7, 0xd7], [0xf7, 0xf7], [0x2000, 0x206f], [0x2190, 0x2bff],
    [0x3000, 0x303f], [0xfe30, 0xfe4f], [0xff01, 0xff65], [0x1f000, 0x1faff],
  ];
  const ranges: [number, number][] = [];
  for (const [low, high] of blocks) {
    for (let code = low; code <= high; code++) {
      if (/[\p{L}\p{N}]/u.test(String.fromCodePoint(code))) continue;
      const last = ranges.at(-1);
      if (last && last[1] === code - 1) last[1] = code;
      else ranges.push([code, code]);
    }
  }
  const escape = (code: number) => (code > 0xffff ? `\\\\U${code.toString(16).padStart(8, "0")}` : `\\\\u${code.toString(16).padStart(4, "0")}`);
  return `[${ranges.map(([low, high]) => (low === high ? escape(low) : `${escape(low)}-${escape(high)}`)).join("")}]`;
}
