import "server-only";
import { Prisma, read } from "../db";
import { bitsKey, type Dialect, dialect, type Expansions, filterKey, type WordFilters } from "../dialect";
import { rowType } from "../rows";
import { searchTerms } from "../search";
import { pageOffset, readCount, tableRows, where } from "../sql";
import { after, decodeCursor, encodeCursor, orderBy, type SortKey, type SortOrder } from "../keyset";
import { seekFor, stale } from "../positions";
import { boundedCount, dataVersionColumn, exactTotal, type ListPage, listTotal, SEARCH_TOTAL_LIMIT, totalHint, type VersionedRow } from "../totals";
import { countFromWords, heldKeys, heldPlaces, type Listed, listWithTermPlan, rowsOfTerms, type TermPlan, termRowsOf } from "../vocabulary";
import { matchesByBits, type Narrowed, PAGE_SEQS, type RankedMatches, type RankedOrder, rankedMatches, ranksAt } from "../sqlite/ranks";
import type { ListPostsQuery, PostRecord } from "./schemas";
import { pageByWalking, rareTerm } from "./search-plan";
import { type PostRow, serializePost } from "./serialize";

type SortBy = ListPostsQuery["sortBy"];

const CREATED = [
  { name: "createdAt", kind: "time", descending: true },
  { name: "id", kind: "text", descending: true },
] as const;

/** The sort orders, each served by an index on its columns (with or without a filter first). */
export const POST_ORDERS: Record<SortBy, SortOrder> = {
  latest: { name: "latest", columns: CREATED },
  top: { name: "top", columns: [{ name: "upvotes", kind: "int", descending: true }, ...CREATED] },
};

/** A post record's names (Dialect.namesByKey), on alias p, and the joins they need. */
const NAMES = {
  byKey: {
    columns: Prisma.sql`(SELECT b."name" FROM "Board" b WHERE b."id" = p."boardId") AS "boardName",
      (SELECT s."name" FROM "PostStatus" s WHERE s."id" = p."statusId") AS "statusName",
      (SELECT s."color" FROM "PostStatus" s WHERE s."id" = p."statusId") AS "statusColor",
      (SELECT u."name" FROM "User" u WHERE u."id" = p."postedById") AS "authorName"`,
    joins: Prisma.empty,
  },
  joined: {
    columns: Prisma.sql`b."name" AS "boardName", s."name" AS "statusName", s."color" AS "statusColor", u."name" AS "authorName"`,
    joins: Prisma.sql`
      JOIN "Board" b ON b."id" = p."boardId"
      LEFT JOIN "PostStatus" s ON s."id" = p."statusId"
      JOIN "User" u ON u."id" = p."postedById"`,
  },
};

/** A post's record from alias p, with what follows FROM: its table, or a page and its table. */
function selectPost(from: Prisma.Sql, d: Dialect): Prisma.Sql {
  const names = d.namesByKey ? NAMES.byKey : NAMES.joined;
  return Prisma.sql`
    SELECT p."id", p."title", p."content", p."boardId", p."statusId", p."postedById", ${names.columns},
           p."upvotes", p."commentCount", p."createdAt", p."updatedAt", ${dataVersionColumn("Post")}
    FROM ${from}${names.joins}`;
}

const POST_KINDS = { upvotes: "int", commentCount: "int", createdAt: "time", updatedAt: "time", dataVersion: "int" } as const;
const postRow = rowType<PostRow & VersionedRow>(POST_KINDS);

export interface PostFilter {
  /** The filters other than search, on alias t. */
  plain: Prisma.Sql[];
  /**
   * Where the filters are a board and a status only, both as one condition the word index
   * serves as one key (PostgreSQL; Dialect.boardAndStatus), for a count by words.
   */
  boardAndStatus?: Prisma.Sql;
  terms: string[];
  /** The terms found through the index, when not all of them. */
  through?: string[];
  /** Short terms found through the index by their trigrams (lib/vocabulary.ts). */
  expansions?: Expansions;
  /** Every longer term's words, however common (PostgreSQL; TermPlan.words). */
  words?: Expansions;
  /** The search's condition (none without a search), on alias t. */
  search: Prisma.Sql[];
  /** The word index's keys for the filters other than search, or null when one of them has none (ids, author). */
  keys: string[][] | null;
  /** The board and status filters, or null when another filter is set (ids, author). */
  wordFilters: WordFilters | null;
  /** The WHERE clause of both, on alias t: what the total counts. */
  where: Prisma.Sql;
  /** Where the page starts in the sort order (a cursor, a remembered position), if not at the top. */
  start?: Prisma.Sql;
}

