import "server-only";
import Database from "better-sqlite3";
import { type Engine, engineOf, env, sqlitePath } from "./env";
import { Prisma } from "./generated/sqlite/client";
import type { ColumnKind } from "./rows";
import { decoders } from "./sqlite/columns.mjs";

// Every difference between the two engines, in one place: an object per engine, chosen once
// from DATABASE_URL. A query is written once and asks the dialect only for the parts that
// differ (a substring test, a search, a label probe), so no query asks which engine it is on.

/**
 * The board and status a list is filtered by, for counting its search by words: a post list's
 * board and status, a changelog list's status (its name, "Draft" or "Published").
 */
export interface WordFilters {
  boardId?: string;
  statusId?: string;
}

/** A table searched by its "searchText" (folded title and content, see lib/search.ts). */
export type SearchTable = "Post" | "Changelog";

/**
 * Terms an index serves by other keys than their own (lib/vocabulary.ts): each with the keys of
 * the index whose rows are exactly the rows holding the term (an empty list: no row holds it).
 * A term of one or two characters: on SQLite, the trigrams of the trigram index that contain
 * it; on PostgreSQL, the term itself, a key of the index of one- and two-character
 * substrings. A longer term: the words of the word index that contain it.
 */
export type Expansions = ReadonlyMap<string, readonly string[]>;

export interface SearchOptions {
  /**
   * Find the page by walking another index (a filter's, or the sort order's) and testing each
   * entry against the matches' list, rather than by looking up every match's row to sort them:
   * for a search that comes with other conditions on indexed columns, which may find fewer rows,
   * or whose matches are many, so that a walk meets a page's worth of them soon.
   */
  walk?: boolean;
  /**
   * The terms to find through the index (by default every term it can serve); the others are
   * tested row by row on what those leave.
   */
  through?: string[];
  /** Short terms an index can serve exactly (see Expansions). */
  expansions?: Expansions;
  /**
   * The condition only counts rows: a term an index serves exactly needs no test on the row.
   * (PostgreSQL: so a count of short terms reads the index and each match's page, computing
   * nothing for it, 14-21 ms against 35-105 ms at a million posts.)
   */
  counting?: boolean;
  /**
   * Filter keys (filterKey) the matches must hold too, one of each list, so that the filters
   * they stand for need no other test: only where Dialect.matches takes them (SQLite, every
   * term through the word index).
   */
  keys?: string[][];
}

