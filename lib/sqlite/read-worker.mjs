// One SQLite reader, in a worker thread: it opens the database read-only, says { ready }, then
// answers each job with { rows } or { error }, keeping its prepared statements. A job is
// { sql, values, kinds }, a plain read, its rows decoded as `kinds` says (columns.mjs);
// { sql, values, ranked }, a search's matches with its page
// sorted by a table's ranks (below); { sql, values, ranks }, reading those ranks; or
// { sql, values, bits }, reading a word's rows into its bits. A message { install } gives it
// ranks or word bits another reader read, and has no answer. Plain JavaScript, loaded
// by path at run time, so it runs the same under Next.js and the CLI.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { LRUCache } from "lru-cache";
import { decodeRows } from "./columns.mjs";

const MAX_STATEMENTS = 500;
const connection = new Database(workerData.file, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
// This connection only ever reads; refuse anything else outright.
connection.pragma("query_only = ON");
// Pages of the mapped part of the file are read in place from the kernel's page cache, not
// copied into SQLite's own cache by a read() each: reading a thousand scattered rows took half
// the time at a million posts (README, SQLITE_MMAP_MB).
connection.pragma(`mmap_size = ${Number(workerData.mmapBytes) || 0}`);
/** Prepared statements by text, the least recently used dropped past MAX_STATEMENTS. */
const statements = new LRUCache({ max: MAX_STATEMENTS });
/**
 * A sort order's ranks (lib/sqlite/ranks.ts), by name, as of one table version: `order` lists
 * the rows' keys (seq) in the sort order, `rank[seq]` is a row's place in it, -1 for no row.
 * Also a table's word bits (lib/sqlite/word-bits.ts), by name: `bits` holds, for each word in
 * turn, `stride` 32-bit words, one bit a seq, set where the row holds the word. Shared memory,
 * written once by the reader that read them, then only read.
 */
const ranks = new Map();
// Reads may come now: their time budgets start (read-pool.ts).
parentPort.postMessage({ ready: true });

/** The kept statement for `sql`, giving rows as objects, or each row's first column (`pluck`). */
function statementFor(sql, mode = "rows") {
  const key = mode === "rows" ? sql : `${mode}\u0000${sql}`;
  let statement = statements.get(key);
  if (!statement) {
    statement = connection.prepare(sql);
    if (mode === "pluck") statement.pluck(true);
    statements.set(key, statement);
  }
  return statement;
}

/**
 * `ranks`: { highest, version } are statements for the table's highest seq and its version;
 * `sql` lists its seqs in the sort order. All in one read transaction, so the ranks are those
 * of the version given with them. Rows are streamed into the shared arrays, never held as
 * objects: a million of them would take tens of megabytes. None (`order` null) where the
 * highest seq is past `most`.
 */
const readRanks = connection.transaction((sql, values, { highest, version, most }) => {
  const top = statementFor(highest, "pluck").get() ?? 0;
  const at = statementFor(version, "pluck").get();
  if (top > most) return { version: at, rows: 0, order: null, rank: null };
  const size = top + 1;
  const order = new Int32Array(new SharedArrayBuffer(4 * size));
  const rank = new Int32Array(new SharedArrayBuffer(4 * size)).fill(-1);
  let rows = 0;
  for (const seq of statementFor(sql, "pluck").iterate(...values)) {
    order[rows] = seq;
    rank[seq] = rows++;
  }
  return { version: at, rows, order, rank };
});

/**
 * `bits`: { into, version }: sets the bit of each seq `sql` lists (a word's rows, as one row
 * holding them all as text, separated by commas: group_concat) in `into`, a view of shared
 * memory one bit a seq, in one read transaction with the table's version; says `overflow` for a
 * seq past its end (a row newer than the highest seq it was sized for). The seqs as one text,
 * parsed here, took a quarter of the time of stepping through them a row each (at a million
 * posts, a word in 489,244 of them: 40-81 ms against 184-340).
 */
const readBits = connection.transaction((sql, values, { into, version }) => {
  const at = statementFor(version, "pluck").get();
  const listed = statementFor(sql, "pluck").get(...values) ?? "";
  let rows = 0;
  let seq = 0;
  for (let i = 0; i <= listed.length; i++) {
    const c = i < listed.length ? listed.charCodeAt(i) : 44;
    if (c !== 44) {
      seq = 10 * seq + c - 48;
      continue;
    }
    if (i === 0) break;
    if (seq >>> 5 >= into.length) return { version: at, rows, overflow: true };
    into[seq >>> 5] |= 1 << (seq & 31);
    rows++;
    seq = 0;
  }
  return { version: at, rows, overflow: false };
});

/** How many bits of a 32-bit word are set. */
function popcount(word) {
  let n = word - ((word >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * `terms` (each a list of places in `bits` of which a row holds one) laid out for the loops
 * below: each word's offset in the bits, and where each term's words start among them. Plain
 * indexed loops over these took a third to a fifth of the time of loops over the lists with
 * iterators and callbacks (on random bits of a million rows, 0.25-0.3 ms against 0.66-0.9 to
 * count two words).
 */
function laidOut(bits, terms) {
  const offsets = [];
  const starts = [0];
  for (const any of terms) {
    for (const place of any) offsets.push(place * bits.stride);
    starts.push(offsets.length);
  }
  return { bits: bits.bits, stride: bits.stride, offsets: Int32Array.from(offsets), starts: Int32Array.from(starts), terms: terms.length };
}

/** The bits of the 32 rows from seq 32 * `word` on that hold a word of each term. */
function bothAt(laid, word) {
  const { bits, offsets, starts } = laid;
  let both = -1;
  for (let term = 0; term < laid.terms && both; term++) {
    let one = 0;
    for (let i = starts[term]; i < starts[term + 1]; i++) one |= bits[offsets[i] + word];
    both &= one;
  }
  return both;
}

/** Whether row `seq` holds a word of each term. */
function holdsEach(laid, seq) {
  const { bits, offsets, starts } = laid;
  const word = seq >>> 5;
  if (word >= laid.stride) return false;
  const bit = 1 << (seq & 31);
  for (let term = 0; term < laid.terms; term++) {
    let i = starts[term];
    const end = starts[term + 1];
    while (i < end && !(bits[offsets[i] + word] & bit)) i++;
    if (i === end) return false;
  }
  return true;
}

/** How many rows hold a word of each term, counted by popcount up to `bound`; past it, `bound` + 1. */
function countByBits(laid, bound) {
  let count = 0;
  for (let word = 0; word < laid.stride; word++) {
    const both = bothAt(laid, word);
    if (!both) continue;
    count += popcount(both);
    if (count > bound) return bound + 1;
  }
  return count;
}

/** The seqs of the rows holding a word of each term, in seq order. */
function seqsByBits(laid) {
  const seqs = [];
  for (let word = 0; word < laid.stride; word++) {
    for (let both = bothAt(laid, word); both; both &= both - 1) seqs.push(32 * word + 31 - Math.clz32(both & -both));
  }
  return seqs;
}

/**
 * The page from `offset`, `limit` long, of the rows holding a word of each term, found by
 * walking the sort order's ranks (`held`) from the top and testing each row's bits.
 */
function walkedPage(laid, held, offset, limit) {
  const page = [];
  let skipped = 0;
  for (let place = 0; place < held.rows && page.length < limit; place++) {
    const seq = held.order[place];
    if (!holdsEach(laid, seq)) continue;
    if (skipped < offset) skipped++;
    else page.push(seq);
  }
  return page;
}

/**
 * Whether a page ending at match `end` of `count` is found sooner by walking the order (about
 * `end` of every `count` rows is a match, each row a test of a few bits) than by sorting every
 * match by its rank (gathering, looking up and sorting each one, about twice a row's test).
 */
const walkFinds = (end, count, rows) => end * rows <= 2 * count * count;

/** The page from `offset`, `limit` long, of `seqs` in the order of the ranks `held`; null where a seq has no rank. */
function sortedPage(held, seqs, offset, limit) {
  const places = new Int32Array(seqs.length);
  for (let i = 0; i < seqs.length; i++) {
    const seq = seqs[i];
    const place = seq < held.rank.length ? held.rank[seq] : -1;
    if (place < 0) return null;
    places[i] = place;
  }
  places.sort();
  return Array.from(places.subarray(offset, offset + limit), (place) => held.order[place]);
}

/**
 * A search's matches (`sql` gives their seqs, at most `bound` + 1 of them), counted, with the
 * table's version (`version`, read in the same read transaction); and, when there are at most
 * `bound` and the ranks named are of that version, the seqs of the page from `offset`, `limit`
 * long, in the sort order, with the page's rows where `rows` gives their statement (its
 * `values`, then the seqs as a JSON array bound to @seqs). `seqs` and `rows` are null where the
 * ranks cannot say (none, or of another version): the count still holds. (The version read as
 * a column of every row took twice as long as the matches alone: 6.5 ms against 2.9 for 10,001
 * of them. The rows read in the same job spare a second one, 0.1-0.15 ms of both threads.)
 *
 * `held`: the matches are narrowed to those holding a word of each of its `terms`, by the word
 * bits named. `whole`: nothing is listed (`sql` is not run); the matches are the rows holding a
 * word of each of its `terms`, found by the word bits alone, and their page is found however
 * many they are: within the bound by walking the order where that is sooner (walkFinds),
 * otherwise by sorting them by their ranks; past it, by walking the order. With
 * either, bits or ranks of another version than the table's (or than the one the places were
 * taken from) give `stale`, and no count.
 */
const rankedPage = connection.transaction((sql, values, { name, offset, limit, bound, version: versionSql, rows, held: narrowed, whole }) => {
  const version = statementFor(versionSql, "pluck").get() ?? null;
  const stale = { count: null, version, seqs: null, rows: null, stale: true };
  const shown = (page) => (rows && page.length ? decodeRows(statementFor(rows.sql).all(...rows.values, { seqs: JSON.stringify(page) }), rows.kinds ?? []) : []);
  const by = whole ?? narrowed;
  // The words' places are those of the bits of the version asked for, which must be the table's now.
  const bits = by && ranks.get(by.name);
  if (by && (!bits || bits.version !== version || bits.version !== by.version)) return stale;
  const held = ranks.get(name);
  const heldNow = held && held.version === version;
  if (whole) {
    if (!heldNow) return stale;
    // Past the bound the count is not known, and the page is walked however deep it is.
    const laid = laidOut(bits, whole.terms);
    const count = countByBits(laid, bound);
    const walked = count > bound || walkFinds(offset + limit, count, held.rows);
    const page = walked ? walkedPage(laid, held, offset, limit) : sortedPage(held, seqsByBits(laid), offset, limit);
    if (!page) return stale;
    return { count, version, seqs: page, rows: rows ? shown(page) : null };
  }
  let seqs = statementFor(sql, "pluck").all(...values);
  // The other terms, by the bits of their words: a match holds one word of each.
  if (narrowed) {
    const laid = laidOut(bits, narrowed.terms);
    seqs = seqs.filter((seq) => holdsEach(laid, seq));
  }
  const count = seqs.length;
  const none = { count, version, seqs: null, rows: null };
  if (count > bound || (count && !heldNow)) return none;
  const page = count ? sortedPage(held, seqs, offset, limit) : [];
  if (!page) return none;
  return { count, version, seqs: page, rows: rows ? shown(page) : null };
});

parentPort.on("message", ({ sql, values, kinds, ranked, ranks: reading, bits, install }) => {
  if (install) {
    ranks.set(install.name, install);
    return;
  }
  try {
    if (reading) parentPort.postMessage({ rows: [readRanks(sql, values, reading)] });
    else if (bits) parentPort.postMessage({ rows: [readBits(sql, values, bits)] });
    else if (ranked) parentPort.postMessage({ rows: [rankedPage(sql, values, ranked)] });
    else parentPort.postMessage({ rows: decodeRows(statementFor(sql).all(...values), kinds ?? []) });
  } catch (error) {
    parentPort.postMessage({ error: { message: String(error?.message ?? error), code: error?.code } });
  }
});
