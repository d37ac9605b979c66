import "server-only";
import pLimit, { type LimitFunction } from "p-limit";
import { Prisma, read } from "./db";
import { type Dialect, dialect, type Expansions, isShort, type SearchTable, type WordFilters } from "./dialect";
import { withoutKeyCheck } from "./auth/key-check";
import { log } from "./log";
import { rowType } from "./rows";
import { dataVersionColumn, SEARCH_TOTAL_LIMIT, versionOf } from "./totals";
import { workerShare } from "./worker-share";
import { wordBitsAt } from "./sqlite/word-bits";

// One- and two-character search terms through the trigram index. No trigram index can look up
// a term shorter than a trigram, so such a search used to test every row (0.6 s at a million
// posts on SQLite). But a row holds a short term exactly when it holds a trigram containing it,
// or when its text is too short to have a trigram at all: "xj" is in every row that holds
// "axj", "xjo", ..., and in no other. The index's vocabulary (its list of trigrams, each with
// the number of rows holding it) therefore says which trigrams to ask for, and when no trigram
// contains the term, that no row holds it. Reading the vocabulary reads the whole index
// (3-6 s at a million posts), so it is read in the background, a chunk of terms a statement on
// the readers (vocabularyRead), and remembered for the table's data version (lib/totals.ts):
// any write that can change a search moves the version, and a search at another version tests
// rows as before while the vocabulary is read again.
//
// Longer terms, on SQLite, through the word index (the word_index migration) read in the same
// way. Its tokenizer cuts the text only at ASCII characters other than letters and
// digits, so a term made only of letters, digits and characters past ASCII lies inside one
// word of every text that holds it: its rows are exactly the rows of the words that contain
// it, and none when no word does. A word's list of rows carries no positions, where the
// trigram index compares the positions of every trigram of the term: at a million posts the
// bounded count of two common words took 3-5 ms through the words against 20-40 ms, and a
// common word's whole list of rows 1-6 ms against 12-46 ms.
//
// PostgreSQL has a word index too (its word_index migration), a GIN index of each text's words
// cut where SQLite cuts them; pg_trgm, like SQLite's trigram index, tests every candidate row.
// It lists no vocabulary, so the words each text holds are kept in a table as they are written,
// and a search looks its terms' words up there (wordsHolding).

/** A short term's trigrams are asked for only while they list at most this many rows between them. */
export const EXPAND_POSTINGS = 500_000;
/** ...and only while there are at most this many of them: each is a phrase of the index's query. */
export const EXPAND_TRIGRAMS = 100;
/** At most this share of a reader's time goes to reading vocabularies, however often the table changes. */
const BUILD_SHARE = 0.1;
/**
 * A vocabulary with more trigrams than this is not kept: turning it into the lookup below runs
 * on the event loop, about 30 ms for 50,000 (105 ms for 200,000) on this project's machine.
 * Text in one or two alphabets has far fewer: the seed's million posts hold about 1,300.
 */
const MAX_TRIGRAMS = 50_000;
/**
 * A word index with more words than this is not used: a term is looked for in every word, on
 * the event loop, about 10 ns a word. The seed's million posts hold 341 words.
 */
export const MAX_WORDS = 20_000;
/** A longer term is found through its words only while there are at most this many of them... */
export const EXPAND_WORDS = 64;
/**
 * FTS5 keeps at most this many characters of a word (measured: 16,384 of a longer run of
 * "é"), so a term past them in a longer word is not in the index. A vocabulary with a word this
 * long does not serve longer terms.
 */
const WORD_KEPT = 16_384;

/**
 * A term the word index can serve: no ASCII character but lowercase letters and digits, which
 * never split a word (an uppercase letter, which the index folds, is in no folded text).
 */
export const isWordTerm = (term: string) => !isShort(term) && /^[a-z0-9\u{80}-\u{10ffff}]+$/u.test(term);

/** The trigrams that contain a short term, and how many rows they list between them. */
interface Holders {
  trigrams: string[];
  postings: number;
}

export interface Vocabulary {
  version: number;
  /** How many trigrams the index holds. */
  trigrams: number;
  /** Every one- and two-character string that occurs in a trigram of the index. */
  holders: Map<string, Holders>;
  /** Every one- and two-character string of the texts too short to have a trigram. */
  inShortTexts: Set<string>;
  /** The word index's words, each with the number of rows holding it; null where it does not serve longer terms. */
  words: { word: string; doc: number }[] | null;
}

/**
 * A row of the vocabulary's statement: a trigram or (`word` set) a word with its row count, or
 * a short text, or only the version.
 */
export interface VocabularyRow {
  term: string | null;
  doc: number | null;
  text: string | null;
  word: boolean | null;
  dataVersion: number;
}

/** The one- and two-character substrings of a text. */
function shortSubstrings(text: string): Set<string> {
  const chars = [...text];
  const found = new Set<string>(chars);
  for (let i = 0; i + 1 < chars.length; i++) found.add(chars[i] + (chars[i + 1] as string));
  return found;
}

/**
 * The vocabulary from its statement's rows (all of one version); `withWords`: the statement
 * read a word index (vocabularyStatements), so a term in none of its words is in no row.
 */
export function vocabularyOf(rows: VocabularyRow[], withWords = false): Vocabulary {
  const holders = new Map<string, Holders>();
  const inShortTexts = new Set<string>();
  let words: Vocabulary["words"] = withWords ? [] : null;
  let trigrams = 0;
  for (const row of rows) {
    if (row.text !== null) for (const part of shortSubstrings(row.text)) inShortTexts.add(part);
    if (row.term === null) continue;
    if (row.word) {
      words?.push({ word: row.term, doc: row.doc ?? 0 });
      continue;
    }
    trigrams++;
    for (const part of shortSubstrings(row.term)) {
      const entry = holders.get(part);
      if (entry) {
        entry.trigrams.push(row.term);
        entry.postings += row.doc ?? 0;
      } else holders.set(part, { trigrams: [row.term], postings: row.doc ?? 0 });
    }
  }
  if (words && (words.length > MAX_WORDS || words.some(({ word }) => [...word].length >= WORD_KEPT))) words = null;
  return { version: rows[0]?.dataVersion ?? -1, trigrams, holders, inShortTexts, words };
}