export interface Dialect {
  readonly engine: Engine;
  /** Every term occurs in `alias."searchText"` as a literal substring, tested row by row. */
  contains(alias: string, terms: string[]): Prisma.Sql;
  /** Every term occurs in `alias."searchText"`, found through the table's trigram index where it can be. */
  search(table: SearchTable, alias: string, terms: string[], options?: SearchOptions): Prisma.Sql;
  /**
   * Whether searches need a plan chosen by hand (lib/posts/search-plan.ts): SQLite's planner
   * cannot see how many rows an FTS5 match gives, PostgreSQL's estimates pg_trgm matches.
   */
  readonly plansSearchByHand: boolean;
  /**
   * A row for each row holding every term, from the trigram index alone where it answers
   * exactly, with the row's key ("seq", which the sort orders' ranks are by: lib/sqlite/ranks.ts); `keys`: filter keys (filterKey) the rows must hold too, one of each list, which
   * only the word indexes hold (SQLite), so with keys there is an answer only where every term
   * goes to the word index.
   */
  matches(table: SearchTable, terms: string[], expansions?: Expansions, keys?: string[][]): Prisma.Sql | null;
  /**
   * Each trigram of a table's index with the number of rows holding it ("term", "doc"), or
   * null where the engine cannot list them.
   */
  vocabulary(table: SearchTable): Prisma.Sql | null;
  /**
   * Each word of a table's word index with the number of rows holding it ("term", "doc"), read
   * with the vocabulary, or null where the engine lists no such thing.
   */
  words(table: SearchTable): Prisma.Sql | null;
  /**
   * The words of a table's texts that contain each of `terms` ("term", "word"), at most `limit`
   * a term, looked up in the database at each search; or null where they come from the
   * vocabulary instead (SQLite). A term in no word has no row. A row with no term says a text
   * held a word too long for the index, inside which any term may lie. Each row also carries
   * the table's version ("dataVersion"; the only row when no term is in a word), and, with
   * `counted`, how many rows hold the word among those on the board and with the status given,
   * from counts the writes keep ("rows"; null for the words of a term in `limit` words or more,
   * which is not found through its words; 0 for a word no row holds any more).
   * One statement for what a search needs before it counts.
   */
  wordsHolding(table: SearchTable, terms: string[], limit: number, counted?: WordFilters): Prisma.Sql | null;
  /**
   * Every word wordsHolding looks in, each with its rows' counts by board and status ("word",
   * "boardId", "statusId", "rows"; a word with no counts once, with nulls), and the table's
   * version ("dataVersion"), on one snapshot; at most `limit` rows. Null where words are not
   * looked up in the database.
   */
  wordList(table: SearchTable, limit: number): Prisma.Sql | null;
  /**
   * How many rows of `table` hold, for each group of `keys`, one of its keys ("total", at most
   * `limit` + 1): a group is a term's words, or a filter's keys (bitsKey: a board, a status, any
   * of a list's labels), from bitmaps of each key's rows that the writes keep; one statement, at
   * one moment. Null where no such bitmaps are kept (SQLite), or where a group is empty.
   */
  countByWordBits(table: SearchTable, keys: readonly (readonly string[])[], limit: number): Prisma.Sql | null;
  /**
   * A post's board and status, both given, as one condition that the word index serves as one
   * key (PostgreSQL: the word_index_board_status migration), for counting a search by words with
   * both filters; null where the index holds the pair otherwise (SQLite's filter keys).
   */
  boardAndStatus(alias: string, boardId: string, statusId: string): Prisma.Sql | null;
  /**
   * The one- and two-character substrings common enough for the planner's statistics to list,
   * each with its share of the table's rows ("term", "share"), or null where short terms are
   * not indexed by themselves.
   */
  shortTermShares(table: SearchTable): Prisma.Sql | null;
  /**
   * The words common enough for the planner's statistics of the word index to list, each with
   * its share of the table's rows ("term", "share"), or null where words are not looked up in
   * the database (wordsHolding).
   */
  wordShares(table: SearchTable): Prisma.Sql | null;
  /**
   * Ends a SELECT that reads a row the transaction is about to change, so no other writer can
   * change it in between. SQLite needs nothing: it has one writer at a time, and a transaction
   * whose snapshot went stale fails its write (and write() tries it again).
   */
  readonly lockRow: Prisma.Sql;
  /**
   * Ends the SELECT inside a claiming UPDATE (the webhook dispatcher's), so several processes
   * take different rows at once instead of queueing for the same ones. SQLite needs nothing:
   * its one writer runs each UPDATE ... RETURNING alone.
   */
  readonly skipLocked: Prisma.Sql;
  /**
   * Makes imports take turns: takes the turn if it is free ("taken"), held until the
   * transaction ends. PostgreSQL: two imports changing the same posts lock those rows in the
   * order of their files, and could each hold a row the other waits for. Null on SQLite, whose
   * one writer already runs one import at a time.
   */
  readonly importTurn: Prisma.Sql | null;
  /**
   * Whether a WITH may hold INSERTs and UPDATEs, so that several writes go as one statement
   * (writeAll() in lib/db.ts): one round trip instead of several while a transaction holds a
   * row's lock (PostgreSQL). SQLite needs no such thing: its statements cost microseconds and
   * no network.
   */
  readonly writesInWith: boolean;
  /**
   * Whether a post's record looks up its board's, status's and author's names by key, a
   * subquery each, instead of joining their tables. PostgreSQL: a join of five tables made it
   * weigh every order and index of them on each list request (0.45-0.58 ms of planning against
   * 0.19-0.29, for 0.1 ms of execution, warm, at a million posts). SQLite plans the join in
   * microseconds and runs it faster than four subqueries: deep pages lost about 6% of their
   * throughput to them (bench/results/sqlite-1000000-2026-11-29-names-*.md).
   */
  readonly namesByKey: boolean;
  /**
   * The changelog `alias` has at least one of the labels whose folded names are `names`
   * (deduplicated, at least one).
   */
  anyLabel(alias: string, names: string[]): Prisma.Sql;
  /**
   * The values of `column` in the rows of `from` (a FROM clause and its WHERE, usually
   * correlated), gathered into one value of kind "list", in no particular order: so a row
   * carries its own short list (a changelog's labels) in the statement that reads it, instead
   * of a second statement for the list. SQLite gives it as JSON text, which decode reads.
   */
  listOf(column: Prisma.Sql, from: Prisma.Sql): Prisma.Sql;
  /** How a column kind comes back from the driver, where that is not already its row type. */
  readonly decode: Partial<Record<ColumnKind, (value: unknown) => unknown>>;
  /** A value for a statement bound outside Prisma's client (SQLite's readers, the seed). */
  encode(value: unknown): unknown;
  /** The placeholder of the n-th (from 1) value of a hand-built statement, for a column kind. */
  placeholder(n: number, kind: ColumnKind): string;
  /** Fresh planner statistics after a bulk load, and what to say while it runs. */
  readonly analyze: { statement: string; progress: string };
  /**
   * Statements that merge a table's search indexes after a bulk write, so that a search reads
   * one list of matches a term instead of one from every part the writes left (none where the
   * engine keeps its indexes whole itself).
   */
  mergeSearchIndexes(table: SearchTable): string[];
  /** Transaction options under which many reads see one moment's data. */
  readonly snapshot: { isolationLevel?: Prisma.TransactionIsolationLevel };
  /** The migrations folder, from the project root. */
  readonly migrations: string[];
  /** Settings kept in the database itself, set after migrating. */
  afterMigrate(url: string): void;
}

