import "server-only";
import { LRUCache } from "lru-cache";
import { Prisma, read } from "./db";
import { rowType } from "./rows";

// Exact list totals without counting on every request. Counting a filtered list is the one
// part of a list request whose cost grows with the table (a common search word matches a
// seventh of a million posts). Each table has a version in "DataVersion" that triggers move on
// every write that can change a total (see the data_versions migration), so a total counted
// at version v is reused only while the table is still at version v: after any write, from
// any process or app instance, the next request counts again.
//
// Order matters: the version is read before (or with the page, in the same statement as) the
// count. If a write lands in between, the count
// is newer than the version it is stored under, and no later request can read that old version
// again, so the stale pairing is never used.

type Table = "Post" | "Changelog";

/**
 * A search counts its matches up to this many (contract §6): past it, the total is this
 * number and not exact, as Elasticsearch's `track_total_hits` does. Rows and order stay exact
 * on every page; only the count stops, because counting every match of a common word is the
 * one part of a search whose cost grows with the table.
 */
export const SEARCH_TOTAL_LIMIT = 10_000;

/** A count of the rows `select` gives, stopping one past `limit` (by default the search limit). */
export function boundedCount(select: Prisma.Sql, limit = SEARCH_TOTAL_LIMIT): Prisma.Sql {
  return Prisma.sql`SELECT count(*) AS "total" FROM (${select} LIMIT ${limit + 1}) counted`;
}

/** A page of a list as the API shows it: its records under `Key`, the total, and whether more follow. */
export type ListPage<Key extends string, R> = { [key in Key]: R[] } & {
  total: number;
  totalIsExact: boolean;
  hasNextPage: boolean;
  nextCursor: string | null;
};

/** A list's total as shown: a search's count is bounded, anything else's exact. */
export function listTotal(count: number, search: boolean): { total: number; totalIsExact: boolean } {
  return search && count > SEARCH_TOTAL_LIMIT
    ? { total: SEARCH_TOTAL_LIMIT, totalIsExact: false }
    : { total: count, totalIsExact: true };
}

const MAX_ENTRIES = 1000;
/** The totals counted, by table and WHERE clause, with the version each was counted at. */
const cache = new LRUCache<string, { version: number; total: number }>({ max: MAX_ENTRIES });

/** The counts under way, by key and version: a request that misses too waits for the same one. */
const counting = new Map<string, Promise<number>>();

const keyOf = (table: Table, where: Prisma.Sql) => `${table}\u0000${where.sql}\u0000${JSON.stringify(where.values)}`;

/** A row that also carries its table's version, read in the same statement as the row. */
export interface VersionedRow {
  dataVersion: number;
}

const versionRow = rowType<{ version: number }>({ version: "int" });

/** A select-list column with the table's version, named "dataVersion". */
export function dataVersionColumn(table: Table): Prisma.Sql {
  return Prisma.raw(`(SELECT dv."version" FROM "DataVersion" dv WHERE dv."name" = '${table}') AS "dataVersion"`);
}

/** The table's version now. */
export async function versionOf(table: Table): Promise<number> {
  const rows = await read(Prisma.sql`SELECT "version" FROM "DataVersion" WHERE "name" = ${table}`, versionRow, { lookup: true });
  return rows[0]?.version ?? -1;
}

/**
 * The total for `where` on `table`: cached while the table is unchanged, else `count()`.
 * `known` is the version read with the page (when the page has rows); else it is read here.
 */
export async function exactTotal(
  table: Table,
  where: Prisma.Sql,
  count: () => Promise<number>,
  known?: number,
): Promise<number> {
  const key = keyOf(table, where);
  const version = known ?? (await versionOf(table));
  const hit = cache.get(key);
  if (hit && hit.version === version) return hit.total;
  // Requests that miss together (the first ones after a write, or after searches pushed an
  // unfiltered list's total out) share one count rather than each counting the whole table.
  const flight = `${key}\u0000${version}`;
  let pending = counting.get(flight);
  if (!pending) {
    pending = count()
      .then((total) => {
        cache.set(key, { version, total });
        return total;
      })
      .finally(() => counting.delete(flight));
    counting.set(flight, pending);
  }
  return pending;
}

/**
 * The last total counted for `where`, whatever the table's version: a hint for choosing a
 * query plan (never shown), since every plan gives the same rows.
 */
export function totalHint(table: Table, where: Prisma.Sql): number | undefined {
  return cache.peek(keyOf(table, where))?.total;
}
