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
// the first search of one- and two-letter terms after a start took 2.7 s (every row tested)
// and other first searches 340-430 ms, where they take milliseconds once the aids are read
// (17 s after a start, idle). So each process asks for them from its start, as a search would,
// every STEP_MS until it holds them all. The reads are the searches' own, on the readers and
// within the same share of their time. Only for the tables as they were at the start: once a
// table is written to, its aids are asked for by the searches that need them, as before, and
// the asking stops after WARM_UP_MS whatever is held by then (a read that keeps failing).

/** How often the aids not held yet are asked for. */
const STEP_MS = 1_000;
/** The asking stops this long after the start, whatever is held by then. */
const WARM_UP_MS = 60_000;

const SEARCHED: readonly { table: SearchTable; orders: readonly RankedOrder[] }[] = [
  { table: "Post", orders: POST_RANKED },
  { table: "Changelog", orders: [CHANGELOG_RANKED] },
];

/**
 * The aids not held at their tables' versions of the start (`atStart`, filled on the first
 * call), by name; each is asked for (read in the background). A table at another version now
 * is left out.
 */
async function missing(atStart: Map<SearchTable, number>): Promise<string[]> {
  const names: string[] = [];
  for (const { table, orders } of SEARCHED) {
    const version = await versionOf(table);
    if (!atStart.has(table)) atStart.set(table, version);
    if (atStart.get(table) !== version) continue;
    const vocabulary = vocabularyAt(table, version);
    if (!vocabulary) names.push(`${table} vocabulary`);
    // The bits are of the vocabulary's commonest words, so they are asked for once it is read.
    else if (vocabulary.words?.length && !wordBitsOf(table, vocabulary)) names.push(`${table} word bits`);
    for (const order of orders) if (!ranksAt(order, version)) names.push(`${table} ranks ${order.name}`);
  }
  return names;
}

/** Reads the search aids from the start (SQLite; PostgreSQL keeps none), in the background. */
export function warmUpSearch(): void {
  if (dialect.engine !== "sqlite") return;
  const started = Date.now();
  const atStart = new Map<SearchTable, number>();
  const step = async () => {
    const left = await missing(atStart).catch((error: unknown) => {
      log("warn", "asking for the search aids after the start failed; searches ask for them when they need them", {
        reason: error instanceof Error ? error.message : String(error),
      });
      return null;
    });
    if (!left) return;
    const ms = Date.now() - started;
    if (!left.length) log("info", "read the search aids after the start", { ms, versions: Object.fromEntries(atStart), pid: process.pid });
    else if (ms >= WARM_UP_MS) log("info", "search aids not all read after the start; searches ask for them when they need them", { missing: left, ms, pid: process.pid });
    else setTimeout(step, STEP_MS).unref();
  };
  void step();
}