/** Trigram indexes can only serve terms of three characters or more. */
const TRIGRAM = 3;

/** Whether a term is too short for a trigram index to find by itself. */
export const isShort = (term: string) => [...term].length < TRIGRAM;

/** The terms a trigram index can serve: three characters or more, or expanded into trigrams. */
export const indexedTerms = (terms: string[], expansions?: Expansions) =>
  terms.filter((t) => !isShort(t) || Boolean(expansions?.get(t)?.length));

/** An FTS5 phrase of `text`: in double quotes, its own double quotes doubled. */
export const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * Marks a filter key among the words of a word index (the word_index_filter_keys and
 * changelog_word_keys migrations write the same keys): the final sigma, which folded text never
 * holds (lib/search.ts).
 */
const KEY_MARK = "ς";

/** Each kind of filter key's letter, after the mark. */
const KEY_KINDS = { board: "b", status: "s", boardStatus: "p", label: "l" } as const;

/** The kinds of filter keys (filterKey). */
export type KeyKind = keyof typeof KEY_KINDS;

/**
 * The word of a word index that every row with a value of a filter holds: the mark, the kind's
 * letter, and the value's UTF-8 bytes in lowercase hex, which the 'ascii' tokenizer keeps in one
 * word; a key of two values ("boardStatus") joins their hex with "x", which hex never holds. A
 * post holds its board's id, its status's, and both together (the word_index_board_status_keys
 * migration: FTS5 steps through every list it intersects, and the pair's is a thirtieth of the
 * posts where the board's and the status's are a fifth and a sixth); a changelog its status and
 * each of its labels' folded names. A search by words with such filters is then counted by the
 * index alone (SQLite).
 */
export function filterKey(kind: KeyKind, ...values: [string, ...string[]]): string {
  return `${KEY_MARK}${KEY_KINDS[kind]}${values.map((value) => Buffer.from(value, "utf8").toString("hex")).join("x")}`;
}

/**
 * The key of a filter's value in PostgreSQL's bitmaps (the post_word_bits and
 * changelog_word_bits migrations): "board:<id>", "status:<id>" (a post with none: "status:"),
 * "label:<folded name>". No word is such a key: "search_words" cuts at ":".
 */
export const bitsKey = (kind: "board" | "status" | "label", value: string): string => `${kind}:${value}`;

/**
 * An FTS5 query that every term must match, each as a quoted phrase. With the trigram
 * tokenizer (case-sensitive, over folded text) a phrase of three or more characters matches
 * exactly the rows that contain it as a substring, so for such terms the index alone answers.
 * An expanded term matches any of its keys (trigrams, or words of the word index).
 */
