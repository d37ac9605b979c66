import "server-only";
import { Prisma, sqliteReaders } from "../db";
import { log } from "../log";
import type { RowType } from "../rows";
import type { HeldBits } from "./read-pool";

// A sort order's ranks (SQLite): each row's place in the order, as of one table version, held
// by every reader in shared memory (read-worker.mjs). With them, a search that the word or
// trigram index answers by itself (Dialect.matches) is counted and paged by one listing of its
// matches, which reads no row of the table: the index lists the matches' seqs, the reader looks
// each one up in the ranks, sorts them and takes the page's. Without them, a page that is not
// walked reads each match's row for its sort keys: at a million posts, 1.4 ms for a rare
// number's 1,000 matches, against 0.2 through the ranks; and a rare number with a word of its
// sentence was counted by testing the word on each of the number's rows (3.1 ms a request on
// average, one at a time), where the word index lists the rows of both (1.6 ms).
//
// The ranks hold for their version only: any write that can change an order moves it
// (lib/totals.ts), and a search at another version is read as before while the ranks are read
// again in the background, one order at a time and at most BUILD_SHARE of a reader's time (at
// a million posts 0.3-0.4 s an order warm, 1.1-1.4 s cold or beside a load). A table that
// changes every few seconds keeps its ranks out of date, as it does its vocabulary
// (lib/vocabulary.ts). Each process reads its own, since shared memory does not cross
// processes: 8 bytes a row for each order (posts have two orders, changelogs one).

type Table = "Post" | "Changelog";

/** At most this share of a reader's time goes to reading ranks, however often the table changes. */
const BUILD_SHARE = 0.1;
/**
 * No ranks for a table whose highest seq is past this: 64 MB a process for the two orders of
 * posts, each read in about four times the 0.3-0.4 s it takes at a million. The table's
 * searches read their rows, as without ranks. (The changelogs' one order, at 50,000 of them
 * beside a million posts, is read in 34 ms.)
 */
export const MOST_RANKED = 4_000_000;
/** How long a table past MOST_RANKED waits before its size is looked at again. */
const TOO_MANY_WAIT_MS = 10 * 60_000;

interface Held {
  /** The version each order's ranks are of, by name ("Post:latest"), in the readers. */
  versions: Map<string, number>;
  /** Tables found past MOST_RANKED (said once in the log). */
  tooMany: Set<Table>;
  building: Set<string>;
  /** When each order may next be read. */
  nextBuild: Map<string, number>;
}

// On globalThis, as the vocabularies are: every bundle of the app in a process shares one read pool.
const slot = globalThis as unknown as { feedbackRanks?: Held };
slot.feedbackRanks ??= { versions: new Map(), tooMany: new Set(), building: new Set(), nextBuild: new Map() };
const { versions, tooMany, building, nextBuild } = slot.feedbackRanks;

/** A sort order of a table: its name and its ORDER BY list on alias t. */
export interface RankedOrder {
  table: Table;
  name: string;
  orderBy: Prisma.Sql;
}

const keyOf = (order: RankedOrder) => `${order.table}:${order.name}`;

/**
 * Whether the readers hold the order's ranks at `version`. If not, they are read in the
 * background (unless a read is under way or was too recent), for the searches after this one.
 */
export function ranksAt(order: RankedOrder, version: number | undefined): boolean {
  const key = keyOf(order);
  if (version !== undefined && versions.get(key) === version) return true;
  remember(order);
  return false;
}

/**
 * A search's matches counted, and its page's seqs in the order where the ranks gave them, with
 * its rows where they were asked for (null where not).
 */
export interface RankedMatches<T = never> {
  count: number;
  /** The table's version the matches were listed at (null only for a table with no version row). */
  version: number | null;
  seqs: number[] | null;
  rows: T[] | null;
}

/** The statement for a table's version, as a reader runs it beside a listing (read-worker.mjs). */
export const versionSql = (table: Table) => `SELECT "version" FROM "DataVersion" WHERE "name" = '${table}'`;

/** The readers' name for a table's word bits (lib/sqlite/word-bits.ts, read-worker.mjs). */
export const bitsName = (table: Table) => `${table}:bits`;

/** The seqs of a ranked page, as its rows' statement reads them: `t."seq" IN (${PAGE_SEQS})`. */
export const PAGE_SEQS = Prisma.raw("SELECT value FROM json_each(@seqs)");

/** The statement of a ranked page's rows: it selects the rows whose seq is in PAGE_SEQS, in the order. */
export interface PageRows<T> {
  sql: Prisma.Sql;
  type: RowType<T>;
}

/** A ranked listing's job (read-worker.mjs), and the page's rows (decoded by the reader) from its answer. */
function rankedReader<T>(order: RankedOrder, offset: number, limit: number, bound: number, rows: PageRows<T> | undefined) {
  const { pool, values } = sqliteReaders();
  const ranked = {
    name: keyOf(order),
    offset,
    limit,
    bound,
    version: versionSql(order.table),
    rows: rows && { sql: rows.sql.sql, values: values(rows.sql), kinds: rows.type.kinds },
  };
  const run = async (sql: Prisma.Sql, by: { held?: HeldBits; whole?: HeldBits }) => {
    const [found] = (await pool.run(sql.sql, values(sql), { ranked: { ...ranked, ...by } })) as (RankedMatches<unknown> & { stale?: true })[];
    if (!found) throw new Error("a ranked read gave no answer");
    return found;
  };
  // As many rows as seqs, always, in one read transaction; the check costs nothing. The reader
  // decoded them (lib/sqlite/columns.mjs).
  const withRows = (found: RankedMatches<unknown>): RankedMatches<T> => {
    const shown = rows && found.rows && found.seqs && found.rows.length === found.seqs.length ? (found.rows as T[]) : null;
    return { ...found, rows: shown };
  };
  return { run, withRows };
}

