import "server-only";
import { LRUCache } from "lru-cache";
import { Prisma, read } from "./db";
import { after, orderBy, type SortColumn, type SortKey, type SortOrder } from "./keyset";
import { log } from "./log";
import { rowType } from "./rows";
import { dataVersionColumn, versionOf } from "./totals";
import { workerShare } from "./worker-share";

// Remembered positions in a sort order, so that any page number is a short walk. OFFSET makes
// an engine step over every row before the page: page 40,000 of a million posts is 800,000
// index entries, tens of milliseconds on either engine. Instead, for each filter and order in
// use, one pass over the order (in the background, on a reader) keeps the key of every
// EVERY-th row; a deep page then seeks to the nearest remembered key before it and walks less
// than EVERY rows. Positions belong to the table's data version (lib/totals.ts): the rows of
// the page carry the version they were read at, and a page read against positions of another
// version is thrown away and read again with OFFSET while the positions are rebuilt.
//
// With WEB_CONCURRENCY workers (server.ts), one pass serves them all (lib/worker-share.ts): the
// worker that makes it tells the others, and sends them what it found; a worker that hears of a
// pass waits for it (OFFSET serves it meanwhile). Each made its own before: at a million posts
// on PostgreSQL a pass over the whole list took 0.34-0.36 s warm and 1.6-2.7 s cold, one per
// filter and order, in every worker after each start. (The benchmark's deep pages with two
// workers did not move measurably either way: 404 req/s shared, 446 not, in runs that vary more
// than that.)

const EVERY = 1000;
const MAX_ENTRIES = 100;

type Table = "Post";

interface Positions {
  version: number;
  /** keys[i] is the key of the row at offset (i + 1) * EVERY - 1. */
  keys: SortKey[];
}

interface State {
  /** By table, filter and order; the least recently used dropped past MAX_ENTRIES. */
  remembered: LRUCache<string, Positions>;
  /** Passes this process makes. */
  building: Set<string>;
}

/** Positions as another worker sends them: times as ISO text, and the kind of each column. */
interface SentPositions {
  table: Table;
  order: string;
  version: number;
  kinds: SortColumn["kind"][];
  keys: (string | number)[][];
}

// On globalThis, as the webhook nudge is (lib/webhooks/nudge.ts): every bundle of the app in a
// process reads the same positions.
const slot = globalThis as unknown as { feedbackPositions?: State };
slot.feedbackPositions ??= { remembered: new LRUCache({ max: MAX_ENTRIES }), building: new Set() };
const { remembered, building } = slot.feedbackPositions;

const shared = workerShare<SentPositions>("positions", (key, sent) => {
  const current = remembered.peek(key);
  if (current && current.version > sent.version) return;
  const keys = sent.keys.map((k) => k.map((value, i) => (sent.kinds[i] === "time" ? new Date(value) : value)));
  remembered.set(key, { version: sent.version, keys });
  log("info", "positions in a sort order taken from another worker", {
    table: sent.table,
    order: sent.order,
    positions: keys.length,
    version: sent.version,
    pid: process.pid,
  });
});

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
  if (building.has(key) || shared.claimedElsewhere(key)) return;
  building.add(key);
  shared.claim(key);
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
      const keys = rows.map((row) => order.columns.map((c) => row[c.name] as SortKey[number]));
      remembered.set(key, { version, keys });
      log("info", "remembered positions in a sort order", { table, order: order.name, positions: rows.length, version, pid: process.pid });
      const kinds = order.columns.map((c) => c.kind);
      const sent = keys.map((k) => k.map((value) => (value instanceof Date ? value.toISOString() : value)));
      shared.send(key, { table, order: order.name, version, kinds, keys: sent });
    })
    .catch((error: unknown) => {
      shared.release(key);
      log("warn", "remembering positions in a sort order failed; deep pages use OFFSET", {
        reason: error instanceof Error ? error.message : String(error),
      });
    })
    .finally(() => building.delete(key));
}