const ftsMatch = (terms: string[], expansions?: Expansions) =>
  terms
    .map((t) => {
      const keys = expansions?.get(t);
      return keys ? `(${keys.map(phrase).join(" OR ")})` : phrase(t);
    })
    .join(" AND ");

/** Whether a term's expansion names words of the word index (a longer term's) rather than trigrams. */
const byWords = (term: string, expansions?: Expansions) => !isShort(term) && expansions?.has(term) === true;

/**
 * The FTS5 table that finds `terms`, with its query: the word index when every term is expanded
 * into words, the trigram index otherwise, where a longer term is its own phrase. One table
 * always: FTS5 cannot intersect two tables' matches but by listing one of them whole (a common
 * term's list of rows in the trigram index beside a word took 3.9 s at a million posts, against
 * 5 ms for both in the trigram index). (An expanded term with no key never gets here: no row
 * holds it, and the list is empty without a query.)
 */
function ftsQuery(table: SearchTable, terms: string[], expansions?: Expansions): { fts: Prisma.Sql; match: string } {
  if (terms.every((t) => byWords(t, expansions))) return { fts: Prisma.raw(`"${table}Words"`), match: ftsMatch(terms, expansions) };
  const trigrams = new Map([...(expansions ?? [])].filter(([t]) => isShort(t)));
  return { fts: Prisma.raw(`"${table}Search"`), match: ftsMatch(terms, trigrams) };
}

/**
 * The FTS5 table and query that find every term, and hold one of each list of `keys`, from the
 * index alone; null where the index does not answer them exactly, or where keys are asked for
 * and a term does not go through the word index, the only one holding keys.
 */
function keyedQuery(table: SearchTable, terms: string[], expansions?: Expansions, keys: string[][] = []): { fts: Prisma.Sql; match: string } | null {
  if (!terms.length || indexedTerms(terms, expansions).length < terms.length) return null;
  if (keys.length && (keys.some((any) => !any.length) || !terms.every((t) => byWords(t, expansions)))) return null;
  const { fts, match } = ftsQuery(table, terms, expansions);
  const held = keys.map((any) => (any.length > 1 ? `(${any.map(phrase).join(" OR ")})` : phrase(any[0] as string)));
  return { fts, match: [match, ...held].join(" AND ") };
}

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

const searchText = (alias: string) => Prisma.raw(`${alias}."searchText"`);

/** instr and strpos never treat %, _ or \ as wildcards. */
const containsWith = (test: string) => (alias: string, terms: string[]) =>
  Prisma.join(
    terms.map((t) => Prisma.sql`${Prisma.raw(test)}(${searchText(alias)}, ${t}) > 0`),
    " AND ",
  );

const orNull =
  (decode: (value: unknown) => unknown) =>
  (value: unknown): unknown =>
    value === null ? null : decode(value);

const instr = containsWith("instr");

