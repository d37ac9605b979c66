import "server-only";
import { Prisma, read } from "../db";
import { bitsKey, type Dialect, dialect, type Expansions, filterKey } from "../dialect";
import { rowType } from "../rows";
import { fold, searchTerms } from "../search";
import { pageOffset, readCount, tableRows, where } from "../sql";
import { after, decodeCursor, encodeCursor, orderBy, type SortOrder } from "../keyset";
import { matchesByBits, type Narrowed, PAGE_SEQS, type RankedMatches, type RankedOrder, rankedMatches, ranksAt } from "../sqlite/ranks";
import { boundedCount, dataVersionColumn, exactTotal, type ListPage, listTotal, SEARCH_TOTAL_LIMIT, type VersionedRow } from "../totals";
import { countFromWords, heldKeys, heldPlaces, type Listed, listWithTermPlan, type TermPlan, termRowsOf, type WordFilters } from "../vocabulary";
import type { ChangelogRecord, ListChangelogsQuery } from "./schemas";
import { type ChangelogRow, serializeChangelog } from "./serialize";

// Drafts first ("Draft" sorts before "Published"), each group newest first by sortAt
// (updatedAt for a Draft, publishedAt once Published), ties by id.
const SORT: SortOrder = {
  name: "drafts-then-newest",
  columns: [
    { name: "status", kind: "text", descending: false },
    { name: "sortAt", kind: "time", descending: true },
    { name: "id", kind: "text", descending: true },
  ],
};

const KINDS = { publishedAt: "time", createdAt: "time", updatedAt: "time", labels: "list" } as const;
const changelogRow = rowType<ChangelogRow>(KINDS);
type ListedRow = ChangelogRow & VersionedRow & { sortAt: Date };
const listedRow = rowType<ListedRow>({ ...KINDS, sortAt: "time", dataVersion: "int" });

/**
 * The list's WHERE clause. `start`: where a cursor's page starts; `expansions`: short terms an
 * index serves (lib/vocabulary.ts); `counting`: for the count, which needs no row test for them;
 * `common`: the search matches many changelogs, so a page is found by walking the sort order;
 * `keys`: the filters' keys (changelogKeys) the search's matches hold, where the word index
 * serves them, so no changelog's labels are probed; `scan`: the matches are so many that the
 * walk tests each changelog's own text (scanFinds), and the index is not asked at all.
 */
export function changelogWhere(
  query: ListChangelogsQuery,
  d: Dialect = dialect,
  {
    start,
    expansions,
    counting,
    common = false,
    keys,
    scan = false,
  }: { start?: Prisma.Sql; expansions?: Expansions; counting?: boolean; common?: boolean; keys?: string[][]; scan?: boolean } = {},
): Prisma.Sql {
  const conditions: Prisma.Sql[] = start ? [start] : [];
  if (query.id) conditions.push(Prisma.sql`t."id" IN (${Prisma.join(query.id)})`);
  if (query.status) conditions.push(Prisma.sql`t."status" = ${query.status}`);
  if (query.labels && !keys?.length) conditions.push(d.anyLabel("t", [...new Set(query.labels.map(fold))]));
  const terms = searchTerms(query.search);
  if (terms.length && scan) conditions.push(d.contains("t", terms));
  else if (terms.length) conditions.push(d.search("Changelog", "t", terms, { walk: conditions.length > 0 || common, expansions, counting, keys }));
  return where(conditions);
}

const COLUMNS = Prisma.sql`t."id", t."title", t."content", t."status", t."publishedAt", t."createdAt", t."updatedAt"`;

/** The names of changelog `alias`'s labels, as one column (Dialect.listOf). */
const labelsOf = (alias: string, d: Dialect) =>
  Prisma.sql`${d.listOf(Prisma.sql`l."name"`, Prisma.sql`FROM "ChangelogLabel" l WHERE l."changelogId" = ${Prisma.raw(alias)}."id"`)} AS "labels"`;

