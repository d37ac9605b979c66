import { Prisma } from "../db";
import type { Dialect } from "../dialect";
import { where } from "../sql";
import { totalHint } from "../totals";
import type { PostFilter } from "./queries";

// Searching posts where the planner cannot choose (SQLite, see Dialect.plansSearchByHand): a
// common term is found fastest by walking the sort order's index and testing each row, a rare
// one by asking the trigram index first (which reads every match's row to sort them). The
// search's count is taken first (queries.ts), so its share of the table says how long a walk
// should hold the page twice over. If that walk is short enough, walk it: if it holds the whole
// page, that page is exact (every match before it lies in the walked prefix). Otherwise, or if
// an unlucky stretch left the page short, the caller's plain page query asks the index.

/** The longest walk: about as costly as sorting a rare term's matches from the index. */
const WALK_MAX = 20_000;

export interface Walk {
  filter: PostFilter;
  /** The sort order's ORDER BY list, on a given alias. */
  order: (alias: string) => Prisma.Sql;
  limit: number;
  offset: number;
}

/**
 * How many rows of the order to walk for a page ending at row `needed`, when `matches` of at
 * most `rows` rows match (a bounded count is a lower bound, which only lengthens the walk):
 * twice what the matches' share predicts, or null when that is longer than WALK_MAX.
 */
export function walkLength(needed: number, matches: number | undefined, rows: number): number | null {
  if (!matches) return null;
  const length = Math.max(needed, Math.ceil((2 * needed * rows) / matches));
  return length <= WALK_MAX ? length : null;
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