/**
 * `through`: the terms to find through the index (search-plan.ts's rareTerm), if not all;
 * `expansions`: short terms the index serves (lib/vocabulary.ts).
 */
export function postFilter(
  query: ListPostsQuery,
  d: Dialect = dialect,
  { through, expansions, words }: Pick<PostFilter, "through" | "expansions" | "words"> = {},
): PostFilter {
  const plain: Prisma.Sql[] = [];
  if (query.id) plain.push(Prisma.sql`t."id" IN (${Prisma.join(query.id)})`);
  if (query.boardId) plain.push(Prisma.sql`t."boardId" = ${query.boardId}`);
  if (query.statusId) plain.push(Prisma.sql`t."statusId" = ${query.statusId}`);
  if (query.postedById) plain.push(Prisma.sql`t."postedById" = ${query.postedById}`);
  const terms = searchTerms(query.search);
  // PostgreSQL finds a rare term of several by its words (Dialect.search), however common they are.
  const rareWords = (through ?? []).flatMap((t): [string, readonly string[]][] => {
    const found = words?.get(t);
    return found?.length ? [[t, found]] : [];
  });
  const served: Expansions | undefined = rareWords.length ? new Map([...(expansions ?? []), ...rareWords]) : expansions;
  // Board and status together by their pair's key: one short list instead of two long ones.
  const keys =
    query.id || query.postedById
      ? null
      : query.boardId && query.statusId
        ? [[filterKey("boardStatus", query.boardId, query.statusId)]]
        : boardStatusKeys(query.boardId, query.statusId);
  // Where the word index holds the filters' keys (SQLite), a page the index finds tests each
  // entry of the filter's index against the matches that hold those keys too, not against every
  // match of the words: that list was built whole first (4.1-4.7 ms a page under load at a
  // million posts, for a word in 37,000 posts on one board and status).
  const keyed = keys?.length && !through && d.matches("Post", terms, served, keys) ? keys : undefined;
  const search = terms.length ? [d.search("Post", "t", terms, { walk: plain.length > 0, through, expansions: served, keys: keyed })] : [];
  const boardAndStatus = (keys && query.boardId && query.statusId && d.boardAndStatus("t", query.boardId, query.statusId)) || undefined;
  const wordFilters = wordFiltersOf(query);
  return { plain, boardAndStatus, terms, through, expansions: served, words, search, keys, wordFilters, where: where([...plain, ...search]) };
}

/** The board's and the status's keys, each its own list: the bits hold no key for the pair. */
const boardStatusKeys = (boardId: string | undefined, statusId: string | undefined): string[][] => [
  ...(boardId ? [[filterKey("board", boardId)]] : []),
  ...(statusId ? [[filterKey("status", statusId)]] : []),
];

/** A list's board and status, by which the posts' words are counted; null when another filter is set (ids, author). */
const wordFiltersOf = (query: ListPostsQuery): WordFilters | null =>
  query.id || query.postedById ? null : { boardId: query.boardId, statusId: query.statusId };

/** The filter's conditions and its start, for reading a page. */
const pageWhere = (filter: PostFilter) =>
  where([...filter.plain, ...(filter.start ? [filter.start] : []), ...filter.search]);

/** The sort order's ORDER BY list on a given alias. */
export const orderOn = (sortBy: SortBy) => (alias: string) => orderBy(POST_ORDERS[sortBy], alias);

/**
 * The count of a filter, bounded for a search (lib/totals.ts). A search on its own may be
 * counted by the trigram index alone, and a search by words with board and/or status filters
 * by the word index alone, which holds those filters as keys (SQLite; Dialect.matches). On
 * PostgreSQL, with board and/or status, the longer terms are counted by their words however
 * common (`words`): the word index holds board and status beside the words (the
 * word_filters_index migration) and finds the rows of all three at once, where pg_trgm's and a
 * filter's index were each read whole, their bitmaps intersected, and every candidate row tested
 * (at a million posts, drawn words with filters: 52-68 ms a request, 34-37 through that index);
 * a board and a status together, by the pair's one key in that index (`boardAndStatus`).
 */
