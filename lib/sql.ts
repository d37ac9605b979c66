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

/**
 * An upper bound on a searched table's rows, from the end of its rowid index alone ("seq"): a
 * hand-made search plan's sense of how common its matches are (SQLite).
 */
export function tableRows(table: "Post" | "Changelog"): Promise<number> {
  return readCount(Prisma.sql`SELECT max("seq") AS "total" FROM ${Prisma.raw(`"${table}"`)}`);
}