/**
 * A page of the list, each row with its labels: the page is found first and its labels read
 * for its rows alone (a subquery in the page's own select list would run for every row sorted),
 * in the same statement, where a second one had cost every list a round trip to the database.
 */
export function pageSql(where: Prisma.Sql, limit: number, offset: number, d: Dialect = dialect): Prisma.Sql {
  return Prisma.sql`
    SELECT page.*, ${labelsOf("page", d)}
    FROM (SELECT ${COLUMNS}, t."sortAt", ${dataVersionColumn("Changelog")}
          FROM "Changelog" t ${where} ORDER BY ${orderBy(SORT, "t")} LIMIT ${limit} OFFSET ${offset}) page
    ORDER BY ${orderBy(SORT, "page")}`;
}

/**
 * Whether the list has any condition but the search's: its own WHERE without the search, so a
 * filter added there is never left out of a plan that holds only for a search on its own.
 */
const filteredBesidesSearch = (query: ListChangelogsQuery, d: Dialect = dialect) =>
  changelogWhere({ ...query, search: undefined }, d) !== Prisma.empty;

/**
 * The word index's keys (filterKey) for the list's filters other than search, one of each list
 * to hold: the status's, and any of the labels'; null when another filter (ids) has none.
 */
export function changelogKeys(query: ListChangelogsQuery, d: Dialect = dialect): string[][] | null {
  if (filteredBesidesSearch({ ...query, status: undefined, labels: undefined }, d)) return null;
  return [
    ...(query.status ? [[filterKey("status", query.status)]] : []),
    ...(query.labels ? [[...new Set(query.labels.map(fold))].map((name) => filterKey("label", name))] : []),
  ];
}

/**
 * The list's count, bounded for a search (lib/totals.ts). A search with no other filter is
 * counted by the trigram index alone where it can be: on SQLite, testing each changelog against
 * the list of a common word's matches built that whole list first (18 ms for a word in all
 * 50,000 changelogs), where the index stops at the bound (2 ms). A search by words with status
 * and/or labels is counted by the word index alone, which holds them as keys (SQLite) or beside
 * the words (PostgreSQL, the changelog_label_keys migration; there the longer terms are counted
 * by their `words`, however common, as the post list's are with board and status): walking
 * the status's index and probing each changelog's labels took about 40 ms on SQLite, and on
 * PostgreSQL, probing each match's labels, 6-16 ms alone and 58-132 ms under load.
 */
export function countSql(
  query: ListChangelogsQuery,
  search: boolean,
  expansions?: Expansions,
  d: Dialect = dialect,
  words?: Expansions,
): Prisma.Sql {
  if (!search) return Prisma.sql`SELECT count(*) AS "total" FROM "Changelog" t ${changelogWhere(query, d, { expansions })}`;
  const keys = changelogKeys(query, d);
  const fromIndex = keys !== null && d.matches("Changelog", searchTerms(query.search), expansions, keys);
  if (fromIndex) return boundedCount(fromIndex);
  const counted = keys?.length && words?.size ? new Map([...(expansions ?? []), ...words]) : expansions;
  return boundedCount(Prisma.sql`SELECT 1 FROM "Changelog" t ${changelogWhere(query, d, { expansions: counted, counting: true })}`);
}

/**
 * A search's count from the bitmaps of its words', status's and labels' changelogs
 * (Dialect.countByWordBits, the changelog_word_bits migration), or null: where every term is
 * found through its words (`words`, PostgreSQL's) and no filter but status and labels is set.
 * It reads no changelog, where the word index's count reads each match's row to see whether it
 * is visible (at a million posts, drawn words with status and/or labels: 2.5 of the 4.5 ms a
 * request took the database, one at a time).
 */