export function countSql(filter: PostFilter, d: Dialect = dialect): Prisma.Sql {
  if (!filter.terms.length) return Prisma.sql`SELECT count(*) AS "total" FROM "Post" t ${filter.where}`;
  const fromIndex = filter.keys !== null && !filter.through && d.matches("Post", filter.terms, filter.expansions, filter.keys);
  if (fromIndex) return boundedCount(fromIndex);
  const { terms, through } = filter;
  const withFilterWords = filter.keys?.length && filter.words?.size;
  const expansions = withFilterWords ? new Map([...(filter.expansions ?? []), ...(filter.words ?? [])]) : filter.expansions;
  // The pair's key only where a term goes through the word index, which holds it.
  const byWords = terms.some((t) => Boolean(filter.words?.get(t)?.length));
  const plain = withFilterWords && byWords && filter.boardAndStatus ? [filter.boardAndStatus] : filter.plain;
  const search = d.search("Post", "t", terms, { walk: plain.length > 0, through, expansions, counting: true });
  return boundedCount(Prisma.sql`SELECT 1 FROM "Post" t ${where([...plain, search])}`);
}

/**
 * A search's count from the bitmaps of its words', board's and status's posts
 * (Dialect.countByWordBits, the post_word_bits migration), or null: where every term is found
 * through its words and no filter but board and status is set. It reads no post, where the word
 * index's count reads each match's page to see whether its row is visible (at a million posts,
 * a drawn pair of common words: 37 of the 49 ms it took the database).
 */
export function bitsCountSql(filter: PostFilter, d: Dialect = dialect): Prisma.Sql | null {
  if (!filter.wordFilters || !filter.terms.length) return null;
  const { boardId, statusId } = filter.wordFilters;
  return d.countByWordBits(
    "Post",
    [
      ...filter.terms.map((t) => filter.words?.get(t) ?? []),
      ...(boardId ? [[bitsKey("board", boardId)]] : []),
      ...(statusId ? [[bitsKey("status", statusId)]] : []),
    ],
    SEARCH_TOTAL_LIMIT,
  );
}

/**
 * Whether a search's count gathers its page too (countAndPageSql): when a rare term is found
 * through the index and the others are tested on its rows, counting reads each of those rows
 * anyway (at most RARE_TERM of them). Elsewhere it does not pay: SQLite's other counts read no
 * row (the trigram index or a filter's index answers them), and PostgreSQL's count does check
 * each match's row, but gathering their sort keys as well made a common word's bounded count
 * half as costly again (10,001 rows materialized), more than rare words gained (measured at
 * 1,000,000 posts: rare words +36%, common words -17%). A cursor's page starts mid-list, so it
 * is read as before.
 */
export function countGathersPage(filter: PostFilter, cursor: string | undefined): boolean {
  return filter.through !== undefined && !cursor;
}

/**
 * A search's count and, when it is within the bound, its page's rows, in one statement and one
 * pass over its matches: up to SEARCH_TOTAL_LIMIT + 1 of them, with their sort keys, are
 * gathered once and counted; if that is all of them, the page is sorted out of them and its
 * rows are joined. Every row carries the count; a single row with the count and nothing else
 * (a null id) says the page is empty, or that the matches are past the bound, where the page
 * is found as for any search.
 */
export function countAndPageSql(filter: PostFilter, sortBy: SortBy, limit: number, offset: number, d: Dialect = dialect): Prisma.Sql {
  const page = Prisma.sql`
    SELECT m."id" FROM m WHERE (SELECT count(*) FROM m) <= ${SEARCH_TOTAL_LIMIT}
    ORDER BY ${orderOn(sortBy)("m")} LIMIT ${limit} OFFSET ${offset}`;
  return Prisma.sql`
    WITH m AS MATERIALIZED (SELECT t."id", t."upvotes", t."createdAt" FROM "Post" t ${filter.where} LIMIT ${SEARCH_TOTAL_LIMIT + 1})
    SELECT c."total", r.* FROM (SELECT count(*) AS "total" FROM m) c
    LEFT JOIN (${rowsSql(page, sortBy, d)}) r ON TRUE
    ORDER BY ${orderOn(sortBy)("r")}`;
}

