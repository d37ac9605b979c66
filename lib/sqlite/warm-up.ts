import "server-only";
import { RANKED as CHANGELOG_RANKED } from "../changelogs/queries";
import { dialect, type SearchTable } from "../dialect";
import { log } from "../log";
import { RANKED_ORDERS as POST_RANKED } from "../posts/queries";
import { versionOf } from "../totals";
import { vocabularyAt, wordBitsOf } from "../vocabulary";
import { type RankedOrder, ranksAt } from "./ranks";

// A process that has just started holds none of SQLite's search aids: the indexes' vocabularies
// (lib/vocabulary.ts), the commonest words' bits (word-bits.ts) and the sort orders' ranks
// (ranks.ts). Each is read in the background when a search first asks for it, and that search,
// and the ones beside it until the read is done, are answered without it: at a million posts,
// 30 s after a start with no request before, the first search of one- and two-letter terms took
// 760 ms (every row tested), a term matching nothing 550, a rare number 891, where they take
// milliseconds once the aids are read. So each process asks for them from its start, as a
// search would, one at a time, so that while one is read the other reader serves requests
// (asked for together, as searches do, three reads held both readers for the first seconds).
// The reads are the searches' own, within the same share of a reader's time. Only for the
// tables as they were at the start: once a table is written to, its aids are asked for by the
// searches that need them, as before.

/** How often the aid being read is looked at. */
const STEP_MS = 500;
/** An aid is asked for at most this long, then passed over (a read that keeps failing, or nothing to hold). */
const AID_MS = 30_000;

interface Aid {
  table: SearchTable;
  name: string;
  /** Whether the aid is held at `version`; if not, it is asked for (read in the background). */
  held(version: number): boolean;
}

const SEARCHED: readonly { table: SearchTable; orders: readonly RankedOrder[] }[] = [
  { table: "Post", orders: POST_RANKED },
  { table: "Changelog", orders: [CHANGELOG_RANKED] },
];

/**
 * Each table's aids in the order they are asked for. The bits are of the vocabulary's commonest
 * words: with no vocabulary by then (it was passed over), or no words in it, there are none to read.
 */
const AIDS: readonly Aid[] = SEARCHED.flatMap(({ table, orders }): Aid[] => [
  { table, name: `${table} vocabulary`, held: (version) => vocabularyAt(table, version) !== undefined },
  ...orders.map((order): Aid => ({ table, name: `${table} ranks ${order.name}`, held: (version) => ranksAt(order, version) })),
  {
    table,
    name: `${table} word bits`,
    held: (version) => {
      const vocabulary = vocabularyAt(table, version);
      return !vocabulary?.words?.length || wordBitsOf(table, vocabulary) !== null;
    },
  },
]);

/** Reads the search aids from the start (SQLite; PostgreSQL keeps none), in the background. */
export function warmUpSearch(): void {
  if (dialect.engine !== "sqlite") return;
  const started = Date.now();
  const atStart = new Map<SearchTable, number>();
  const changed = new Set<SearchTable>();
  const passedOver: string[] = [];
  let next = 0;
  let askedAt: number | undefined;
  const step = async () => {
    if (!atStart.size) for (const { table } of SEARCHED) atStart.set(table, await versionOf(table));
    for (let aid = AIDS[next]; aid; aid = AIDS[next]) {
      const version = await versionOf(aid.table);
      if (version !== atStart.get(aid.table)) changed.add(aid.table);
      else if (!aid.held(version)) {
        askedAt ??= Date.now();
        if (Date.now() - askedAt < AID_MS) {
          setTimeout(() => void step().catch(failed), STEP_MS).unref();
          return;
        }
        passedOver.push(aid.name);
      }
      next++;
      askedAt = undefined;
    }
    const versions = Object.fromEntries([...atStart].filter(([table]) => !changed.has(table)));
    const left = { ...(passedOver.length && { passedOver }), ...(changed.size && { changed: [...changed] }) };
    log("info", "read the search aids after the start", { ms: Date.now() - started, versions, ...left, pid: process.pid });
  };
  const failed = (error: unknown) =>
    log("warn", "reading the search aids after the start failed; searches ask for them when they need them", {
      reason: error instanceof Error ? error.message : String(error),
    });
  void step().catch(failed);
}