/**
 * The terms of `terms` that the indexes can serve by other keys (none: no row holds the term).
 * A short term, by its trigrams: unless a text too short for a trigram holds it, which is left
 * to the row test, and so is a common one: its trigrams would list more rows than testing rows
 * costs (a walk of the sort order finds a common term's page in a few rows). A longer term of
 * word characters, by the words that contain it, while they are few and list at most
 * EXPAND_POSTINGS rows between them; otherwise the trigram index finds it (which was faster for
 * a part of many words, such as "ion"). `keyed`: the list has filters the word index holds as
 * keys beside the words (a board or a status: Dialect.matches), and a longer term goes by its
 * words however many rows they list, since the index then steps through the key's shorter list
 * beside them. The trigram index's list of such a term was built whole and each row of the
 * filter's index tested against it: at a million posts, each of the 12 terms of the seed's
 * words past EXPAND_POSTINGS ("the", "ion", "port", ...) with a board, a status or both was
 * counted in 62-66 ms on average that way, and in 2.6-5.0 ms by its words and the key.
 */
export function expansionsOf(vocabulary: Vocabulary, terms: string[], keyed = false): Map<string, string[]> {
  const expansions = new Map<string, string[]>();
  for (const term of terms.filter(isShort)) {
    if (vocabulary.inShortTexts.has(term)) continue;
    const holders = vocabulary.holders.get(term);
    if (!holders) expansions.set(term, []);
    else if (holders.postings <= EXPAND_POSTINGS && holders.trigrams.length <= EXPAND_TRIGRAMS) expansions.set(term, holders.trigrams);
  }
  for (const term of vocabulary.words ? terms.filter(isWordTerm) : []) {
    const holders = (vocabulary.words ?? []).filter(({ word }) => word.includes(term));
    const postings = holders.reduce((n, { doc }) => n + doc, 0);
    if (holders.length <= EXPAND_WORDS && (keyed || postings <= EXPAND_POSTINGS)) expansions.set(term, holders.map(({ word }) => word));
  }
  return expansions;
}

/**
 * Terms each statement of a vocabulary's read lists at most. Reading a vocabulary reads every
 * list of rows of the index, 3-6 s at a million posts. In one statement that held a reader as
 * long, and on a cold page cache it ran past the statement timeout (15 s), after which short
 * terms tested every row and longer ones went without their words until the next read, 150 s
 * later. By 64 terms a statement, the longest of a million posts' trigram reads took 0.3 s.
 */
export const VOCABULARY_CHUNK = 64;

/**
 * The statements that read a table's vocabulary (or null where the engine lists none): its
 * texts too short for a trigram, then its trigrams and its words, each a chunk of terms at a
 * time, in the order of the terms, after the last one read. Every statement also gives the
 * table's version, in a row of its own, so that a read can tell whether a write landed between
 * two of them.
 */
export interface VocabularyStatements {
  shortTexts: Prisma.Sql;
  trigrams: (after: string) => Prisma.Sql;
  words: ((after: string) => Prisma.Sql) | null;
  /** Terms a chunk lists at most: a shorter chunk is the last. */
  chunk: number;
}

export function vocabularyStatements(table: SearchTable, d: Dialect = dialect, chunk = VOCABULARY_CHUNK): VocabularyStatements | null {
  const trigrams = d.vocabulary(table);
  if (!trigrams) return null;
  const words = d.words(table);
  const version = dataVersionColumn(table);
  const onlyVersion = Prisma.sql`SELECT NULL, NULL, NULL, NULL, ${version}`;
  // fts5vocab reads only the terms past the first bound, in their order, and stops at the limit.
  const after = (terms: Prisma.Sql, word: number | null, term: string) => Prisma.sql`
    SELECT * FROM (SELECT v."term", v."doc", NULL AS "text", ${word} AS "word", ${version} FROM (${terms}) v
      WHERE v."term" > ${term} ORDER BY v."term" LIMIT ${chunk})
    UNION ALL ${onlyVersion}`;
  return {
    // A text of two characters takes at most 8 bytes: octet_length reads no text to rule out
    // the rest. SQLite finds them in a partial index of such texts (the short_texts migration).
    shortTexts: Prisma.sql`
      SELECT NULL AS "term", NULL AS "doc", t."searchText" AS "text", NULL AS "word", ${version} FROM ${Prisma.raw(`"${table}"`)} t
        WHERE octet_length(t."searchText") < 9 AND length(t."searchText") < 3
      UNION ALL ${onlyVersion}`,
    trigrams: (term) => after(trigrams, null, term),
    words: words && ((term) => after(words, 1, term)),
    chunk,
  };
}

/**
 * Reads a vocabulary, one statement at a time: yields each statement and takes its rows. Returns
 * the rows as vocabularyOf takes them, at most MAX_TRIGRAMS + 1 trigrams and MAX_WORDS + 1 words
 * (more are not kept); or null if the table's version moved between two statements, since the
 * vocabulary would be out of date before it was used.
 */
export function* vocabularyRead(statements: VocabularyStatements): Generator<Prisma.Sql, VocabularyRow[] | null, VocabularyRow[]> {
  const rows = yield statements.shortTexts;
  const version = rows[0]?.dataVersion;
  const kinds: [(after: string) => Prisma.Sql, number][] = [[statements.trigrams, MAX_TRIGRAMS]];
  if (statements.words) kinds.push([statements.words, MAX_WORDS]);
  for (const [next, most] of kinds) {
    let after = "";
    for (let read = 0; ; ) {
      const chunk = yield next(after);
      if (chunk.some((row) => row.dataVersion !== version)) return null;
      const terms = chunk.filter((row) => row.term !== null);
      rows.push(...terms);
      read += terms.length;
      if (terms.length < statements.chunk || read > most) break;
      after = terms.at(-1)?.term as string;
    }
  }
  return rows;
}