export function bitsCountSql(query: ListChangelogsQuery, terms: string[], words: Expansions | undefined, d: Dialect = dialect): Prisma.Sql | null {
  if (!terms.length || !words || changelogKeys(query, d) === null) return null;
  return d.countByWordBits(
    "Changelog",
    [
      ...terms.map((term) => words.get(term) ?? []),
      ...(query.status ? [[bitsKey("status", query.status)]] : []),
      ...(query.labels ? [[...new Set(query.labels.map(fold))].map((name) => bitsKey("label", name))] : []),
    ],
    SEARCH_TOTAL_LIMIT,
  );
}

/** A page of the changelog list, as the API shows it. */
export type ChangelogList = ListPage<"changelogs", ChangelogRecord>;

export function listChangelogs(query: ListChangelogsQuery): Promise<ChangelogList> {
  const terms = searchTerms(query.search);
  const nothing = (): ChangelogList => ({ changelogs: [], ...listTotal(0, true), hasNextPage: false, nextCursor: null });
  return listWithTermPlan("Changelog", terms, nothing, (plan) => listWith(query, terms, plan), wordFilters(query));
}

/**
 * The list's filters as the counts of words are kept by (WordFilters): a status, or none; null
 * with any other filter (labels, ids), and the search is counted. Not the status beside labels,
 * though a term in none of its changelogs is in none of the list's: reading the counts with the
 * words cost every such search 0.22 ms (0.97 against 0.75, 400 drawn, at a million posts) and
 * spared a page's walk to one in a hundred.
 */
const wordFilters = (query: ListChangelogsQuery): WordFilters | null =>
  filteredBesidesSearch({ ...query, status: undefined }) ? null : { statusId: query.status };

/**
 * Reading a match's row to sort it costs about this many steps of a walk of the sort order's
 * index (SQLite, 50,000 changelogs: about 1 µs a match, 2.3 ms for a word in 2,370 of them and
 * 46 ms for one in 42,464, against 3.3 ms for a walk of the whole index).
 */
const ROW_READ_STEPS = 15;

/**
 * Whether a search with no other condition finds a page ending at row `needed` sooner by walking
 * the sort order's index, testing each entry against the matches' list, than by reading each of
 * its `matches` rows and sorting them. The walk takes about needed × rows / matches steps, for a
 * table of `rows` rows. For a page of 20 at 50,000 changelogs, a word in 42,464 took 46 ms read
 * match by match and 12 ms walked; in 2,370, 2.3 and 0.8 ms; a walk that finds too few matches
 * reads the whole index (3.3 ms for a word in none, where reading its matches costs nothing).
 */
export function walkFinds(matches: number, needed: number, rows: number): boolean {
  return matches > 0 && needed * rows < ROW_READ_STEPS * matches * matches;
}

/**
 * A walk that tests each changelog's text costs about this many steps of one that tests it
 * against the matches' list (SQLite, 50,000 changelogs: reading the row and testing it about
 * 1 µs, against 0.15 µs a walked entry and 0.13 µs a match of the list, which is built whole
 * before the walk starts).
 */
const TEXT_TEST_STEPS = 7;

/**
 * Whether a walk of the sort order (walkFinds) finds a page ending at row `needed` sooner by
 * testing each changelog's own text than by testing it against the list of the `matches`:
 * the walk reads about needed × rows / matches rows, and the list holds every match (and, with
 * filter keys, every entry of the lists intersected for them). For a page of 20 at 50,000
 * changelogs, a word in all of them took 0.04 ms tested by its text against 6.9 ms through its
 * list, and with status and labels 0.09 against 8.4 ms; a word in 2,422 took 0.41 against
 * 0.47 ms, and for a page ending at row 501, 10.4 against 1.9 ms.
 */
export function scanFinds(matches: number, needed: number, rows: number): boolean {
  return matches > 0 && TEXT_TEST_STEPS * needed * rows < matches * matches;
}

/** The list's order's ranks (lib/sqlite/ranks.ts). */
export const RANKED: RankedOrder = { table: "Changelog", name: SORT.name, orderBy: orderBy(SORT, "t") };