/** A row of countAndPageSql: a page's row, or only the count, where the id (and all else) is null. */
const gatheredRow = rowType<Omit<Row, "id"> & { id: string | null; total: number }>({ ...POST_KINDS, total: "int" });

/**
 * Page through the narrow index first, then join only the rows that are shown. The page is
 * identified by "id", which every sort index holds, so both engines read it from the index
 * alone.
 */
export function pageSql(filter: PostFilter, sortBy: SortBy, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`SELECT t."id" FROM "Post" t ${pageWhere(filter)} ORDER BY ${orderOn(sortBy)("t")} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The shown rows, in order, with everything a post record needs. CROSS JOIN makes SQLite
 * start from the page: with LIMIT as a parameter it cannot see that the page is small, and may
 * otherwise walk all of "Post" and probe the page for each row. PostgreSQL plans it as a join.
 */
export function rowsSql(page: Prisma.Sql, sortBy: SortBy, d: Dialect = dialect): Prisma.Sql {
  return Prisma.sql`${selectPost(Prisma.sql`(${page}) page CROSS JOIN "Post" p`, d)}
    WHERE p."id" = page."id"
    ORDER BY ${orderOn(sortBy)("p")}`;
}

type Row = PostRow & VersionedRow;

/**
 * The page's rows, one more than asked when there are more after it. A deep page without a
 * search seeks to a remembered position (lib/positions.ts) instead of stepping over every row
 * before it; if the positions turn out older than the rows, the page is read again with OFFSET.
 */
async function pageRows(query: ListPostsQuery, filter: PostFilter, version?: number): Promise<Row[]> {
  const order = POST_ORDERS[query.sortBy];
  const limit = query.limit + 1;
  const rowsOf = (page: Prisma.Sql) => read(rowsSql(page, query.sortBy), postRow);
  if (query.cursor) {
    const start = after(order, "t", decodeCursor(order, query.cursor));
    return readPage({ ...filter, start }, query.sortBy, limit, 0, rowsOf);
  }
  const offset = pageOffset(query.page, query.limit);
  const seek = filter.terms.length ? null : seekFor("Post", filter.where, order, "t", offset, totalHint("Post", filter.where));
  if (seek) {
    const rows = await readPage({ ...filter, start: seek.start }, query.sortBy, limit, seek.offset, rowsOf, version);
    if (rows[0] && rows[0].dataVersion === seek.version) return rows;
    // Rows of another version: the positions are stale. No rows: the OFFSET read says whether
    // the page is really past the end.
    if (rows[0]) stale("Post", filter.where, order);
  }
  return readPage(filter, query.sortBy, limit, offset, rowsOf, version);
}

async function readPage(
  filter: PostFilter,
  sortBy: SortBy,
  limit: number,
  offset: number,
  rowsOf: (page: Prisma.Sql) => Promise<Row[]>,
  version?: number,
): Promise<Row[]> {
  const walk = { filter, order: orderOn(sortBy), limit, offset };
  return (await pageByWalking(walk, dialect, () => tableRows("Post", version), rowsOf)) ?? (await rowsOf(pageSql(filter, sortBy, limit, offset)));
}

/** A sort order's ranks (lib/sqlite/ranks.ts). */
const rankedOrder = (sortBy: SortBy): RankedOrder => ({ table: "Post", name: sortBy, orderBy: orderOn(sortBy)("t") });

/** Every sort order's ranks. */
export const RANKED_ORDERS: readonly RankedOrder[] = (Object.keys(POST_ORDERS) as SortBy[]).map(rankedOrder);

/**
 * The matches of a search that the index answers by itself, where they can be counted and
 * paged by the sort order's ranks (SQLite, lib/sqlite/ranks.ts): every term found in one FTS5
 * table. Of several terms, the rare one (`through`) is found with the others there too, where
 * all of them go through the word index: its lists gave a rare number with a word of its
 * sentence in 1.6 ms, where counting it by testing the word on each of the number's rows took
 * 3.1 (the same 300 drawn requests, one at a time, at a million posts). Not with
 * a board or status (the word index's keys): listing a word's matches on one board cost more
 * than the walk of the board's index it spared (the varied-word-filter scenario at a million
 * posts, alternated: 262 and 247 req/s against 272 and 276). Not for a cursor, whose page starts
 * mid-order.
 */
function rankable(filter: PostFilter, query: ListPostsQuery): Prisma.Sql | null {
  if (query.cursor || !filter.terms.length || filter.keys?.length !== 0) return null;
  // In the trigram index, a common term beside the rare one is many long lists of trigrams to step through: 2.0-5.3 ms.
  if (filter.through && !filter.terms.every((t) => filter.expansions?.has(t))) return null;
  return dialect.matches("Post", filter.terms, filter.expansions, filter.keys);
}

/**
 * A search of a rare term and others whose words are all held as bits (TermPlan.bits): listed by
 * the rare term alone and narrowed by the others' bits in the reader (lib/sqlite/word-bits.ts),
 * where listing them all made FTS5 step through each common word's list to each of the rare
 * term's rows. Only beside a listing of every term (`rankable`), which serves when the bits are
 * of another version by the time the reader lists.
 */
function narrowedByBits(filter: PostFilter, plan: TermPlan | undefined): Narrowed | undefined {
  const [rare, ...more] = filter.through ?? [];
  if (!plan?.bits || plan.version === undefined || rare === undefined || more.length) return undefined;
  const others = filter.terms.filter((term) => term !== rare);
  const terms = heldPlaces(others, plan.bits.terms);
  const matches = terms && dialect.matches("Post", [rare], filter.expansions);
  return matches ? { matches, version: plan.version, terms } : undefined;
}

/**
 * A search whose terms are all held as bits (TermPlan.bits), with no filter but a board and a
 * status whose keys are held too, and no cursor, found by the bits alone (lib/sqlite/ranks.ts's
 * matchesByBits): its count and its page, whatever page, without reading the index or the table
 * but for the page's rows. Common words together were listed by FTS5 through both words' lists
 * up to the bound, and past it their page was walked in the table testing each row's text; a
 * word with a board or a status was counted through the word index and the filter's key, and
 * its page walked in the filter's index.
 */
function foundByBits(filter: PostFilter, plan: TermPlan | undefined, query: ListPostsQuery): Omit<Narrowed, "matches"> | undefined {
  if (query.cursor || !plan?.bits || plan.version === undefined) return undefined;
  // The board's and the status's keys apart: the bits hold no pair's key (PostFilter.keys's).
  const { boardId, statusId } = filter.wordFilters ?? {};
  const keys = filter.wordFilters && boardStatusKeys(boardId, statusId);
  const filters = heldKeys(keys, plan.bits.places);
  const terms = heldPlaces(filter.terms, plan.bits.terms);
  return terms && filters ? { version: plan.version, terms: [...terms, ...filters] } : undefined;
}

/** A page of the post list, as the API shows it. */
export type PostList = ListPage<"posts", PostRecord>;

export function listPosts(query: ListPostsQuery): Promise<PostList> {
  const terms = searchTerms(query.search);
  const nothing = (): PostList => ({ posts: [], ...listTotal(0, true), hasNextPage: false, nextCursor: null });
  // The counts of posts kept for each word are by board and status only (WordFilters).
  return listWithTermPlan("Post", terms, nothing, (plan) => listWith(query, terms, plan), wordFiltersOf(query));
}

/** The list, and the table version its page was read at (the last read; none when the page has no rows). */
async function listWith(query: ListPostsQuery, terms: string[], plan?: TermPlan): Promise<Listed<PostList>> {
  const rare = await rareTerm(dialect, "Post", terms, plan?.expansions, await rowsOfTerms("Post", plan, terms));
  const filter = postFilter(query, dialect, { through: rare ? [rare] : undefined, expansions: plan?.expansions, words: plan?.words });
  // The page's rows, when counting the search gathered them (countAndPageSql).
  let gathered: Row[] | undefined;
  // The matches counted and paged by the order's ranks, where the readers hold them at the plan's version.
  const order = rankedOrder(query.sortBy);
  const matches = rankable(filter, query);
  const ranked = matches && ranksAt(order, plan?.version) ? matches : null;
  let listing: Promise<RankedMatches<Row>> | undefined;
  const ranksRows = { sql: rowsSql(Prisma.sql`SELECT t."id" FROM "Post" t WHERE t."seq" IN (${PAGE_SEQS})`, query.sortBy), type: postRow };
  const narrowed = ranked ? narrowedByBits(filter, plan) : undefined;
  const listed = (ranked: Prisma.Sql) =>
    (listing ??= rankedMatches(order, ranked, pageOffset(query.page, query.limit), query.limit + 1, SEARCH_TOTAL_LIMIT, ranksRows, narrowed));
  // The search found by the word bits alone, where they hold every term and the ranks are of the
  // plan's version (the bits are SQLite's alone, so is the check of the ranks: only with bits).
  const held = foundByBits(filter, plan, query);
  const byBits = held && ranksAt(order, plan?.version) ? held : undefined;
  let bitsListing: Promise<RankedMatches<Row> | null> | undefined;
  const foundBits = async () => {
    if (byBits) bitsListing ??= matchesByBits(order, byBits, pageOffset(query.page, query.limit), query.limit + 1, SEARCH_TOTAL_LIMIT, ranksRows);
    return bitsListing;
  };
  const countMatches = async () => {
    // One term: the rows of its words may settle its count without counting (countFromWords);
    // on PostgreSQL with board and/or status too, which the posts' counts of words are kept by.
    // Otherwise, on PostgreSQL, terms all found through their words are counted from the
    // bitmaps of their words', board's and status's posts (bitsCountSql), unless the count
    // gathers a rare term's page as well. (A term in two words was counted as the words' kept
    // counts less the rows holding both, which read those rows' pages; the bitmaps serve every
    // such search, the changelogs' too.)
    const fromWords = countFromWords(await termRowsOf(plan, terms, filter.wordFilters));
    if (fromWords !== undefined) return fromWords;
    const bitsCount = (await foundBits())?.count;
    if (bitsCount !== undefined) return bitsCount;
    if (ranked) return (await listed(ranked)).count;
    const gathers = countGathersPage(filter, query.cursor);
    const fromBits = !gathers && bitsCountSql(filter);
    if (fromBits) return readCount(fromBits);
    if (!gathers) return readCount(countSql(filter));
    const rows = await read(countAndPageSql(filter, query.sortBy, query.limit + 1, pageOffset(query.page, query.limit)), gatheredRow);
    const counted = rows[0]?.total ?? 0;
    if (counted <= SEARCH_TOTAL_LIMIT) gathered = rows.filter((row): row is Row & { total: number } => row.id !== null);
    return counted;
  };
  const total = (known?: number) => exactTotal("Post", filter.where, countMatches, known);
  // A search counts first: its count is bounded (cheap even for a common word), it tells the
  // hand-made plan how rare the terms are (search-plan.ts), and a search that matches nothing
  // needs no page, which spares a search no index serves (one- and two-character terms) a
  // second read of every row. A list without a search reads its page first: its rows carry the
  // table's version, so a cached total costs no query.
  const countFirst = filter.terms.length ? await total(plan?.version ?? plan?.versionRead) : undefined;
  const rows =
    countFirst === 0
      ? []
      : gathered
        ? gathered
        : ((await foundBits())?.rows ??
          ((ranked && countFirst !== undefined && countFirst <= SEARCH_TOTAL_LIMIT && (await listed(ranked)).rows) ||
            (await pageRows(query, filter, plan?.version))));
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  const count = countFirst ?? (await total(rows[0]?.dataVersion));
  return {
    version: rows[0]?.dataVersion,
    list: {
      posts: shown.map(serializePost),
      ...listTotal(count, filter.terms.length > 0),
      hasNextPage: rows.length > query.limit,
      nextCursor: rows.length > query.limit && last ? encodeCursor(POST_ORDERS[query.sortBy], keyOf(query.sortBy, last)) : null,
    },
  };
}

const keyOf = (sortBy: SortBy, row: PostRow): SortKey =>
  sortBy === "top" ? [row.upvotes, row.createdAt, row.id] : [row.createdAt, row.id];

export async function getPost(id: string) {
  const rows = await read(Prisma.sql`${selectPost(Prisma.sql`"Post" p`, dialect)} WHERE p."id" = ${id}`, postRow, { lookup: true });
  return rows[0] ? serializePost(rows[0]) : null;
}