const vocabularyRow = rowType<VocabularyRow>({ doc: "int", word: "bool", dataVersion: "int" });

interface Vocabularies {
  remembered: Map<SearchTable, Vocabulary>;
  building: Set<SearchTable>;
  /** When each table may next be read, so that reading stays within BUILD_SHARE of a reader. */
  nextBuild: Map<SearchTable, number>;
}

// On globalThis, as the turns below: every bundle of the app in a process reads one vocabulary
// of a table. With WEB_CONCURRENCY workers, one of them reads it for all (lib/worker-share.ts)
// and sends the others its rows. Each read its own before: a read is 3.2 s of a reader at a
// million posts on SQLite, and in a benchmark run with two workers one worker's read ran past
// the statement timeout (15 s) under load, so that worker tested rows for every short term
// until its next read, 150 s later (the short terms' p99 was 2.9 s, against 0.18-0.22 s in
// three runs where no read failed). Why that read took so long was not found; sharing halves
// the reads that can.
const slot = globalThis as unknown as { feedbackVocabularies?: Vocabularies };
slot.feedbackVocabularies ??= { remembered: new Map(), building: new Set(), nextBuild: new Map() };
const { remembered, building, nextBuild } = slot.feedbackVocabularies;

const shared = workerShare<VocabularyRow[]>("vocabulary", (key, rows) => {
  const table = key as SearchTable;
  const vocabulary = vocabularyOf(rows, dialect.words(table) !== null);
  if ((remembered.get(table)?.version ?? -1) > vocabulary.version) return;
  remembered.set(table, vocabulary);
  const words = vocabulary.words?.length ?? "too many or too long to use";
  log("info", "search index's vocabulary taken from another worker", { table, trigrams: vocabulary.trigrams, words, version: vocabulary.version, pid: process.pid });
});

/** Reads a table's vocabulary in the background, unless a read is under way (here or in another worker) or was too recent. */
function build(table: SearchTable, statements: VocabularyStatements): void {
  if (building.has(table) || shared.claimedElsewhere(table) || Date.now() < (nextBuild.get(table) ?? 0)) return;
  building.add(table);
  shared.claim(table);
  const started = Date.now();
  readAll(vocabularyRead(statements))
    .then((rows) => {
      if (!rows) {
        shared.release(table);
        log("info", "the table changed while its search index's vocabulary was read; it is read again later", { table });
        return;
      }
      if (rows.reduce((n, row) => n + (row.term === null || row.word ? 0 : 1), 0) > MAX_TRIGRAMS) {
        remembered.delete(table);
        shared.release(table);
        log("warn", "the search index has too many trigrams to remember; short terms test every row", { table, limit: MAX_TRIGRAMS });
        return;
      }
      const vocabulary = vocabularyOf(rows, dialect.words(table) !== null);
      remembered.set(table, vocabulary);
      shared.send(table, rows);
      const words = vocabulary.words?.length ?? "too many or too long to use";
      log("info", "read the search index's vocabulary", { table, trigrams: vocabulary.trigrams, words, version: vocabulary.version, ms: Date.now() - started, pid: process.pid });
    })
    .catch((error: unknown) => {
      shared.release(table);
      log("warn", "reading the search index's vocabulary failed; short terms test every row", {
        table,
        reason: error instanceof Error ? error.message : String(error),
      });
    })
    .finally(() => {
      // A read that failed (one past the reader's time budget, say) waits as long as one that did not.
      nextBuild.set(table, Date.now() + (Date.now() - started) / BUILD_SHARE);
      building.delete(table);
    });
}

/** Runs a vocabulary's read (vocabularyRead) on the readers, a statement at a time. */
async function readAll(reading: ReturnType<typeof vocabularyRead>): Promise<VocabularyRow[] | null> {
  let step = reading.next();
  while (!step.done) step = reading.next(await read(step.value, vocabularyRow));
  return step.value;
}

/** How many rows hold a term, as far as the rows of its words say (Vocabulary.words). */
export interface TermRows {
  /** The rows of its commonest word: at least this many hold the term. */
  least: number;
  /** The rows of all its words together: at most this many (a row may hold several of them). */
  most: number;
}

/**
 * A search's bounded count, where the rows of the words of its one term settle it without
 * counting (termRowsOf): the search holds every row of the commonest word that contains the
 * term, so once that word is in more rows than the bound, so is the search; and when no other
 * word adds a row (the term lies inside one word only), the search holds exactly that word's
 * rows. Undefined otherwise, and the search is counted. The rows are exact at the plan's
 * version (FTS5 lists a deleted row's words no more; PostgreSQL's counts are written with the
 * rows). At a million posts on SQLite a common word's bounded count took 0.9 ms of the 2.5 of
 * its request, serially; on PostgreSQL, under load, 138-184 ms, most of its request's time.
 */
export function countFromWords(rows: TermRows | undefined): number | undefined {
  if (!rows) return undefined;
  if (rows.least > SEARCH_TOTAL_LIMIT) return SEARCH_TOTAL_LIMIT + 1;
  return rows.least === rows.most ? rows.least : undefined;
}

export type { WordFilters };

/**
 * How many rows hold a search's one term, as far as the rows of its words say, or undefined
 * for several terms, a term its words do not serve, or filters no count is kept by (`filters`
 * null). SQLite: from the plan's vocabulary, which counts the words of every row, so only with
 * no filter. PostgreSQL: the words counted as they are written, the posts' by board and status
 * (the word_rows migration), the changelogs' by status (changelog_word_rows), read with the
 * plan for the list's filters (planTerms' `counted`).
 */
