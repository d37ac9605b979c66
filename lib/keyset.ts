import "server-only";
import { z } from "zod";
import { ApiError } from "./api/errors";
import { Prisma } from "./db";

// Positions in a list's sort order, given as the sort key of a row: the `cursor` parameter
// (contract §6) and the remembered positions of deep pages (lib/positions.ts) both start a page
// right after such a key, which both engines find with one seek in the sort order's index
// instead of walking past every row before it.

export interface SortColumn {
  name: string;
  kind: "text" | "int" | "time";
  descending: boolean;
}

/** A sort order: its name (as the API spells it) and its columns, the last one unique. */
export interface SortOrder {
  name: string;
  columns: readonly SortColumn[];
}

export type SortKey = (string | number | Date)[];

/**
 * Rows after `key` in `order`, on `alias`. Runs of columns in one direction become one row-value
 * comparison, which SQLite and PostgreSQL both answer by seeking in an index on those columns
 * (a spelled-out `a < x OR (a = x AND ...)` is only a filter to PostgreSQL's planner).
 */
export function after(order: SortOrder, alias: string, key: SortKey): Prisma.Sql {
  const run = order.columns.findIndex((c) => c.descending !== order.columns[0]?.descending);
  const head = run === -1 ? order.columns.length : run;
  const columns = (from: number, to: number) =>
    Prisma.raw(
      order.columns
        .slice(from, to)
        .map((c) => `${alias}."${c.name}"`)
        .join(", "),
    );
  const values = (from: number, to: number) => Prisma.join(key.slice(from, to));
  const beyond = order.columns[0]?.descending ? "<" : ">";
  const first = Prisma.sql`(${columns(0, head)}) ${Prisma.raw(beyond)} (${values(0, head)})`;
  if (head === order.columns.length) return first;
  const rest = after({ name: order.name, columns: order.columns.slice(head) }, alias, key.slice(head));
  return Prisma.sql`(${first} OR ((${columns(0, head)}) = (${values(0, head)}) AND ${rest}))`;
}

/** The order's ORDER BY list on `alias`. */
export function orderBy(order: SortOrder, alias: string): Prisma.Sql {
  return Prisma.raw(order.columns.map((c) => `${alias}."${c.name}" ${c.descending ? "DESC" : "ASC"}`).join(", "));
}

const cursorBody = z.object({ o: z.string(), k: z.array(z.union([z.string(), z.number()])) });

/** An opaque cursor: the sort order's name and the key of the page's last row. */
export function encodeCursor(order: SortOrder, key: SortKey): string {
  const k = key.map((v) => (v instanceof Date ? v.toISOString() : v));
  return Buffer.from(JSON.stringify({ o: order.name, k })).toString("base64url");
}

/** The key a cursor carries, checked against the order it must belong to; a 400 otherwise. */
export function decodeCursor(order: SortOrder, cursor: string): SortKey {
  const refuse = (why: string) => ApiError.invalid("cursor", why);
  let body: z.infer<typeof cursorBody>;
  try {
    body = cursorBody.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw refuse("is not a cursor this API gave");
  }
  if (body.o !== order.name) throw refuse(`belongs to another sort order (${body.o}), not ${order.name}`);
  if (body.k.length !== order.columns.length) throw refuse("is not a cursor this API gave");
  return order.columns.map((column, i) => {
    const value = body.k[i];
    const ok =
      column.kind === "int"
        ? Number.isSafeInteger(value)
        : typeof value === "string" && (column.kind === "text" || !Number.isNaN(Date.parse(value)));
    if (!ok) throw refuse("is not a cursor this API gave");
    return column.kind === "time" ? new Date(value as string) : (value as string | number);
  });
}

/** The `cursor` query parameter of the lists that take one. */
export const cursorParam = z
  .string()
  .max(1000, "must be at most 1000 characters")
  .optional()
  .transform((v) => v?.trim() || undefined)
  .meta({
    description:
      "Start after the last row of an earlier page: the `nextCursor` of its `pagination` (the `next` Link carries it). The rows then follow the cursor, and `page` only numbers the answer; every page costs the same, however deep.",
  });
