import "server-only";
import { Prisma, read } from "./db";
import { countRow } from "./rows";

// Small pieces every list query shares.

/** A WHERE clause of every condition, or nothing when there are none. */
export function where(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/** The rows a page skips; a page past any real list stays a safe integer for the driver. */
export function pageOffset(page: number, limit: number): number {
  return Math.min((page - 1) * limit, Number.MAX_SAFE_INTEGER);
}

/** Runs a `SELECT count(...) AS "total"` and returns the count. */
export async function readCount(query: Prisma.Sql): Promise<number> {
  const rows = await read(query, countRow);
  return rows[0]?.total ?? 0;
}

/** Each table's tableRows, with the data version it was read for. */
const rowsAt = new Map<string, { version: number; rows: number }>();

/**
 * An upper bound on a searched table's rows, from the end of its rowid index alone ("seq"): a
 * hand-made search plan's sense of how common its matches are (SQLite). Read once for each
 * table version the caller knows (`version`), since every search asked for it: a statement on
 * a reader each time, for a figure that only sizes a plan.
 */
export async function tableRows(table: "Post" | "Changelog", version?: number): Promise<number> {
  const known = rowsAt.get(table);
  if (version !== undefined && known?.version === version) return known.rows;
  const rows = await readCount(Prisma.sql`SELECT max("seq") AS "total" FROM ${Prisma.raw(`"${table}"`)}`);
  if (version !== undefined) rowsAt.set(table, { version, rows });
  return rows;
}