export async function termRowsOf(
  plan: TermPlan | undefined,
  terms: string[],
  filters: WordFilters | null,
): Promise<TermRows | undefined> {
  const [term, ...others] = terms;
  if (!plan || term === undefined || others.length || !filters) return undefined;
  if (plan.rows) return filters.boardId || filters.statusId ? undefined : plan.rows.get(term);
  const kept = keptWordsOf(plan, term, filters);
  return kept && countedRows(kept.rows, kept.words);
}

/**
 * A term's words and PostgreSQL's counts of them, when the plan read those counts for these
 * filters (planTerms' `counted`); undefined otherwise.
 */
function keptWordsOf(plan: TermPlan, term: string, filters: WordFilters): { words: readonly string[]; rows: ReadonlyMap<string, number> } | undefined {
  const words = plan.words?.get(term);
  const counted = plan.wordRows;
  return words?.length && counted && sameFilters(counted.filters, filters) ? { words, rows: counted.rows } : undefined;
}

/**
 * How many rows hold each of a search's longer terms, as far as the rows of their words say,
 * with no filter: for choosing a rare one (lib/posts/search-plan.ts's rareTerm). SQLite: from
 * the plan's vocabulary. PostgreSQL: from the counts its writes keep, read with the plan, and
 * only for two longer terms or more, which is when a rare one is chosen.
 */
export async function rowsOfTerms(table: SearchTable, plan: TermPlan | undefined, terms: string[]): Promise<ReadonlyMap<string, TermRows> | undefined> {
  if (!plan || plan.rows) return plan?.rows;
  const listed = terms.flatMap((term): [string, readonly string[]][] => {
    const words = isShort(term) ? undefined : plan.words?.get(term);
    return words?.length ? [[term, words]] : [];
  });
  const counted = plan.wordRows;
  if (table !== "Post" || listed.length < 2 || !counted || !sameFilters(counted.filters, {})) return undefined;
  return new Map(
    listed.flatMap(([term, words]): [string, TermRows][] => {
      const rows = countedRows(counted.rows, words);
      return rows ? [[term, rows]] : [];
    }),
  );
}

const sameFilters = (a: WordFilters, b: WordFilters) => a.boardId === b.boardId && a.statusId === b.statusId;

/** A term's rows from its words' counts; undefined where a word was not counted. */
function countedRows(counted: ReadonlyMap<string, number>, words: readonly string[]): TermRows | undefined {
  const listed = words.map((word) => counted.get(word));
  return listed.every((rows) => rows !== undefined) ? rowsOfListed(listed as number[]) : undefined;
}

/** A term's rows, from the rows each of its words lists. */
const rowsOfListed = (listed: number[]): TermRows => ({ least: Math.max(...listed), most: listed.reduce((n, rows) => n + rows, 0) });

/**
 * Terms an index serves by other keys, at the table version `version` they hold for; with no
 * version, at every version (an index kept up to date with the table, on PostgreSQL). `rows`:
 * for each term expanded into words (SQLite), how many rows hold it, from the vocabulary.
 * `words` (PostgreSQL): every longer term's words, however common, for a count that comes with
 * filters an index holds beside the words (the post list's board and status), and for the
 * counts of rows each word's writes keep (termRowsOf). `wordRows` (PostgreSQL): those counts
 * of each of `words`, read with them, among the rows of the board and status of `filters`. `versionRead` (PostgreSQL): the table's version, read with the words, before the
 * list counts anything; unlike `version`, the plan holds at every version.
 */
export interface TermPlan {
  version?: number;
  expansions: Expansions;
  rows?: Map<string, TermRows>;
  words?: Expansions;
  wordRows?: { filters: WordFilters; rows: ReadonlyMap<string, number> };
  versionRead?: number;
  /**
   * SQLite: the longer terms whose words' rows the readers hold as bits at `version`, each with
   * its words' places in them (heldTerms, lib/sqlite/word-bits.ts), and every held word's place,
   * filter keys' among them, for the list's filters (heldKeys).
   */
  bits?: { terms: ReadonlyMap<string, number[]>; places: ReadonlyMap<string, number> };
  /**
   * PostgreSQL: the words (and their counts) were not read for this search but remembered from
   * an earlier one at this table version (rememberedWords): the list holds only if the table is
   * still at it, which listWithTermPlan checks after reading.
   */
  remembered?: number;
}

/** Each vocabulary's words with the rows each lists, made once: a vocabulary may hold 20,000 words. */
const wordRows = new WeakMap<Vocabulary, Map<string, number>>();

function rowsOfWords(vocabulary: Vocabulary): Map<string, number> {
  let docs = wordRows.get(vocabulary);
  if (!docs) {
    docs = new Map((vocabulary.words ?? []).map(({ word, doc }) => [word, doc]));
    wordRows.set(vocabulary, docs);
  }
  return docs;
}

/** For each longer term of `expansions` expanded into words, how many rows hold it, by the rows each word lists. */
export function termRows(vocabulary: Vocabulary, expansions: Expansions): Map<string, TermRows> {
  const docs = rowsOfWords(vocabulary);
  const rows = new Map<string, TermRows>();
  for (const [term, words] of expansions) {
    if (isShort(term) || !words.length) continue;
    rows.set(term, rowsOfListed(words.map((word) => docs.get(word) ?? 0)));
  }
  return rows;
}

// PostgreSQL: an index of every row's one- and two-character substrings (the short_term_index
// migration) finds a short term's rows exactly, and a term in no row at once. It is no help
// for a common term: its rows are many, the walk of the sort order finds a page in a few of
// them, and a bounded count is found in a short prefix of the table; and where the planner
// chooses to test rows by the index's expression, each test costs about 35 µs. So the short
// terms go through the index only while the planner's statistics say that together they are
// in fewer than a tenth of the rows (their shares multiplied, as the planner does; at a million
// posts a count through the index took 40-50 ms for a term in 4-14% of the rows against
// 30-130 ms by testing rows, and 54 ms against 14 ms for one in 32%). Two common terms can be
// rare together ("ct rp": 0.7%), and their count tested most of the table (0.6 s). With a
// longer term, the trigram index finds that term's rows and the short terms are tested on
// them, unless one of them is too rare for the statistics to list.