export const sqlite: Dialect = {
  engine: "sqlite",
  contains: instr,
  search(table, alias, terms, { walk = false, expansions, through: indexed = indexedTerms(terms, expansions), keys } = {}) {
    // The index answers terms of three characters or more exactly, and short terms expanded
    // into their trigrams; other short ones are checked row by row on what the index leaves (or
    // on every row, if the index serves no term).
    const short = terms.filter((t) => !indexed.includes(t));
    const conditions = short.length ? [instr(alias, short)] : [];
    // To walk, the unary + keeps SQLite from looking up every match by its rowid (a table read
    // per match, seconds for a common word): it walks the filter's or the order's index
    // instead, which holds the rowid, and tests each entry against the matches' list.
    const seq = Prisma.raw(`${walk ? "+" : ""}${alias}."seq"`);
    if (keys?.length) {
      const query = keyedQuery(table, terms, expansions, keys);
      if (!query) throw new Error("filter keys need every term through the word index (Dialect.matches)");
      return Prisma.sql`${seq} IN (SELECT rowid FROM ${query.fts} WHERE ${query.fts} MATCH ${query.match})`;
    }
    if (indexed.length) {
      const { fts, match } = ftsQuery(table, indexed, expansions);
      conditions.unshift(Prisma.sql`${seq} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${match})`);
    }
    return Prisma.join(conditions, " AND ");
  },
  plansSearchByHand: true,
  lockRow: Prisma.empty,
  skipLocked: Prisma.empty,
  importTurn: null,
  writesInWith: false,
  namesByKey: false,
  matches(table, terms, expansions, keys = []) {
    const query = keyedQuery(table, terms, expansions, keys);
    return query && Prisma.sql`SELECT rowid AS "seq" FROM ${query.fts} WHERE ${query.fts} MATCH ${query.match}`;
  },
  // fts5vocab tables over the indexes (the search_vocabulary and word_index migrations).
  vocabulary: (table) => Prisma.raw(`SELECT "term", "doc" FROM "${table}SearchVocab"`),
  // Not the filter keys: a term must not be found inside one (a key holds "ς", no text does).
  words: (table) => Prisma.raw(`SELECT "term", "doc" FROM "${table}WordsVocab" WHERE instr("term", '${KEY_MARK}') = 0`),
  wordsHolding: () => null,
  wordList: () => null,
  countByWordBits: () => null,
  boardAndStatus: () => null,
  shortTermShares: () => null,
  wordShares: () => null,
  // A correlated EXISTS, which SQLite plans per row by itself: the list walks its sort index and
  // probes each row's labels, so a page stops after a few rows instead of gathering every
  // labelled changelog first.
  anyLabel: (alias, names) =>
    Prisma.sql`EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = ${Prisma.raw(alias)}."id" AND l."nameKey" IN (${Prisma.join(names)}))`,
  listOf: (column, from) => Prisma.sql`(SELECT json_group_array(${column}) ${from})`,
  decode: { time: orNull(decoders.time), bool: orNull(decoders.bool), list: orNull(decoders.list) },
  // As the SQLite adapter stores them, so hand-written rows read back like Prisma's.
  encode(value) {
    if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
    if (typeof value === "boolean") return value ? 1 : 0;
    return value;
  },
  placeholder: () => "?",
  analyze: { statement: "ANALYZE", progress: "analyzing" },
  // FTS5 writes each batch of rows as a new segment of the index, and merges only some of them
  // as it goes; a term's matches are read from every segment and merged at each query. A bulk
  // write leaves many (the changelogs' word index had 14 after the seed, each label's write
  // writing its changelog's row again): merged into one, counting a word with a status and two
  // labels at 50,000 changelogs took 0.63 ms against 2.38, a word alone 0.14 against 0.31.
  mergeSearchIndexes: (table) => [`${table}Search`, `${table}Words`].map((fts) => `INSERT INTO "${fts}"("${fts}") VALUES ('optimize')`),
  // SQLite's transactions are serializable already.
  snapshot: {},
  migrations: ["prisma", "migrations"],
  afterMigrate(url) {
    // WAL is a property of the database file: set it once here, it stays. Readers then never
    // wait for the writer.
    const file = new Database(sqlitePath(url));
    file.pragma("journal_mode = WAL");
    file.close();
  },
};

/** The conditions on "SearchWordRows" r that pick a board's and a status's counts (none: every one). */
const keptFilters = (filters: WordFilters) =>
  Prisma.sql`${filters.boardId ? Prisma.sql` AND r."boardId" = ${filters.boardId}` : Prisma.empty}${
    filters.statusId ? Prisma.sql` AND r."statusId" = ${filters.statusId}` : Prisma.empty
  }`;

/**
 * The statistics ANALYZE keeps of an expression index's array: its most common elements and
 * their shares of the rows (the list of shares ends with three more figures, not elements').
 */
const commonElements = (index: string) =>
  Prisma.sql`
    SELECT e."term", e."share" FROM pg_stats s,
      unnest(s."most_common_elems"::text::text[], s."most_common_elem_freqs") AS e("term", "share")
    WHERE s."schemaname" = current_schema() AND s."tablename" = ${index} AND e."term" IS NOT NULL`;

/** The advisory lock imports take turns by (importTurn): a number no other lock of this app uses. */
const IMPORT_LOCK = Prisma.raw("4100720");

const CASTS: Record<ColumnKind, string> = { text: "::text", int: "::integer", bool: "::boolean", time: "::timestamp(3)", list: "::text[]" };

