import "server-only";
import { Prisma, read } from "./db";
import { after, orderBy, type SortKey, type SortOrder } from "./keyset";
import { log } from "./log";
import { rowType } from "./rows";
import { dataVersionColumn, versionOf } from "./totals";

// Remembered positions in a sort order, so that any page number is a short walk. OFFSET makes
// an engine step over every row before the page: page 40,000 of a million posts is 800,000
// index entries, tens of milliseconds on either engine. Instead, for each filter and order in
// use, one pass over the order (in the background, on a reader) keeps the key of every
// EVERY-th row; a deep page then seeks to the nearest remembered key before it and walks less
// than EVERY rows. Positions belong to the table's data version (lib/totals.ts): the rows of
// the page carry the version they were read at, and a page read against positions of another
// version is thrown away and read again with OFFSET while the positions are rebuilt.

const EVERY = 1000;
const MAX_ENTRIES = 100;

type Table = "Post";

interface Positions {
  version: number;
  /** keys[i] is the key of the row at offset (i + 1) * EVERY - 1. */
  keys: SortKey[];
}

const remembered = new Map<string, Positions>();
const building = new Set<string>();

const keyOf = (table: Table, where: Prisma.Sql, order: SortOrder) =>
  `${table}\u0000${order.name}\u0000${where.sql}\u0000${JSON.stringify(where.values)}`;

/** Where a deep page starts: after `key`, skipping `offset` more rows; read at `version`. */
export interface Seek {
  start: Prisma.Sql;
  offset: number;
  version: number;
}

/**
 * The seek for the page at `offset`, or null when OFFSET alone is as cheap (a shallow page) or
 * no positions are remembered yet. They are then built in the background for the next pages,
 * but only for a list known (`total`, its last count) to reach that deep: a page past the end
 * must not cost a pass over the whole order.
 */
export function seekFor(
  table: Table,
  where: Prisma.Sql,
  order: SortOrder,
  alias: string,
  offset: number,
  total: number | undefined,
): Seek | null {
  if (offset < EVERY) return null;
  const key = keyOf(table, where, order);
  const positions = remembered.get(key);
  if (!positions) {
    if (total !== undefined && offset < total) build(table, where, order, key);
    return null;
  }
  const index = Math.min(Math.floor(offset / EVERY), positions.keys.length);
  const known = positions.keys[index - 1];
  if (!known) return null;
  return { start: after(order, alias, known), offset: offset - index * EVERY, version: positions.version };
}

/** Forgets the positions a page found stale, and builds them again for the version now current. */
export function stale(table: Table, where: Prisma.Sql, order: SortOrder): void {
  const key = keyOf(table, where, order);
  remembered.delete(key);
  build(table, where, order, key);
}

function build(table: Table, where: Prisma.Sql, order: SortOrder, key: string): void {
  if (building.has(key)) return;
  building.add(key);
  const columns = order.columns.map((c) => `"${c.name}"`).join(", ");
  const keyRow = rowType<Record<string, unknown> & { dataVersion: number }>(
    Object.fromEntries([...order.columns.map((c) => [c.name, c.kind]), ["dataVersion", "int"]]),
  );
  // The version is read in the same statement as the positions, so both are of one moment.
  const query = Prisma.sql`
    SELECT ${Prisma.raw(columns)}, ${dataVersionColumn(table)} FROM (
      SELECT ${Prisma.raw(order.columns.map((c) => `t."${c.name}"`).join(", "))},
             row_number() OVER (ORDER BY ${orderBy(order, "t")}) AS "n"
      FROM ${Prisma.raw(`"${table}"`)} t ${where}) x
    WHERE x."n" % ${EVERY} = 0
    ORDER BY x."n"`;
  read(query, keyRow)
    .then(async (rows) => {
      const version = rows[0]?.dataVersion ?? (await versionOf(table));
      remembered.delete(key);
      remembered.set(key, { version, keys: rows.map((row) => order.columns.map((c) => row[c.name] as SortKey[number])) });
      log("info", "remembered positions in a sort order", { table, order: order.name, positions: rows.length, version });
      if (remembered.size > MAX_ENTRIES) remembered.delete(remembered.keys().next().value as string);
    })
    .catch((error: unknown) =>
      log("warn", "remembering positions in a sort order failed; deep pages use OFFSET", {
        reason: error instanceof Error ? error.message : String(error),
      }),
    )
    .finally(() => building.delete(key));
}