/** Short terms together in fewer than this share of a table's rows are found through PostgreSQL's index of short substrings. */
export const INDEX_SHARE = 0.1;
/** How long the planner's statistics of short terms are used before they are read again (ANALYZE renews them). */
const SHARES_TTL_MS = 5 * 60_000;
/** After a failed read, how long short terms are tested row by row before the statistics are read again. */
const SHARES_RETRY_MS = 30_000;

/**
 * The short terms of `terms` to find through the index of short substrings, each its own key:
 * all of them or none. A term the statistics do not list has a share of 0 (it is rarer than
 * every term they list, or the table was not analyzed yet).
 */
export function indexedShortTerms(shares: ReadonlyMap<string, number>, terms: string[]): Map<string, string[]> {
  const short = terms.filter(isShort);
  const share = short.reduce((product, t) => product * (shares.get(t) ?? 0), 1);
  const indexed = short.length && (short.length === terms.length ? share < INDEX_SHARE : share === 0);
  return new Map(indexed ? short.map((t) => [t, [t]]) : []);
}

/**
 * Which of the longer terms' words (`holding`, from wordsHolding) to count through the word
 * index: all of them or none, as for short terms, each term's share being the sum of its words'
 * (at most 1; a term in no word has 0, and then no row matches at all). Where the words are
 * common together, the planner reads a prefix of the table to count them and computes the words
 * of each row it reads (150 ms for a word in every changelog at 50,000 changelogs, against a few
 * milliseconds by LIKE).
 */
export function indexedWords(shares: ReadonlyMap<string, number>, holding: ReadonlyMap<string, string[]>): Map<string, string[]> {
  const share = [...holding.values()].reduce((product, words) => product * Math.min(1, words.reduce((sum, w) => sum + (shares.get(w) ?? 0), 0)), 1);
  return new Map(share < INDEX_SHARE ? holding : []);
}

// "int" decodes with Number, which serves the shares (PostgreSQL's real) as well.
const shareRow = rowType<{ term: string; share: number }>({ share: "int" });
/** The shares read of each table's short terms and words ("Post short terms"). */
const shareReads = new Map<string, { until: number; shares: Promise<Map<string, number> | null> }>();

/**
 * The shares a statement of the planner's statistics reads, at most every SHARES_TTL_MS; null
 * if they could not be read, and then the terms of `what` are tested row by row.
 */
function sharesOf(table: SearchTable, sql: Prisma.Sql, what: "short terms" | "words"): Promise<Map<string, number> | null> {
  const key = `${table} ${what}`;
  const remembered = shareReads.get(key);
  if (remembered && Date.now() < remembered.until) return remembered.shares;
  const shares = read(sql, shareRow).then(
    (rows) => {
      log("info", `read the planner's statistics of ${what}`, { table, terms: rows.length });
      return new Map(rows.map((row) => [row.term, row.share]));
    },
    (error: unknown) => {
      shareReads.set(key, { until: Date.now() + SHARES_RETRY_MS, shares: Promise.resolve(null) });
      log("warn", `reading the planner's statistics of ${what} failed; ${what} are tested row by row`, {
        table,
        reason: error instanceof Error ? error.message : String(error),
      });
      return null;
    },
  );
  shareReads.set(key, { until: Date.now() + SHARES_TTL_MS, shares });
  return shares;
}

/**
 * How an index serves a search's terms by other keys, or null when it cannot. PostgreSQL: the
 * short terms rare enough for its index of short substrings, and the words of the longer terms
 * rare enough together, at any version; read with the words, the table's version and, for a
 * list (`filters`: its board and status, null where another filter keeps no counts), the
 * counts of rows of the words a count or the choice of a rare term asks for (termRowsOf,
 * rowsOfTerms): one statement where there were three. SQLite: the trigrams of the short terms
 * and the words of the longer ones, at the table's current version; with no vocabulary
 * remembered for it, the plan expands nothing (one is read in the background), and only gives
 * the version, which the list's count would otherwise read again.
 */
async function planTerms(table: SearchTable, terms: string[], filters?: WordFilters | null): Promise<TermPlan | null> {
  if (!terms.length) return null;
  const sharesSql = dialect.shortTermShares(table);
  const wordSharesSql = dialect.wordShares(table);
  if (sharesSql && wordSharesSql) {
    const words = terms.filter(isWordTerm);
    if (!words.length && !terms.some(isShort)) return null;
    // One term: its count, with the list's filters. Several: the choice of a rare one, without,
    // which only the post list makes (lib/posts/search-plan.ts).
    const counted = terms.length === 1 ? (filters ?? undefined) : words.length >= 2 && table === "Post" ? {} : undefined;
    const known = rememberedWords.at(table, words, counted);
    const [shares, held, wordShares] = await Promise.all([
      terms.some(isShort) ? sharesOf(table, sharesSql, "short terms") : null,
      known ?? wordsHolding(table, words, counted).then((read) => rememberedWords.keep(table, words, counted, read)),
      words.length ? sharesOf(table, wordSharesSql, "words") : null,
    ]);
    const expansions = new Map(shares ? indexedShortTerms(shares, terms) : []);
    for (const [term, found] of wordShares ? indexedWords(wordShares, held.holding) : []) expansions.set(term, found);
    return { expansions, words: held.holding, wordRows: held.wordRows, versionRead: held.version, remembered: known ? held.version : undefined };
  }
  if (!vocabularyStatements(table)) return null;
  const version = await versionOf(table);
  const vocabulary = vocabularyAt(table, version);
  if (!vocabulary) return { version, expansions: new Map() };
  const expansions = expansionsOf(vocabulary, terms, Boolean(filters?.boardId || filters?.statusId));
  // The terms the word bits hold, which may find the search by themselves or narrow a rare term (lib/sqlite/word-bits.ts).
  const places = wordBitsOf(table, vocabulary);
  const bits = places ? { terms: heldTerms(vocabulary, terms, places), places } : undefined;
  return { version, expansions, rows: termRows(vocabulary, expansions), bits };
}

