import "server-only";
import { Prisma } from "../db";
import { type Dialect, type Expansions, indexedTerms, type SearchTable } from "../dialect";
import { readCount, where } from "../sql";
import { boundedCount, SEARCH_TOTAL_LIMIT, totalHint } from "../totals";
import type { TermRows } from "../vocabulary";
import type { PostFilter } from "./queries";

// Searching posts where the planner cannot choose (SQLite, see Dialect.plansSearchByHand): a
// common term is found fastest by walking the sort order's index and testing each row, a rare
// one by asking the trigram index first (which reads every match's row to sort them). The
// search's count is taken first (queries.ts), so its share of the table says how long a walk
// should hold the page twice over. If that walk is short enough, walk it: if it holds the whole
// page, that page is exact (every match before it lies in the walked prefix). Otherwise, or if
// an unlucky stretch left the page short, the caller's plain page query asks the index. A walk
// stops as soon as the page is full (SQLite runs the walked prefix as a co-routine under the
// page's LIMIT), so its length is a bound on the work, paid in full only when the page is not
// there.

/** A term with at most this many matches is found alone; the others are tested on its rows. */
const RARE_TERM = 2000;

/**
 * A term's count for choosing the rare one, from the rows of its words where they settle it:
 * at most RARE_TERM rows between them (rare, whatever rows they share), or more than RARE_TERM
 * in one of them (common); otherwise undefined, and the index is asked.
 */
export function countByWords(rows: TermRows | undefined): number | undefined {
  if (!rows) return undefined;
  if (rows.most <= RARE_TERM) return rows.most;
  return rows.least > RARE_TERM ? rows.least : undefined;
}

/**
 * Of several terms, one rare enough to find through the index alone, or null. Asking the index
 * for every term makes it read each term's whole match list: a rare number with a common word
 * ("137 people") read the common word's 100,000 matches to keep 1,000. Each term's count stops
 * at RARE_TERM + 1, so asking costs little even for a common one, and a term found through
 * words is not asked at all where the rows of its words settle it (`rows`, TermPlan): asking
 * took two of the three counts of a word pair (2.7 of 8 ms a request, serially, at a million posts).
 * PostgreSQL's planner, which plans the rest, read the common word's list too, in the word
 * index, to count them; there a term is chosen only where the rows of its words settle it
 * (lib/vocabulary.ts's rowsOfTerms), and nothing is counted to choose.
 */
export async function rareTerm(
  d: Dialect,
  table: SearchTable,
  terms: string[],
  expansions?: Expansions,
  rows?: ReadonlyMap<string, TermRows>,
): Promise<string | null> {
  const indexed = indexedTerms(terms);
  if (indexed.length < 2) return null;
  const counts = await Promise.all(
    indexed.map(async (term) => {
      const known = countByWords(rows?.get(term));
      if (known !== undefined) return known;
      const matches = d.plansSearchByHand && d.matches(table, [term], expansions);
      return matches ? readCount(boundedCount(matches, RARE_TERM)) : Number.POSITIVE_INFINITY;
    }),
  );
  const fewest = Math.min(...counts);
  return fewest <= RARE_TERM ? (indexed[counts.indexOf(fewest)] ?? null) : null;
}

/** The longest walk for a search with an exact count: about as costly as sorting its matches. */
const WALK_MAX = 20_000;
/**
 * The longest walk for a search whose count was bounded: asking the index instead would read
 * more than SEARCH_TOTAL_LIMIT matches, so a longer walk is still the cheaper gamble.
 */
const COMMON_WALK_MAX = 50_000;

export interface Walk {
  filter: PostFilter;
  /** The sort order's ORDER BY list, on a given alias. */
  order: (alias: string) => Prisma.Sql;
  limit: number;
  offset: number;
}

/**
 * How many rows of the order to walk for a page ending at row `needed`, when `matches` of at
 * most `rows` rows match, or null when the index should be asked instead: twice what the
 * matches' share predicts. An exact count gives the share, and the walk goes up to WALK_MAX. A
 * bounded count (past SEARCH_TOTAL_LIMIT) gives its least, SEARCH_TOTAL_LIMIT + 1 rows of
 * `rows`, and the walk goes up to COMMON_WALK_MAX. (A fixed 50 rows a row shown, as before,
 * assumed one match in 25 and came up short for a pair of words matching one post in 80.)
 */
export function walkLength(needed: number, matches: number | undefined, rows: number): number | null {
  if (!matches) return null;
  const bounded = matches > SEARCH_TOTAL_LIMIT;
  const least = bounded ? SEARCH_TOTAL_LIMIT + 1 : matches;
  const length = Math.max(needed, Math.ceil((2 * needed * rows) / least));
  return length <= (bounded ? COMMON_WALK_MAX : WALK_MAX) ? length : null;
}

/** The page's ids from a walk of the order's first `length` rows. */
export function walkSql({ filter, order, limit, offset }: Walk, length: number, d: Dialect): Prisma.Sql {
  return Prisma.sql`SELECT w."id" FROM (
        SELECT t."id", t."searchText", t."upvotes", t."createdAt" FROM "Post" t ${where(filter.start ? [...filter.plain, filter.start] : filter.plain)}
        ORDER BY ${order("t")} LIMIT ${length}) w
      WHERE ${d.contains("w", filter.terms)}
      ORDER BY ${order("w")} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The page found by walking, or null when the index should be asked instead: the dialect
 * leaves the choice to its planner, there is no search, the terms are too rare for a short
 * walk, or the walk did not fill the page. `rows` gives an upper bound on the table's rows.
 */
export async function pageByWalking<R>(
  walk: Walk,
  d: Dialect,
  rows: () => Promise<number>,
  rowsOf: (page: Prisma.Sql) => Promise<R[]>,
): Promise<R[] | null> {
  if (!d.plansSearchByHand || !walk.filter.terms.length) return null;
  const matches = totalHint("Post", walk.filter.where);
  if (!matches) return null;
  const length = walkLength(walk.offset + walk.limit, matches, await rows());
  if (!length) return null;
  const page = await rowsOf(walkSql(walk, length, d));
  return page.length === walk.limit ? page : null;
}
