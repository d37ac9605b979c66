import { Prisma } from "../db";
import type { Dialect } from "../dialect";
import { where } from "../sql";
import { totalHint } from "../totals";
import type { PostFilter } from "./queries";

// Searching posts where the planner cannot choose (SQLite, see Dialect.plansSearchByHand): a
// common term is found fastest by walking the sort order's index and testing each row, a rare
// one by asking the trigram index first. Walk a bounded prefix of the order first: if it holds
// the whole page, that page is exact (every match before it lies in the prefix). Otherwise the
// term is rare enough for the index, which the caller's plain page query asks.

/** How far the walk may go: a term in one post of WALK_FACTOR still fills a page from it. */
const WALK_FACTOR = 50;
const WALK_LIMIT = 5000;
/** Fewer matches than this are sorted straight from the trigram index. */
const RARE = 2000;

export interface Walk {
  filter: PostFilter;
  /** The sort order's ORDER BY list, on a given alias. */
  order: (alias: string) => Prisma.Sql;
  limit: number;
  offset: number;
}

/** The page's ids from a walk of the order's first rows, or null when the page lies too deep. */
export function walkSql({ filter, order, limit, offset }: Walk, d: Dialect): Prisma.Sql | null {
  if ((offset + limit) * WALK_FACTOR > WALK_LIMIT * 10) return null;
  const cap = Math.min(WALK_LIMIT, (offset + limit) * WALK_FACTOR);
  return Prisma.sql`SELECT w."id" FROM (
        SELECT t."id", t."searchText", t."upvotes", t."createdAt" FROM "Post" t ${where(filter.start ? [...filter.plain, filter.start] : filter.plain)}
        ORDER BY ${order("t")} LIMIT ${cap}) w
      WHERE ${d.contains("w", filter.terms)}
      ORDER BY ${order("w")} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The page found by walking, or null when the index should be asked instead: the dialect
 * leaves the choice to its planner, there is no search, the last count of this same search
 * says the term is rare, the page lies too deep, or the walk did not fill the page.
 */
export async function pageByWalking<R>(walk: Walk, d: Dialect, rowsOf: (page: Prisma.Sql) => Promise<R[]>): Promise<R[] | null> {
  if (!d.plansSearchByHand || !walk.filter.terms.length) return null;
  const hint = totalHint("Post", walk.filter.where);
  if (hint !== undefined && hint <= RARE) return null;
  const page = walkSql(walk, d);
  if (!page) return null;
  const rows = await rowsOf(page);
  return rows.length === walk.limit ? rows : null;
}