/**
 * The table's vocabulary remembered at `version`; undefined where there is none of it (SQLite),
 * and then it is read in the background (unless a read is under way or was too recent).
 */
export function vocabularyAt(table: SearchTable, version: number): Vocabulary | undefined {
  const vocabulary = remembered.get(table);
  if (vocabulary?.version === version) return vocabulary;
  const statements = vocabularyStatements(table);
  if (statements) build(table, statements);
  return undefined;
}

/** Where the readers hold the bits of the vocabulary's commonest words at its version (lib/sqlite/word-bits.ts), else null. */
export function wordBitsOf(table: SearchTable, vocabulary: Vocabulary): ReadonlyMap<string, number> | null {
  return vocabulary.words ? wordBitsAt(table, vocabulary.version, vocabulary.words) : null;
}

/**
 * The places in the word bits (`places`, each held word's) of a list's filter keys (`keys`, as
 * Dialect.matches takes them: a row holds one key of each list), list by list; null where one is
 * not held, or where the list has a filter no key stands for (`keys` null).
 */
export function heldKeys(keys: readonly (readonly string[])[] | null, places: ReadonlyMap<string, number>): number[][] | null {
  if (!keys) return null;
  const found = keys.map((list) => list.map((key) => places.get(key)));
  return found.every((list) => list.every((place) => place !== undefined)) ? (found as number[][]) : null;
}

/** Each of `terms`' places in the bits (TermPlan.bits's), or undefined where one of them is not held (or there are none). */
export function heldPlaces(terms: string[], bits: ReadonlyMap<string, number[]> | undefined): number[][] | undefined {
  const places = terms.map((term) => bits?.get(term));
  return places.length && places.every((any) => any !== undefined) ? (places as number[][]) : undefined;
}

/**
 * Each longer term of `terms` whose words are all held as bits (`places`, each word's place in
 * them), with their places: a row holds the term exactly where it holds one of them. Not a term
 * in no word (it matches nothing, which the list finds at once), nor one in more than
 * EXPAND_WORDS words (each is tested for every row).
 */
export function heldTerms(vocabulary: Vocabulary, terms: string[], places: ReadonlyMap<string, number>): Map<string, number[]> {
  const held = new Map<string, number[]>();
  for (const term of vocabulary.words ? terms.filter(isWordTerm) : []) {
    const words = (vocabulary.words ?? []).filter(({ word }) => word.includes(term));
    const found = words.map(({ word }) => places.get(word));
    if (words.length && words.length <= EXPAND_WORDS && found.every((place) => place !== undefined)) held.set(term, found as number[]);
  }
  return held;
}

const wordRow = rowType<{ term: string | null; word: string | null; rows: number | null; dataVersion: number }>({ rows: "int", dataVersion: "int" });

/** What wordsHolding reads: each term's words, their counts where asked for, and the table's version. */
export interface HeldWords {
  holding: Map<string, string[]>;
  wordRows?: TermPlan["wordRows"];
  version?: number;
}

/** The most terms a search may have for its words' statement to be kept prepared (wordsHolding). */
const PREPARED_TERMS = 4;

/** Searches' words remembered at most, per process; past it, they are all forgotten. */
const REMEMBERED_SEARCHES = 5_000;
/**
 * After remembered words were found out of date, how long searches of that table read their
 * words again before trusting remembered ones: a table written many times a second would
 * otherwise have every search in flight read its list twice after each write.
 */
const DOUBT_MS = 1_000;
/**
 * A table's word list (WordList) is kept only while it has at most this many rows of counts
 * (a word's counts are a row for each board and status holding it), and at most MAX_WORDS
 * words: the seed's million posts have 11,935 for 341 words, a statement of 15-23 ms. Making
 * the list runs on the event loop, about 20 ms for 200,000 rows. Past either, each search
 * reads its own words.
 */
const WORD_LIST_ROWS = 200_000;
/** How long a table whose word list was too long to keep waits before it is read again. */
const WORD_LIST_RETRY_MS = 10 * 60_000;

/** A word's counts of rows, by board and status (wordsHolding's `counted`). */
export interface WordCount {
  boardId: string;
  statusId: string;
  rows: number;
}

/**
 * PostgreSQL: every word of a table (its "SearchWord" rows) with their counts, as read at
 * `version`; `tooLong` when a text held a word too long for the index.
 */
export interface WordList {
  version: number;
  words: Map<string, WordCount[]>;
  tooLong: boolean;
}

const wordListRow = rowType<WordListRow>({ rows: "int", dataVersion: "int" });

type WordListRow = { word: string | null; boardId: string | null; statusId: string | null; rows: number | null; dataVersion: number };

/** The rows Dialect.wordList reads, as a WordList (each word once, with its counts). */
export function wordListOf(rows: readonly WordListRow[]): WordList {
  const list: WordList = { version: rows[0]?.dataVersion ?? -1, words: new Map(), tooLong: false };
  for (const { word, boardId, statusId, rows: count } of rows) {
    if (word === null) continue;
    // The word_index migration keeps a word too long for the index as the empty string.
    if (word === "") list.tooLong = true;
    const counts = list.words.get(word) ?? [];
    if (boardId !== null && statusId !== null && count !== null) counts.push({ boardId, statusId, rows: count });
    list.words.set(word, counts);
  }
  return list;
}