export const postgres: Dialect = {
  engine: "postgres",
  contains: containsWith("strpos"),
  search(_table, alias, terms, { expansions, counting = false, through, keys: filterKeys } = {}) {
    if (filterKeys?.length) throw new Error("PostgreSQL's word index holds no filter keys (Dialect.matches)");
    // LIKE with every wildcard escaped is a literal substring test that pg_trgm (an index on
    // the column itself) can serve. It cannot serve a term shorter than a trigram, and its
    // planner then reads the whole index for it, so such a term is tested with strpos; and
    // where it is rare enough (lib/vocabulary.ts), it is also found through the index of
    // one- and two-character substrings (the short_term_index migration). That index's
    // expression is costly to compute row by row, so a common term is left to strpos alone,
    // and strpos stays beside the index's condition, so that a walk of the sort order computes
    // the expression only for rows that hold the terms. A count needs no row test at all.
    // A longer term expanded into the words that contain it (lib/vocabulary.ts) is counted
    // through the word index (the word_index migration) alone, whose answer is exact, so the
    // count tests no row for it. A page keeps LIKE: beside the words, the planner took the two
    // for independent and a common pair for rare, and a bitmap's recheck computed the words of
    // every match (154 ms for "okta reports" at a million posts, against 2 ms walking the order).
    // A rare term of several (`through`, search-plan.ts's rareTerm) is found by its words, on a
    // page too, and the other longer terms are tested with strpos on its rows: counting "137
    // people" by both terms' words intersected the number's rows with every row of "people" in
    // the word index (102-138 ms each under load at a million posts), and its page by two LIKEs
    // read both terms' trigrams (50-114 ms).
    const keys = [...new Set(terms.flatMap((t) => (isShort(t) ? (expansions?.get(t) ?? []) : [])))];
    const byWords = (words: readonly string[]) => Prisma.sql`"search_words"(${searchText(alias)}) && ARRAY[${Prisma.join(words)}]::text[]`;
    const conditions = terms.flatMap((t) => {
      if (!isShort(t)) {
        const words = expansions?.get(t);
        if (through && !through.includes(t)) return [Prisma.sql`strpos(${searchText(alias)}, ${t}) > 0`];
        if (words?.length && (counting || through)) return [byWords(words)];
        return [Prisma.sql`${searchText(alias)} LIKE ${`%${escapeLike(t)}%`} ESCAPE '\\'`];
      }
      return counting && expansions?.has(t) ? [] : [Prisma.sql`strpos(${searchText(alias)}, ${t}) > 0`];
    });
    if (keys.length) conditions.push(Prisma.sql`"search_short_grams"(${searchText(alias)}) @> ARRAY[${Prisma.join(keys)}]::text[]`);
    return Prisma.join(conditions, " AND ");
  },
  plansSearchByHand: false,
  matches: () => null,
  // pg_trgm's GIN index offers no list of its keys; nor does the word index, whose words are
  // kept in "SearchWord" as they are written, and looked up there through pg_trgm.
  vocabulary: () => null,
  words: () => null,
  wordsHolding(table, terms, limit, counted) {
    const held = Prisma.join(
      [
        ...terms.map(
          (term) => Prisma.sql`(SELECT ${term}::text AS "term", w."word" FROM "SearchWord" w
            WHERE w."table" = ${table} AND w."word" LIKE ${`%${escapeLike(term)}%`} ESCAPE '\\' LIMIT ${limit})`,
        ),
        // The word_index migration keeps a word too long for the index as the empty string.
        Prisma.sql`(SELECT NULL, w."word" FROM "SearchWord" w WHERE w."table" = ${table} AND w."word" = '')`,
      ],
      " UNION ALL ",
    );
    // The word_rows migration keeps the posts' counts, the changelog_word_rows migration the
    // changelogs' (under the board ''). A CASE computes its branch only where it is taken, so a
    // term in too many words costs no count.
    const rows = counted
      ? Prisma.sql`CASE WHEN h."term" IS NOT NULL AND count(*) OVER (PARTITION BY h."term") < ${limit} THEN coalesce((
            SELECT sum(r."rows") FROM "SearchWordRows" r WHERE r."table" = ${table} AND r."word" = h."word"${keptFilters(counted)}), 0) END`
      : Prisma.sql`NULL::bigint`;
    return Prisma.sql`SELECT h."term", h."word", ${rows} AS "rows", v."version" AS "dataVersion"
      FROM "DataVersion" v LEFT JOIN (${held}) h ON true WHERE v."name" = ${table}`;
  },
  wordList: (table, limit) =>
    Prisma.sql`SELECT w."word", r."boardId", r."statusId", r."rows", v."version" AS "dataVersion"
      FROM "DataVersion" v
      LEFT JOIN "SearchWord" w ON w."table" = v."name"
      LEFT JOIN "SearchWordRows" r ON r."table" = w."table" AND r."word" = w."word"
      WHERE v."name" = ${table} LIMIT ${limit}`,
  // The post_word_bits and changelog_word_bits migrations' bitmaps: each group's keys ORed chunk
  // by chunk, the groups ANDed, the bits counted. A chunk that lacks a group's keys holds none of
  // its rows, so the joins keep only chunks every group has.
  countByWordBits(table, keys, limit) {
    if (!keys.length || keys.some((group) => !group.length)) return null;
    const bitmaps = Prisma.raw(`"${table}WordBits"`);
    const group = (members: readonly string[], n: number) =>
      Prisma.sql`(SELECT "chunk", bit_or("bits") AS "bits" FROM ${bitmaps} WHERE "word" IN (${Prisma.join(members)}) GROUP BY "chunk") ${Prisma.raw(`t${n}`)}`;
    const joined = Prisma.join(
      keys.map((members, n) => (n ? Prisma.sql` JOIN ${group(members, n)} USING ("chunk")` : group(members, n))),
      "",
    );
    const bits = Prisma.raw(keys.map((_, n) => `t${n}."bits"`).join(" & "));
    return Prisma.sql`SELECT LEAST(coalesce(sum(bit_count(${bits})), 0), ${limit + 1})::bigint AS "total" FROM ${joined}`;
  },
  // The migration's function on both sides, so that the planner matches the index's expression.
  boardAndStatus: (alias, boardId, statusId) =>
    Prisma.sql`"post_board_status"(${Prisma.raw(alias)}."boardId", ${Prisma.raw(alias)}."statusId") = "post_board_status"(${boardId}, ${statusId})`,
  shortTermShares: (table) => commonElements(`${table}_searchText_short_idx`),
  wordShares: (table) => commonElements(`${table}_searchText_words_idx`),
  lockRow: Prisma.raw(" FOR UPDATE"),
  skipLocked: Prisma.raw(" FOR UPDATE SKIP LOCKED"),
  importTurn: Prisma.sql`SELECT pg_try_advisory_xact_lock(${IMPORT_LOCK}::bigint) AS "taken"`,
  writesInWith: true,
  namesByKey: true,
  // The changelog's own folded label names (the changelog_label_keys migration), which the word
  // index holds beside the words: a search with labels is counted through that index alone, and
  // a walk of the sort order tests the row it reads instead of probing the labels' table.
  anyLabel: (alias, names) => Prisma.sql`${Prisma.raw(alias)}."labelKeys" && ARRAY[${Prisma.join(names)}]::text[]`,
  // A text[], which pg reads as an array.
  listOf: (column, from) => Prisma.sql`ARRAY(SELECT ${column} ${from})`,
  // Counts (bigint) come back as BigInt; times and booleans already as Date and boolean.
  decode: { int: orNull(Number) },
  encode: (value) => (value instanceof Date ? value.toISOString() : value),
  placeholder: (n, kind) => `$${n}${CASTS[kind]}`,
  // VACUUM also marks the new pages all-visible, which is what lets counts and deep pages be
  // answered from the indexes alone (index-only scans) before autovacuum gets there.
  analyze: { statement: "VACUUM ANALYZE", progress: "vacuuming and analyzing" },
  // GIN's pending entries are moved into the index by VACUUM (analyze, above) and autovacuum.
  mergeSearchIndexes: () => [],
  // The client's type is SQLite's (lib/db.ts), whose enum lacks PostgreSQL's levels.
  snapshot: { isolationLevel: "RepeatableRead" as Prisma.TransactionIsolationLevel },
  migrations: ["prisma", "postgres", "migrations"],
  afterMigrate() {},
};

export const dialects: Record<Engine, Dialect> = { sqlite, postgres };

/** The dialect of the configured database. */
export const dialect: Dialect = dialects[engineOf(env().DATABASE_URL)];