/**
 * The matches of a search that the word or trigram index answers by itself, status and labels
 * included (as the word index's keys), where they can be counted and paged by the order's ranks
 * (SQLite, lib/sqlite/ranks.ts). Unlike the post list's, with status and labels too: there the
 * matches are counted by that same listing anyway, and their page was a second statement
 * (0.86 ms a request against 1.40 for the count and the page, 336 drawn varied-changelogs
 * requests at a million posts, one at a time). Not for a cursor, whose page starts mid-order.
 */
function rankable(query: ListChangelogsQuery, terms: string[], expansions?: Expansions): Prisma.Sql | null {
  if (query.cursor || !terms.length) return null;
  const keys = changelogKeys(query);
  return keys && dialect.matches("Changelog", terms, expansions, keys);
}

/**
 * A search whose terms are all held as bits (TermPlan.bits, lib/sqlite/word-bits.ts), with no
 * filter but a status and labels whose keys are held too, and no cursor, found by the bits alone
 * (lib/sqlite/ranks.ts's matchesByBits), as the post list's is: its count and its page, whatever
 * page, without reading the index or the table but for the page's rows.
 */
function foundByBits(query: ListChangelogsQuery, terms: string[], plan: TermPlan | undefined): Omit<Narrowed, "matches"> | undefined {
  if (query.cursor || !plan?.bits || plan.version === undefined) return undefined;
  const held = heldPlaces(terms, plan.bits.terms);
  const keys = heldKeys(changelogKeys(query), plan.bits.places);
  return held && keys ? { version: plan.version, terms: [...held, ...keys] } : undefined;
}

