import "server-only";
import { sqliteReaders } from "../db";
import { filterKey, type KeyKind, phrase, type SearchTable } from "../dialect";
import { log } from "../log";
import { bitsName, versionSql } from "./ranks";

// The commonest words' rows as bits (SQLite), held by every reader in shared memory beside the
// sort orders' ranks (lib/sqlite/ranks.ts). A rare term with a common one was listed by FTS5
// from the word index as the intersection of both words' lists, and FTS5 moves the common word's
// list to each of the rare one's rows by stepping through that list entry by entry: at a million
// posts "106" (958 posts) was listed in 0.26 ms, "106" AND "this" (489,244 posts) in 1.96, and
// that stepping was about half of the read threads' time under the rare numbers' load. With the
// bits, the rare term alone is listed, and each of its rows is tested against the bits of the
// other terms' words, a few nanoseconds a test. A search whose terms all lie in held words is
// not listed at all (ranks.ts's matchesByBits): its rows are the AND of its terms' bits (each
// the OR of its words'), with the bits of its board's and status's keys where it has those
// filters, counted by popcount, and its page is found through the order's ranks. The
// changelogs' words are held the same way, with their status's and labels' keys.
//
// The bits hold for their table version only, as the ranks do: any write that can change a
// search moves it, and a search at another version is listed as before while they are read
// again in the background, a word a job (its rows as one text, which the reader parses: a word
// in 489,244 of a million posts in 40-81 ms, against 184-340 stepping through them a row each),
// at most BUILD_SHARE of a reader's time. The words are the commonest of the word
// index's vocabulary at that version (lib/vocabulary.ts) and the filters' keys (FILTER_KEYS),
// those in one row in 64 or more, as many as fit BITS_BYTES and BITS_WORDS. Each process reads
// its own.

/** At most this share of a reader's time goes to reading word bits, however often the table changes. */
const BUILD_SHARE = 0.1;
/**
 * The bits of a process's words take at most this much memory: at a million posts 125 KB a
 * word, so 192 words (the seed's million posts have 154 words in one post in 64 or more).
 */
export const BITS_BYTES = 24 * 1024 * 1024;
/** At most this many words are held, however few rows the table has. */
export const BITS_WORDS = 256;

type Table = SearchTable;

/**
 * The filters whose keys' rows are held beside the words: a post's board and status (a pair is
 * both), a changelog's status and labels.
 */
const FILTER_KEYS = { Post: ["board", "status"], Changelog: ["status", "label"] } as const satisfies Record<Table, readonly KeyKind[]>;

interface Held {
  /** The version the readers' bits are of, and each word's place in them. */
  version?: number;
  places?: ReadonlyMap<string, number>;
  building: boolean;
  /** When the bits may next be read. */
  nextBuild: number;
}

// On globalThis, as the ranks are: every bundle of the app in a process shares one read pool.
const slot = globalThis as unknown as { feedbackWordBits?: Map<Table, Held> };
slot.feedbackWordBits ??= new Map();
const tables = slot.feedbackWordBits;

const heldOf = (table: Table): Held => {
  const held = tables.get(table) ?? { building: false, nextBuild: 0 };
  tables.set(table, held);
  return held;
};

/**
 * Which words the readers hold the bits of at `version`, each with its place in them; null
 * where they hold none of that version, and then they are read in the background (unless a read
 * is under way or was too recent), the commonest of `words` (a vocabulary's, of that version).
 */
export function wordBitsAt(table: Table, version: number, words: readonly { word: string; doc: number }[]): ReadonlyMap<string, number> | null {
  const held = heldOf(table);
  if (held.version === version && held.places) return held.places;
  if (!held.building && Date.now() >= held.nextBuild && words.length) void build(table, version, words, held);
  return null;
}

/** Reads the bits of the commonest `words` at `version`, a word a job, and gives them to every reader. */
async function build(table: Table, version: number, words: readonly { word: string; doc: number }[], held: Held): Promise<void> {
  held.building = true;
  const started = Date.now();
  const { pool } = sqliteReaders();
  try {
    const [highest] = (await pool.run(`SELECT max("seq") AS "seq" FROM "${table}"`, [])) as { seq: number | null }[];
    // 32-bit words a word's bits take: one bit for each seq up to the highest (and room past it for none).
    const stride = ((highest?.seq ?? 0) >>> 5) + 1;
    // The filters' keys (FILTER_KEYS) are words of the index too (dialect.ts's filterKey), so
    // that a search with those filters is found by the bits as well. Their rows are counted
    // through the index by a range of words, reading only those words' lists.
    const keys = await Promise.all(
      FILTER_KEYS[table].map((kind) => {
        const prefix = filterKey(kind, "");
        return pool.run(`SELECT "term" AS "word", "doc" FROM "${table}WordsVocab" WHERE "term" > ? AND "term" < ?`, [prefix, `${prefix}g`]);
      }),
    );
    // A word in fewer than one row in 64 (a rare number) has a list in the index of a few bytes a
    // row, about as long as its bits or shorter, and is found through the index as fast.
    const chosen = [...words, ...(keys.flat() as { word: string; doc: number }[])]
      .filter(({ doc }) => doc >= (32 * stride) / 64)
      .sort((a, b) => b.doc - a.doc || (a.word < b.word ? -1 : 1))
      .slice(0, Math.min(BITS_WORDS, Math.floor(BITS_BYTES / (4 * stride))));
    if (!chosen.length) return;
    const memory = new SharedArrayBuffer(4 * stride * chosen.length);
    let lastRead = 0;
    // A word's rows as one text (read-worker.mjs's readBits parses it).
    const rowsOf = `SELECT group_concat(rowid) FROM "${table}Words" WHERE "${table}Words" MATCH ?`;
    for (const [place, { word }] of chosen.entries()) {
      // Each word's read is followed by a rest as long, so that while the bits are read a reader
      // still gives half its time to the requests (reading them all took one of two readers for
      // 10-20 s under the rare numbers' load, and those runs lost a fifth of their answers).
      if (place) await new Promise((resolve) => setTimeout(resolve, lastRead).unref());
      const wordStarted = Date.now();
      const into = new Int32Array(memory, 4 * stride * place, stride);
      const [read] = (await pool.run(rowsOf, [phrase(word)], { bits: { into, version: versionSql(table) } })) as {
        version: number | null;
        overflow: boolean;
      }[];
      // The table moved on: these bits would be out of date before they were used.
      if (!read || read.version !== version || read.overflow) {
        log("info", "the table changed while its commonest words' rows were read; they are read again later", { table });
        return;
      }
      lastRead = Date.now() - wordStarted;
    }
    pool.install(bitsName(table), { version, stride, bits: new Int32Array(memory) });
    held.version = version;
    held.places = new Map(chosen.map(({ word }, place) => [word, place]));
    log("info", "read the commonest words' rows", { table, words: chosen.length, version, ms: Date.now() - started, pid: process.pid });
  } catch (error) {
    log("warn", "reading the commonest words' rows failed; searches list every term through the word index", {
      table,
      reason: error instanceof Error ? error.message : String(error),
    });
  } finally {
    held.nextBuild = Date.now() + (Date.now() - started) / BUILD_SHARE;
    held.building = false;
  }
}