/** What wordsHolding would read for `terms` at the list's version, found in the list. */
export function heldIn(list: WordList, terms: string[], counted: WordFilters | undefined): HeldWords & { version: number } {
  if (list.tooLong) return { holding: new Map(), version: list.version };
  const holding = new Map<string, string[]>();
  const wordRows = new Map<string, number>();
  for (const term of terms) {
    const words: string[] = [];
    for (const word of list.words.keys()) if (word.includes(term) && words.push(word) > EXPAND_WORDS) break;
    if (words.length > EXPAND_WORDS) continue;
    holding.set(term, words);
    for (const word of counted ? words : []) {
      const counts = list.words.get(word) ?? [];
      const kept = counts.filter((count) => (!counted?.boardId || count.boardId === counted.boardId) && (!counted?.statusId || count.statusId === counted.statusId));
      wordRows.set(word, kept.reduce((sum, count) => sum + count.rows, 0));
    }
  }
  return { holding, wordRows: counted && wordRows.size ? { filters: counted, rows: wordRows } : undefined, version: list.version };
}

/**
 * PostgreSQL: the words of a search's terms (wordsHolding), remembered by the table version
 * they were read at, so that a later search at that version spares the statement (0.5-1.5 ms
 * of a search's time at a million posts, more on a busy machine). Two ways: the words of each
 * search made before, and the table's whole word list with its counts (WordList), read in the
 * background once a search sees a version the list is not of, which answers a search never made
 * before. Unlike SQLite's vocabulary, PostgreSQL's words are
 * read with no separate look at the version: a search uses remembered words only while they
 * are of the newest version this process has seen, and listWithTermPlan reads the list with
 * them and then checks that the table was still at that version, which the list's rows carry
 * (or one lookup, when the list is empty); otherwise it reads the words again and lists again.
 */
class RememberedWords {
  private readonly searches = new Map<string, HeldWords & { version: number }>();
  private readonly newest = new Map<SearchTable, number>();
  private readonly doubtedUntil = new Map<SearchTable, number>();
  private readonly lists = new Map<SearchTable, WordList>();
  private readonly reading = new Set<SearchTable>();
  /** When each table's word list may next be read, so that reading them stays within BUILD_SHARE of a connection. */
  private readonly nextRead = new Map<SearchTable, number>();

  private static keyOf(table: SearchTable, terms: string[], counted: WordFilters | undefined): string {
    return JSON.stringify([table, counted ? [counted.boardId ?? null, counted.statusId ?? null] : null, terms]);
  }

  /**
   * The words for these terms, remembered or found in the word list, when they are of the
   * newest version seen and the table is not in doubt. A word list of another version is read again.
   */
  at(table: SearchTable, terms: string[], counted: WordFilters | undefined): (HeldWords & { version: number }) | undefined {
    if (!terms.length) return undefined;
    const newest = this.newest.get(table);
    const list = this.lists.get(table);
    if (list?.version !== newest || newest === undefined) this.readList(table);
    if (Date.now() < (this.doubtedUntil.get(table) ?? 0)) return undefined;
    const key = RememberedWords.keyOf(table, terms, counted);
    const known = this.searches.get(key);
    if (known && known.version === newest) return known;
    if (!list || list.version !== newest) return undefined;
    return this.remember(key, heldIn(list, terms, counted));
  }

  /** Remembers words just read, and their version as the newest seen; gives them back. */
  keep(table: SearchTable, terms: string[], counted: WordFilters | undefined, held: HeldWords): HeldWords {
    if (held.version === undefined || !terms.length) return held;
    this.saw(table, held.version);
    if (held.version !== this.newest.get(table)) return held;
    return this.remember(RememberedWords.keyOf(table, terms, counted), { ...held, version: held.version });
  }

  private remember(key: string, held: HeldWords & { version: number }): HeldWords & { version: number } {
    if (this.searches.size >= REMEMBERED_SEARCHES) this.searches.clear();
    this.searches.set(key, held);
    return held;
  }

  /** The table was seen at `version`. */
  saw(table: SearchTable, version: number): void {
    if (version > (this.newest.get(table) ?? -1)) this.newest.set(table, version);
  }

  /** Remembered words of the table were out of date: read them for a while. */
  doubt(table: SearchTable): void {
    this.doubtedUntil.set(table, Date.now() + DOUBT_MS);
  }