/** The list, and the table version its page was read at (none when the page has no rows). */
async function listWith(query: ListChangelogsQuery, terms: string[], plan?: TermPlan): Promise<Listed<ChangelogList>> {
  const search = terms.length > 0;
  const expansions = plan?.expansions;
  const where = changelogWhere(query, dialect, { expansions });
  const filtered = filteredBesidesSearch(query);
  const start = query.cursor ? after(SORT, "t", decodeCursor(SORT, query.cursor)) : undefined;
  const offset = start ? 0 : pageOffset(query.page, query.limit);
  // The matches counted and paged by the order's ranks, where the readers hold them at the plan's version.
  const matches = rankable(query, terms, expansions);
  const ranked = matches && ranksAt(RANKED, plan?.version) ? matches : null;
  let listing: Promise<RankedMatches<ListedRow>> | undefined;
  const ranksRows = { sql: pageSql(Prisma.sql`WHERE t."seq" IN (${PAGE_SEQS})`, query.limit + 1, 0), type: listedRow };
  const listed = (ranked: Prisma.Sql) => (listing ??= rankedMatches(RANKED, ranked, offset, query.limit + 1, SEARCH_TOTAL_LIMIT, ranksRows));
  // The search found by the word bits alone, where they hold every term and key and the ranks
  // are of the plan's version (both SQLite's: the ranks are checked only where the bits hold it).
  const held = foundByBits(query, terms, plan);
  const byBits = held && ranksAt(RANKED, plan?.version) ? held : undefined;
  let bitsListing: Promise<RankedMatches<ListedRow> | null> | undefined;
  const foundBits = async () => {
    if (byBits) bitsListing ??= matchesByBits(RANKED, byBits, offset, query.limit + 1, SEARCH_TOTAL_LIMIT, ranksRows);
    return bitsListing;
  };
  // The count from PostgreSQL's bitmaps, where they hold every term and filter (null on SQLite).
  const fromBits = bitsCountSql(query, terms, plan?.words);
  const countMatches = async () => {
    const filters = wordFilters(query);
    const fromWords = countFromWords(await termRowsOf(plan, terms, filters));
    if (fromWords !== undefined) return fromWords;
    const bitsCount = (await foundBits())?.count;
    if (bitsCount !== undefined) return bitsCount;
    if (ranked) return (await listed(ranked)).count;
    return readCount(fromBits ?? countSql(query, search, expansions, dialect, plan?.words));
  };
  const total = (known?: number) => exactTotal("Changelog", where, countMatches, known);
  // Where searches are planned by hand (SQLite), a search counts first, as the post list does:
  // its count is bounded (from the index alone when nothing else filters), it says how common
  // the matches are, and a search that matches nothing needs no page. So does a search that
  // PostgreSQL counts from the bitmaps, reading no changelog: its page walks the sort order
  // testing each row, which for one matching nothing is a walk of every changelog of its status
  // (24-42 ms one at a time at a million posts, the slowest pages of the drawn filtered searches).
  // Otherwise the page comes first: its rows carry the table's version, so a cached total costs
  // no query.
  const countFirst = search && (dialect.plansSearchByHand || fromBits !== null) ? await total(plan?.version ?? plan?.versionRead) : undefined;
  // The page's rows found by the bits, where they hold the search (null where they turned out of date).
  const bitsRows = countFirst === 0 ? null : (await foundBits())?.rows;
  // Status and labels held as keys by the word index: the count is exact for them, so it says
  // how common the filtered matches are.
  const filterKeys = changelogKeys(query);
  const keys = filterKeys?.length && dialect.matches("Changelog", terms, expansions, filterKeys) ? filterKeys : undefined;
  // With any other condition (a cursor's start among them) the page walks an index already.
  const walks = dialect.plansSearchByHand && !bitsRows && Boolean(countFirst) && !start && (!filtered || Boolean(keys));
  const needed = offset + query.limit + 1;
  const tableSize = walks ? await tableRows("Changelog", plan?.version) : 0;
  const common = walks && walkFinds(countFirst ?? 0, needed, tableSize);
  const scan = common && scanFinds(countFirst ?? 0, needed, tableSize);
  // A page read match by match reads those of the keys' list, the filtered one. A walk (of the
  // status's index, of the sort order for a common search, or from a cursor's start) tests each
  // changelog against the list of the words' matches alone, and probes the labels of those in
  // it: the list with the keys is built by stepping through every key's list too, each a large
  // share of the changelogs (a page of 20 at 50,000 changelogs, of a word in 2,422 with a status
  // and two labels: 0.66 ms against 2.54 with the keys; with the labels alone, 0.85 against 2.03).
  const pageKeys = query.status || common || start ? undefined : keys;
  // One row more than shown says whether a next page exists.
  const pageWhere = changelogWhere(query, dialect, scan ? { scan } : { start, expansions, common, keys: pageKeys });
  // By the ranks where the count listed the matches (and gave the page's rows with them). Not
  // where the count was known without listing them (from the words' rows, or cached): a listing
  // for the page alone cost as much as the page read as before (a word alone, 400 drawn
  // requests at a million posts, one at a time: 0.59 ms for the listing and 0.69 for the rows,
  // against 1.14-1.30 for the page), and with status or labels more (1.12 against 0.33-1.02).
  const rows =
    countFirst === 0 ? [] : (bitsRows ?? ((listing && (await listing).rows) || (await read(pageSql(pageWhere, query.limit + 1, offset), listedRow))));
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  // A count from words remembered at an older version (TermPlan.remembered) is kept under that
  // version, not the page's: if the table has moved since, the list is read again with words of
  // the new version, which must not find that count cached as the new version's.
  const count = countFirst ?? (await total(plan?.remembered ?? rows[0]?.dataVersion ?? plan?.version));
  return {
    version: rows[0]?.dataVersion,
    list: {
      changelogs: shown.map(serializeChangelog),
      ...listTotal(count, search),
      hasNextPage: rows.length > query.limit,
      nextCursor: rows.length > query.limit && last ? encodeCursor(SORT, [last.status, last.sortAt, last.id]) : null,
    },
  };
}

export async function getChangelog(id: string) {
  const rows = await read(Prisma.sql`SELECT ${COLUMNS}, ${labelsOf("t", dialect)} FROM "Changelog" t WHERE t."id" = ${id}`, changelogRow, {
    lookup: true,
  });
  return rows[0] ? serializeChangelog(rows[0]) : null;
}