/**
 * The matches of `matches` (rows with "seq", Dialect.matches), at most `bound` + 1 of them,
 * counted in one read transaction with the table's version; when there are at most `bound` and
 * the readers' ranks are of that version, the seqs of the page from `offset`, `limit` long, and
 * with `rows`, those rows, read in the same transaction (null where the seqs are).
 */
export async function rankedMatches<T = never>(
  order: RankedOrder,
  matches: Prisma.Sql,
  offset: number,
  limit: number,
  bound: number,
  rows?: PageRows<T>,
  narrowed?: Narrowed,
): Promise<RankedMatches<T>> {
  const { run, withRows } = rankedReader(order, offset, limit, bound, rows);
  const listed = (matches: Prisma.Sql) => Prisma.sql`${matches} LIMIT ${bound + 1}`;
  // The word bits were of another version by the time the reader listed: list every term.
  let found = narrowed && (await run(listed(narrowed.matches), { held: heldBits(order.table, narrowed) }));
  if (!found || found.stale) found = await run(listed(matches), {});
  return withRows(found);
}

/**
 * A search found by the word bits alone (lib/sqlite/word-bits.ts): the rows holding a word of
 * each of `bits.terms`, counted up to `bound` + 1, with the page from `offset`, `limit` long, in
 * the order, and its rows, whatever the count; null where the bits or the ranks were of
 * another version than the table's by the time the reader looked (the search is then listed
 * as before). Nothing is read from the index: at a million posts, a pair of common words was
 * listed by FTS5 stepping through both words' lists, up to the bound, and past it its page was
 * walked in the table.
 */
export async function matchesByBits<T = never>(
  order: RankedOrder,
  bits: Omit<Narrowed, "matches">,
  offset: number,
  limit: number,
  bound: number,
  rows?: PageRows<T>,
): Promise<RankedMatches<T> | null> {
  const { run, withRows } = rankedReader(order, offset, limit, bound, rows);
  const found = await run(Prisma.empty, { whole: heldBits(order.table, bits) });
  return found.stale ? null : withRows(found);
}

const heldBits = (table: Table, { version, terms }: Omit<Narrowed, "matches">): HeldBits => ({ name: bitsName(table), version, terms });

/**
 * A search listed by one of its terms alone, a rare one (`matches`, its rows), and narrowed by
 * the word bits (lib/sqlite/word-bits.ts) to the rows holding one word of each of `terms`, each
 * a list of its words' places in the bits of `version` (bits read for another version hold
 * other words in other places). At most RARE_TERM rows are listed, so the bound never cuts the
 * listing short of a match.
 */
export interface Narrowed {
  matches: Prisma.Sql;
  version: number;
  terms: number[][];
}

/** Reads the order's ranks on a reader and gives them to all of them. */
function remember(order: RankedOrder): void {
  const key = keyOf(order);
  // One read at a time, of either order: each holds a reader for its whole length (0.3-0.4 s
  // warm at a million posts), and a process has two readers by default.
  if (building.size || Date.now() < (nextBuild.get(key) ?? 0)) return;
  const { pool } = sqliteReaders();
  building.add(key);
  const started = Date.now();
  const table = Prisma.raw(`"${order.table}"`);
  const seqs = Prisma.sql`SELECT t."seq" FROM ${table} t ORDER BY ${order.orderBy}`;
  const reading = {
    highest: `SELECT max("seq") FROM "${order.table}"`,
    version: versionSql(order.table),
    most: MOST_RANKED,
  };
  let wait = 0;
  pool
    .run(seqs.sql, [], { ranks: reading })
    .then((rows) => {
      const [ranks] = rows as { version: number | null; rows: number; order: Int32Array | null }[];
      if (!ranks || ranks.version === null) return;
      if (!ranks.order) {
        wait = TOO_MANY_WAIT_MS;
        if (!tooMany.has(order.table)) log("warn", "too many rows to keep a sort order's ranks; their searches read their rows", { table: order.table, most: MOST_RANKED });
        tooMany.add(order.table);
        return;
      }
      pool.install(key, ranks);
      versions.set(key, ranks.version);
      log("info", "read a sort order's ranks", { table: order.table, order: order.name, rows: ranks.rows, version: ranks.version, ms: Date.now() - started, pid: process.pid });
    })
    .catch((error: unknown) => {
      log("warn", "reading a sort order's ranks failed; its searches read their rows", {
        table: order.table,
        order: order.name,
        reason: error instanceof Error ? error.message : String(error),
      });
    })
    .finally(() => {
      nextBuild.set(key, Date.now() + Math.max(wait, (Date.now() - started) / BUILD_SHARE));
      building.delete(key);
    });
}