  /** Reads the table's word list in the background, unless a read is under way or was too recent. */
  private readList(table: SearchTable): void {
    if (this.reading.has(table) || Date.now() < (this.nextRead.get(table) ?? 0)) return;
    const sql = dialect.wordList(table, WORD_LIST_ROWS + 1);
    if (!sql) return;
    this.reading.add(table);
    const started = Date.now();
    let wait = 0;
    // Not the request's read: it carries no key check, and no answer waits for it.
    withoutKeyCheck(() => read(sql, wordListRow))
      .then((rows) => {
        // A search looks for its terms in every word, on the event loop: as many as SQLite's vocabulary holds.
        const list = rows.length > WORD_LIST_ROWS ? null : wordListOf(rows);
        if (!list || list.words.size > MAX_WORDS) {
          this.lists.delete(table);
          wait = WORD_LIST_RETRY_MS;
          log("warn", "a table has too many words to remember; each search reads its own words", { table, words: MAX_WORDS, counts: WORD_LIST_ROWS });
          return;
        }
        this.saw(table, list.version);
        if ((this.lists.get(table)?.version ?? -1) < list.version) this.lists.set(table, list);
        log("info", "read a table's words for searches", { table, words: list.words.size, counts: rows.length, version: list.version, ms: Date.now() - started });
      })
      .catch((error: unknown) => {
        log("warn", "reading a table's words failed; each search reads its own words", { table, reason: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        this.nextRead.set(table, Date.now() + Math.max(wait, (Date.now() - started) / BUILD_SHARE));
        this.reading.delete(table);
      });
  }
}

const rememberedSlot = globalThis as unknown as { feedbackRememberedWords?: RememberedWords };
rememberedSlot.feedbackRememberedWords ??= new RememberedWords();
const rememberedWords = rememberedSlot.feedbackRememberedWords;

/**
 * Where the database looks words up (PostgreSQL): each of `terms` with the words that contain
 * it, while there are at most EXPAND_WORDS of them (a part of many words, such as "ion", is
 * found through the trigram index as before); a term in no word with none. The table of words
 * is written with the rows, so unlike a vocabulary it holds at every version. None at all once
 * a text held a word too long for the index: a term may lie inside it, unseen. With them, the
 * table's version, and with `counted`, how many rows of that board and status hold each word.
 */
async function wordsHolding(
  table: SearchTable,
  terms: string[],
  counted?: WordFilters,
): Promise<HeldWords> {
  const sql = terms.length ? dialect.wordsHolding(table, terms, EXPAND_WORDS + 1, counted) : null;
  if (!sql) return { holding: new Map() };
  // Kept prepared: PostgreSQL parsed and planned the statement on every search, 0.54-0.69 ms
  // of its CPU a statement, against 0.23-0.26 prepared (2,000 runs each, a million posts). Its
  // text differs by the number of terms and the filters counted by; only searches of up to
  // PREPARED_TERMS terms are named, so that odd long searches cannot use up the names
  // (lib/db.ts's PREPARED_LIMIT) that lookups of rows by key need.
  const rows = await read(sql, wordRow, { lookup: terms.length <= PREPARED_TERMS });
  const version = rows[0]?.dataVersion;
  // The row of a word too long for the index has a word (the empty string) and no term.
  if (rows.some(({ term, word }) => term === null && word !== null)) return { holding: new Map(), version };
  const holding = new Map(terms.map((term): [string, string[]] => [term, []]));
  const wordRows = new Map<string, number>();
  for (const { term, word, rows: postRows } of rows) {
    if (term === null || word === null) continue;
    holding.get(term)?.push(word);
    if (postRows !== null) wordRows.set(word, postRows);
  }
  return {
    holding: new Map([...holding].filter(([, words]) => words.length <= EXPAND_WORDS)),
    wordRows: counted && wordRows.size ? { filters: counted, rows: wordRows } : undefined,
    version,
  };
}

/** A list, and the table version its last read saw, if that read carried it. */
export interface Listed<L> {
  list: L;
  version?: number;
}

/**
 * A search's list, read with its terms' plan when one holds: `list(plan)` reads it with
 * the plan (one that expands nothing only gives the table's version), `list()` without, and
 * `nothing` is the list when a term is in no row. The plan
 * holds for its version only. Versions only move forward, so if the last read still saw that
 * version, so did every read before it; otherwise a write came in between, and the list is
 * read again without the plan. `filters`: the list's board and status (WordFilters), for the
 * counts the plan reads with its words (planTerms); null or none where the list has a filter
 * no count is kept by. Counts that say no row of that board and status holds the term answer
 * `nothing` at once. A plan of words remembered from an earlier search (PostgreSQL,
 * TermPlan.remembered) is checked the same way after the list, `nothing` included, and if the
 * table has moved the list is read again with words read anew.
 */
export function listWithTermPlan<L>(
  table: SearchTable,
  terms: string[],
  nothing: () => L,
  list: (plan?: TermPlan) => Promise<Listed<L>>,
  filters?: WordFilters | null,
): Promise<L> {
  return inTurn(terms, async () => {
    const plan = await planTerms(table, terms, filters);
    const listed = await listWithPlan(table, terms, plan, nothing, list, filters);
    if (plan?.remembered === undefined) return listed.list;
    // Words remembered from an earlier search: the list holds if the table is still at their version.
    const now = listed.version ?? (await versionOf(table));
    rememberedWords.saw(table, now);
    if (now === plan.remembered) return listed.list;
    rememberedWords.doubt(table);
    log("info", "a search's remembered words were out of date; searches read their words again for a while", { table, remembered: plan.remembered, now });
    return (await listWithPlan(table, terms, await planTerms(table, terms, filters), nothing, list, filters)).list;
  });
}

/** The list with `plan` (listWithTermPlan), and the version its last read saw where it knows it. */
async function listWithPlan<L>(
  table: SearchTable,
  terms: string[],
  plan: TermPlan | null,
  nothing: () => L,
  list: (plan?: TermPlan) => Promise<Listed<L>>,
  filters?: WordFilters | null,
): Promise<Listed<L>> {
  // By the counts the writes keep (PostgreSQL), no row of the board and status holds the term:
  // nothing matches, and no page walks the sort order looking for a match. A word found only
  // in drafts, listed with status=Published, walked all 42,464 published changelogs (34 ms).
  if (filters && (await termRowsOf(plan ?? undefined, terms, filters))?.most === 0) return { list: nothing() };
  // Nothing expanded: the reads are those of any search, and the version only saves a query.
  if (!plan?.expansions.size) return list(plan ?? undefined);
  // A term that no row holds: nothing matches, as of the version just read (or now).
  if ([...plan.expansions.values()].some((keys) => !keys.length)) return { list: nothing() };
  // An index kept up to date with the table holds at any version.
  if (plan.version === undefined) return list(plan);
  const listed = await list(plan);
  if ((listed.version ?? (await versionOf(table))) === plan.version) return listed;
  return list();
}

// Searches made only of one- and two-character terms take turns, one at a time in each process.
// Most are answered from an index in a millisecond or two, but a common letter's page is found
// by testing rows, and no index bounds what those cost. At a million posts on PostgreSQL, four
// clients sending nothing else kept both cores of this machine busy, and the health probe's p99
// beside them was 51-65 ms (median 65, five runs); taking turns, 29-63 ms (median 41, nine
// runs), at the same throughput (about 300 a second). They wait in the process, which costs
// nothing, so one such search at a time is the most they take from every other request. The
// turns live on globalThis, as the webhook nudge does (lib/webhooks/nudge.ts), so that every
// bundle of the app in a process takes the same turns.
const turns = globalThis as unknown as { feedbackShortTermTurns?: LimitFunction };
turns.feedbackShortTermTurns ??= pLimit(1);
const shortOnly = turns.feedbackShortTermTurns;

/** `run`, in its turn when `terms` are all shorter than a trigram; at once otherwise. */
export function inTurn<T>(terms: string[], run: () => Promise<T>): Promise<T> {
  return terms.length && terms.every(isShort) ? shortOnly(run) : run();
}
