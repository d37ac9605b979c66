import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { dialects, filterKey } from "./dialect";
import { SEARCH_TOTAL_LIMIT } from "./totals";
import {
  countFromWords,
  EXPAND_POSTINGS,
  EXPAND_TRIGRAMS,
  EXPAND_WORDS,
  expansionsOf,
  heldIn,
  heldKeys,
  heldTerms,
  INDEX_SHARE,
  indexedShortTerms,
  indexedWords,
  inTurn,
  isWordTerm,
  MAX_WORDS,
  termRows,
  termRowsOf,
  VOCABULARY_CHUNK,
  type VocabularyRow,
  type VocabularyStatements,
  type WordCount,
  type WordFilters,
  vocabularyOf,
  vocabularyRead,
  vocabularyStatements,
  wordListOf,
} from "./vocabulary";

const trigram = (term: string, doc = 1): VocabularyRow => ({ term, doc, text: null, word: null, dataVersion: 7 });
const word = (term: string, doc = 1): VocabularyRow => ({ term, doc, text: null, word: true, dataVersion: 7 });
const shortText = (text: string): VocabularyRow => ({ term: null, doc: null, text, word: null, dataVersion: 7 });
const versionOnly: VocabularyRow = { term: null, doc: null, text: null, word: null, dataVersion: 7 };

describe("a short term's trigrams", () => {
  it("are every trigram holding it, at any of its positions, with the rows they list", () => {
    const vocabulary = vocabularyOf([trigram("axj", 2), trigram("xjo", 3), trigram("oxj", 4), trigram("abc", 100), versionOnly]);
    assert.equal(vocabulary.version, 7);
    assert.deepEqual(vocabulary.holders.get("xj"), { trigrams: ["axj", "xjo", "oxj"], postings: 9 });
    assert.deepEqual(vocabulary.holders.get("x"), { trigrams: ["axj", "xjo", "oxj"], postings: 9 });
    assert.deepEqual(vocabulary.holders.get("b"), { trigrams: ["abc"], postings: 100 });
    assert.deepEqual(expansionsOf(vocabulary, ["xj", "dark", "b"]), new Map([["xj", ["axj", "xjo", "oxj"]], ["b", ["abc"]]]));
  });

  it("counts a trigram once for a term it holds twice", () => {
    const vocabulary = vocabularyOf([trigram("aaa", 5), versionOnly]);
    assert.deepEqual(vocabulary.holders.get("a"), { trigrams: ["aaa"], postings: 5 });
    assert.deepEqual(vocabulary.holders.get("aa"), { trigrams: ["aaa"], postings: 5 });
  });

  it("are none for a term no trigram holds: no row can hold it", () => {
    const vocabulary = vocabularyOf([trigram("abc"), versionOnly]);
    assert.deepEqual(expansionsOf(vocabulary, ["q", "bc"]), new Map([["q", []], ["bc", ["abc"]]]));
  });

  it("are not asked for when a text too short for a trigram holds the term", () => {
    const vocabulary = vocabularyOf([trigram("abc"), shortText("q\n"), versionOnly]);
    assert.deepEqual(expansionsOf(vocabulary, ["q", "c"]), new Map([["c", ["abc"]]]));
  });

  it("are not asked for when they list too many rows or are too many: the rows are tested instead", () => {
    const common = vocabularyOf([trigram("abc", EXPAND_POSTINGS), trigram("bcd", 1), versionOnly]);
    assert.deepEqual(expansionsOf(common, ["bc", "ab"]), new Map([["ab", ["abc"]]]));
    const letters = [..."abcdefghijklmnopqrstuvwxyz0123456789"];
    const many = vocabularyOf([...letters.flatMap((a) => letters.map((b) => trigram(`${a}e${b}`))), versionOnly]);
    assert.ok((many.holders.get("e")?.trigrams.length ?? 0) > EXPAND_TRIGRAMS);
    assert.deepEqual(expansionsOf(many, ["e", "ae"]), new Map([["ae", letters.map((b) => `ae${b}`)]]));
  });
});

describe("a longer term's words", () => {
  it("are every word of the word index that contains it, for a term of word characters only", () => {
    const vocabulary = vocabularyOf([trigram("okt"), word("okta", 5), word("oktas", 2), word("pokta", 1), word("other", 9), versionOnly], true);
    assert.deepEqual(vocabulary.words?.length, 4);
    assert.equal(vocabulary.trigrams, 1);
    assert.deepEqual(expansionsOf(vocabulary, ["okta"]), new Map([["okta", ["okta", "oktas", "pokta"]]]));
    assert.deepEqual(expansionsOf(vocabulary, ["kta", "ther"]), new Map([["kta", ["okta", "oktas", "pokta"]], ["ther", ["other"]]]));
    // In no word: no row holds it.
    assert.deepEqual(expansionsOf(vocabulary, ["zzz"]), new Map([["zzz", []]]));
    // A character that splits words leaves the term to the trigram index.
    assert.deepEqual(expansionsOf(vocabulary, ["ok-ta", "o_kta", "okta.", "e-mail"]), new Map());
  });

  it("are told apart by the characters the word index keeps inside a word", () => {
    for (const term of ["okta", "café", "straße", "日本語", "x2y", "2026"]) assert.ok(isWordTerm(term), term);
    for (const term of ["ok", "o-kta", "a_b", "a.b", "c++", "a/b", "@me", "a'b", 'a"b', "a`b", "{x}", "a~b", "a\x7fb", "OKTA"]) assert.ok(!isWordTerm(term), term);
  });

  it("are not asked for when there are too many of them or they list too many rows", () => {
    const many = vocabularyOf([...Array.from({ length: EXPAND_WORDS + 1 }, (_, i) => word(`set${i}`)), word("okta"), versionOnly], true);
    assert.deepEqual(expansionsOf(many, ["set", "okta"]), new Map([["okta", ["okta"]]]));
    const common = vocabularyOf([word("settings", EXPAND_POSTINGS), word("reset", 1), versionOnly], true);
    assert.deepEqual(expansionsOf(common, ["set"]), new Map());
    assert.deepEqual(expansionsOf(common, ["settings"]), new Map([["settings", ["settings"]]]));
  });

  it("are asked for however many rows they list when the list has a filter the word index holds as a key", () => {
    const common = vocabularyOf([word("settings", EXPAND_POSTINGS), word("reset", 1), word("okta", 3), versionOnly], true);
    assert.deepEqual(expansionsOf(common, ["set", "okta"], true), new Map([["set", ["settings", "reset"]], ["okta", ["okta"]]]));
    // Not past EXPAND_WORDS: each word is a phrase of the index's query.
    const many = vocabularyOf([...Array.from({ length: EXPAND_WORDS + 1 }, (_, i) => word(`set${i}`)), versionOnly], true);
    assert.deepEqual(expansionsOf(many, ["set"], true), new Map());
  });

  it("are not used at all when the index has too many words, or one too long for FTS5 to keep whole", () => {
    const crowded = vocabularyOf([...Array.from({ length: MAX_WORDS + 1 }, (_, i) => word(`w${i}`)), versionOnly], true);
    assert.equal(crowded.words, null);
    assert.deepEqual(expansionsOf(crowded, ["w12"]), new Map());
    const long = vocabularyOf([word("é".repeat(16_384)), word("okta"), versionOnly], true);
    assert.equal(long.words, null);
    assert.deepEqual(expansionsOf(long, ["okta"]), new Map());
  });
});

describe("a search's terms and filters in the word bits (lib/sqlite/word-bits.ts)", () => {
  const vocabulary = vocabularyOf([word("okta", 5), word("oktas", 2), word("pokta", 1), word("other", 9), word("rare", 1), versionOnly], true);
  const places = new Map([
    ["okta", 3],
    ["oktas", 0],
    ["pokta", 7],
    ["other", 1],
    [filterKey("board", "b1"), 4],
    [filterKey("status", "s1"), 5],
    [filterKey("label", "fixed"), 6],
    [filterKey("label", "security"), 8],
  ]);

  it("are a longer term's words' places where every word holding it is held, and nothing for a term in no word or a short one", () => {
    assert.deepEqual(heldTerms(vocabulary, ["kta", "ther"], places), new Map([["kta", [3, 0, 7]], ["ther", [1]]]));
    // "are" lies in "rare" too, whose bits are not held: its rows are not all known.
    assert.deepEqual(heldTerms(vocabulary, ["okta", "are", "zzz", "ok", "ok-ta"], places), new Map([["okta", [3, 0, 7]]]));
    const many = vocabularyOf([...Array.from({ length: EXPAND_WORDS + 1 }, (_, i) => word(`okta${i}`)), versionOnly], true);
    const all = new Map((many.words ?? []).map(({ word }, i) => [word, i]));
    assert.deepEqual(heldTerms(many, ["okta"], all), new Map(), "more words than EXPAND_WORDS");
    assert.deepEqual(heldTerms(many, ["okta1"], all).get("okta1")?.length, 11);
  });

  it("are each filter key's place list by list, none without a filter, and null where a key is not held or another filter is set", () => {
    const [board, status, fixed, security] = [filterKey("board", "b1"), filterKey("status", "s1"), filterKey("label", "fixed"), filterKey("label", "security")];
    assert.deepEqual(heldKeys([], places), []);
    assert.deepEqual(heldKeys([[board]], places), [[4]]);
    assert.deepEqual(heldKeys([[board], [status]], places), [[4], [5]]);
    // A list is any one of its keys (a changelog's labels): every one of them must be held.
    assert.deepEqual(heldKeys([[status], [fixed, security]], places), [[5], [6, 8]]);
    assert.equal(heldKeys([[status], [fixed, filterKey("label", "ui")]], places), null);
    assert.equal(heldKeys([[board], [filterKey("status", "s2")]], places), null);
    assert.equal(heldKeys(null, places), null);
  });
});

describe("a longer term's rows, by its words", () => {
  it("are at least its commonest word's and at most all its words' together; short terms have none", () => {
    const vocabulary = vocabularyOf([trigram("okt"), word("okta", 5), word("oktas", 2), word("pokta", 1), word("other", 9), versionOnly], true);
    const rows = termRows(vocabulary, expansionsOf(vocabulary, ["kta", "other", "zquork", "ok"]));
    assert.deepEqual(rows.get("kta"), { least: 5, most: 8 });
    assert.deepEqual(rows.get("other"), { least: 9, most: 9 });
    // In no word (no row at all: the search needs no plan), and a short term's trigrams.
    assert.equal(rows.has("zquork"), false);
    assert.equal(rows.has("ok"), false);
  });
});

describe("the vocabulary's statements", () => {
  it("read the short texts, then the trigrams and the words a chunk at a time after a term, each with the version, on SQLite; nothing on PostgreSQL", () => {
    const statements = vocabularyStatements("Post", dialects.sqlite);
    assert.ok(statements?.words);
    assert.equal(statements.chunk, VOCABULARY_CHUNK);
    const oneLine = (sql: { sql: string }) => sql.sql.replace(/\s+/g, " ").trim();
    const version = `SELECT NULL, NULL, NULL, NULL, (SELECT dv."version" FROM "DataVersion" dv WHERE dv."name" = 'Post') AS "dataVersion"`;
    assert.equal(
      oneLine(statements.shortTexts),
      `SELECT NULL AS "term", NULL AS "doc", t."searchText" AS "text", NULL AS "word", (SELECT dv."version" FROM "DataVersion" dv WHERE dv."name" = 'Post') AS "dataVersion" FROM "Post" t WHERE octet_length(t."searchText") < 9 AND length(t."searchText") < 3 UNION ALL ${version}`,
    );
    const trigrams = statements.trigrams("okt");
    assert.match(oneLine(trigrams), /FROM \(SELECT "term", "doc" FROM "PostSearchVocab"\) v WHERE v\."term" > \? ORDER BY v\."term" LIMIT \?\) UNION ALL SELECT NULL/);
    assert.deepEqual(trigrams.values, [null, "okt", VOCABULARY_CHUNK]);
    const words = statements.words("okta");
    assert.match(oneLine(words), /FROM \(SELECT "term", "doc" FROM "PostWordsVocab" WHERE instr\("term", 'ς'\) = 0\) v WHERE v\."term" > \? ORDER BY/);
    assert.deepEqual(words.values, [1, "okta", VOCABULARY_CHUNK]);
    assert.equal(vocabularyStatements("Post", dialects.postgres), null);
  });
});

describe("short terms on PostgreSQL", () => {
  it("go through the index of short substrings when the statistics call them rare together, or do not list one", () => {
    const shares = new Map([
      ["e", 0.95],
      ["av", INDEX_SHARE / 3],
      ["ob", INDEX_SHARE],
      ["ct", 0.3],
      ["rp", 0.3],
    ]);
    const keys = (terms: string[]) => [...indexedShortTerms(shares, terms).entries()];
    assert.deepEqual(keys(["av"]), [["av", ["av"]]]);
    assert.deepEqual(keys(["xj"]), [["xj", ["xj"]]], "a term the statistics do not list");
    assert.deepEqual(keys(["e"]), []);
    assert.deepEqual(keys(["ob"]), [], "a share of INDEX_SHARE is common");
    assert.deepEqual(keys(["ct", "rp"]), [["ct", ["ct"]], ["rp", ["rp"]]], "two common terms, rare together");
    assert.deepEqual(keys(["e", "ct"]), []);
    assert.deepEqual(keys(["e", "xj"]), [["e", ["e"]], ["xj", ["xj"]]]);
    assert.deepEqual(keys(["okta", "av"]), [], "a longer term is found through the trigram index");
    assert.deepEqual(keys(["okta", "av", "xj"]), [["av", ["av"]], ["xj", ["xj"]]], "unless a short one is not listed");
    assert.deepEqual(keys(["okta"]), []);
    assert.deepEqual([...indexedShortTerms(new Map(), ["e"]).keys()], ["e"], "with no statistics, every short term");
  });

  it("are tested with strpos, and the indexed ones also through the index's expression, which a common one never is", () => {
    const where = dialects.postgres.search("Post", "t", ["okta", "e", "xj", "q"], { expansions: new Map([["xj", ["xj"]], ["q", ["q"]]]) });
    assert.equal(
      where.sql,
      `t."searchText" LIKE ? ESCAPE '\\' AND strpos(t."searchText", ?) > 0 AND strpos(t."searchText", ?) > 0 AND strpos(t."searchText", ?) > 0 AND "search_short_grams"(t."searchText") @> ARRAY[?,?]::text[]`,
    );
    assert.deepEqual(where.values, ["%okta%", "e", "xj", "q", "xj", "q"]);
    const common = dialects.postgres.search("Post", "t", ["e", "a"]);
    assert.doesNotMatch(common.sql, /search_short_grams|LIKE/);
    // A count tests no row for a term the index serves exactly: it can skip the rows.
    const counted = dialects.postgres.search("Post", "t", ["e", "xj"], { expansions: new Map([["xj", ["xj"]]]), counting: true });
    assert.equal(counted.sql, `strpos(t."searchText", ?) > 0 AND "search_short_grams"(t."searchText") @> ARRAY[?]::text[]`);
    assert.deepEqual(counted.values, ["e", "xj"]);
  });

  it("are classed by the statistics of the index's expression on PostgreSQL, and by the vocabulary on SQLite", () => {
    const sql = dialects.postgres.shortTermShares("Changelog");
    assert.match(sql?.sql ?? "", /FROM pg_stats s,\s+unnest\(s\."most_common_elems"::text::text\[\], s\."most_common_elem_freqs"\)/);
    assert.deepEqual(sql?.values, ["Changelog_searchText_short_idx"]);
    assert.equal(dialects.sqlite.shortTermShares("Changelog"), null);
    assert.deepEqual(dialects.postgres.wordShares("Post")?.values, ["Post_searchText_words_idx"]);
    assert.equal(dialects.sqlite.wordShares("Post"), null);
  });
});

describe("longer terms' words on PostgreSQL", () => {
  const shares = new Map([
    ["thanks", 1],
    ["okta", 0.05],
    ["oktas", 0.01],
    ["people", 0.19],
    ["export", 0.3],
    ["reports", 0.15],
  ]);

  it("are counted through the word index when the statistics call them rare together, or do not list them", () => {
    const holding = (entries: [string, string[]][]) => new Map(entries);
    assert.deepEqual(indexedWords(shares, holding([["kta", ["okta", "oktas"]]])), holding([["kta", ["okta", "oktas"]]]));
    // 0.19 and 0.45: 0.0855 together.
    assert.deepEqual(indexedWords(shares, holding([["people", ["people"]], ["port", ["export", "reports"]]])).size, 2);
    assert.deepEqual(indexedWords(shares, holding([["zquork", ["zquorked"]]])).size, 1, "a word too rare to be listed");
  });

  it("are left to LIKE when common together", () => {
    assert.deepEqual(indexedWords(shares, new Map([["thanks", ["thanks"]]])), new Map());
    assert.deepEqual(indexedWords(shares, new Map([["people", ["people"]]])), new Map());
    // Shares past 1 count as 1: "export" and "reports" overlap.
    assert.deepEqual(indexedWords(shares, new Map([["port", ["export", "reports", "thanks"]], ["okta", ["okta"]]])).size, 2);
    // A term in no word: nothing matches, whatever the others.
    assert.deepEqual(indexedWords(shares, new Map([["thanks", ["thanks"]], ["zquork", []]])).get("zquork"), []);
  });
});

describe("searches made only of short terms", () => {
  /** Runs each search's terms through inTurn at once; how many ran at the same time, at most. */
  async function mostAtOnce(searches: string[][]): Promise<number> {
    let running = 0;
    let most = 0;
    const results = await Promise.all(
      searches.map((terms, i) =>
        inTurn(terms, async () => {
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running--;
          return i;
        }),
      ),
    );
    assert.deepEqual(results, searches.map((_, i) => i));
    return most;
  }

  it("take turns, one at a time, while searches with a longer term or none run at once", async () => {
    assert.equal(await mostAtOnce([["x"], ["ok", "é"], ["xj"], ["q"]]), 1);
    assert.equal(await mostAtOnce([["xj", "okta"], ["okta"], [], ["report"]]), 4);
    // A short-only search waits for its turn, but never holds up the others.
    assert.equal(await mostAtOnce([["x"], ["y"], ["okta"], ["xj", "okta"]]), 3);
  });

  it("still take their turns after one of them failed", async () => {
    await assert.rejects(inTurn(["x"], () => Promise.reject(new Error("the database went away"))), /went away/);
    assert.equal(await inTurn(["y"], async () => "next"), "next");
  });
});

/**
 * Boards and statuses of the posts below. A key of the word index is "ς", "b" or "s" and the id's
 * bytes in hex (filterKey): these make keys that hold terms the tests search for ("b1a", "s1a",
 * "a1a" in "ςs1a61"), which a search must never find there.
 */
const BOARDS = ["\u001a", "x"];
const STATUSES = ["\u001aa", "y"];

/** Reads a vocabulary as the server does (vocabularyRead), on `database`, a statement at a time; `between` runs after each. */
function readVocabulary(database: Database.Database, statements: VocabularyStatements | null, between = (_: number) => {}): VocabularyRow[] | null {
  assert.ok(statements);
  const reading = vocabularyRead(statements);
  let step = reading.next();
  for (let i = 0; !step.done; i++) {
    const rows = database.prepare(step.value.sql).all(...step.value.values) as VocabularyRow[];
    between(i);
    step = reading.next(rows);
  }
  return step.value;
}

/**
 * Posts in memory with both full-text indexes and their vocabulary tables as the migrations make
 * them: `count` texts of `alphabet`, each `lengthOf` characters long, drawn in a seeded order,
 * then `extra` texts as given; with the vocabulary read from them, and the rows holding terms
 * found by testing every row.
 */
function indexedPosts(alphabet: string[], seed: number, count: number, lengthOf: (i: number, random: (n: number) => number) => number, extra: string[] = []) {
  const database = new Database(":memory:");
  database.exec(`
    CREATE TABLE "Post" ("seq" INTEGER PRIMARY KEY, "searchText" TEXT NOT NULL, "boardId" TEXT NOT NULL, "statusId" TEXT NOT NULL);
    CREATE VIRTUAL TABLE "PostSearch" USING fts5("searchText", content='Post', content_rowid='seq', tokenize='trigram case_sensitive 1');
    CREATE VIRTUAL TABLE "PostSearchVocab" USING fts5vocab('PostSearch', 'row');
    CREATE VIRTUAL TABLE "PostWords" USING fts5("searchText", content='', contentless_delete=1, detail=none, tokenize='ascii');
    CREATE VIRTUAL TABLE "PostWordsVocab" USING fts5vocab('PostWords', 'row');
    CREATE TABLE "Changelog" ("seq" INTEGER PRIMARY KEY, "searchText" TEXT NOT NULL);
    CREATE TABLE "DataVersion" ("name" TEXT PRIMARY KEY, "version" INTEGER);
    INSERT INTO "DataVersion" VALUES ('Post', 7);`);
  database.exec(readFileSync(new URL("../prisma/migrations/20261202000000_short_texts/migration.sql", import.meta.url), "utf8"));
  let state = seed;
  const random = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 16) % n;
  };
  const insert = database.prepare(`INSERT INTO "Post" ("searchText", "boardId", "statusId") VALUES (?, ?, ?)`);
  const row = (text: string) => [text, BOARDS[random(BOARDS.length)], STATUSES[random(STATUSES.length)]];
  for (let i = 0; i < count; i++) insert.run(...row(Array.from({ length: lengthOf(i, random) }, () => alphabet[random(alphabet.length)]).join("")));
  for (const text of extra) insert.run(...row(text));
  database.exec(`INSERT INTO "PostSearch"("PostSearch") VALUES ('rebuild')`);
  // As the word_index_board_status_keys migration fills it: the text, then the board's key, the status's, and the pair's.
  database.exec(`
    INSERT INTO "PostWords"(rowid, "searchText")
      SELECT "seq", "searchText" || char(10) || 'ςb' || lower(hex("boardId")) || ' ςs' || lower(hex("statusId"))
        || ' ςp' || lower(hex("boardId")) || 'x' || lower(hex("statusId")) FROM "Post"`);
  // Small chunks, so that a read takes many statements.
  const rows = readVocabulary(database, vocabularyStatements("Post", dialects.sqlite, 7));
  assert.ok(rows);
  const vocabulary = vocabularyOf(rows, true);
  const holding = (terms: string[]) =>
    (database.prepare(`SELECT "seq" FROM "Post" t WHERE ${dialects.sqlite.contains("t", terms).sql} ORDER BY "seq"`).all(...terms) as { seq: number }[]).map(
      (r) => r.seq,
    );
  return { database, vocabulary, holding };
}

describe("expanded short terms on a real trigram index", () => {
  // The same tokenizer and vocabulary table as the migrations, on texts of a small alphabet
  // (so that terms meet often; a double quote, which FTS5's query syntax must escape, among
  // them), some too short for a trigram: every term of one and two
  // characters, alone and in pairs, must find through its trigrams exactly the rows that hold it.
  const alphabet = [...`a"é\nß`];
  // Short texts whose terms no trigram holds ("q", "xy"): only the row test finds them.
  const { database, vocabulary, holding } = indexedPosts(alphabet, 12345, 300, (i, random) => (i % 20 === 0 ? 1 + random(2) : 3 + random(12)), ["q", "xy"]);
  const d = dialects.sqlite;

  it("finds exactly the rows holding each term", () => {
    const letters = alphabet.filter((c) => c !== "\n" && c !== " ");
    const terms = [...letters, ...letters.flatMap((a) => letters.map((b) => a + b)), "q", "xy", "y", "qa"];
    let expanded = 0;
    let none = 0;
    for (const a of terms) {
      for (const search of [[a], [a, terms[(terms.indexOf(a) * 7) % terms.length] as string]]) {
        const expansions = expansionsOf(vocabulary, search);
        if ([...expansions.values()].some((trigrams) => !trigrams.length)) {
          none++;
          assert.deepEqual(holding(search), [], `${search}: no trigram holds a term, so no row does`);
          continue;
        }
        if (expansions.size) expanded++;
        const where = d.search("Post", "t", search, { expansions });
        const found = database.prepare(`SELECT "seq" FROM "Post" t WHERE ${where.sql} ORDER BY "seq"`).all(...where.values) as { seq: number }[];
        assert.deepEqual(
          found.map((r) => r.seq),
          holding(search),
          search.join(" "),
        );
      }
    }
    assert.ok(expanded > 20 && none > 0, `expanded ${expanded}, none ${none}`);
  });
});

describe("longer terms on a real word index", () => {
  // The word index as the word_index migration makes it, beside the trigram index, on texts
  // of a small alphabet that mixes word characters (ASCII letters and digits, characters past
  // ASCII) with the ASCII characters that split words: every term of three and four
  // characters found through its words, alone, with another, and with a short term, must find
  // exactly the rows that hold it, and so must the count from the indexes alone.
  const { database, vocabulary, holding } = indexedPosts([..."ab1é\u00a0 -_\n\"."], 4242, 400, (_, random) => 4 + random(14));
  const d = dialects.sqlite;
  const seqs = (sql: { sql: string; values: unknown[] }) => (database.prepare(sql.sql).all(...sql.values) as { seq: number }[]).map((r) => r.seq);

  it("finds exactly the rows holding each term, and counts them from the indexes alone", () => {
    const letters = ["a", "b", "1", "é"];
    const threes = letters.flatMap((a) => letters.flatMap((b) => letters.map((c) => a + b + c)));
    const terms = [...threes, ...threes.slice(0, 16).map((t) => `${t}a`), "a-b", "ab_", "ééé"];
    let byWords = 0;
    let none = 0;
    let keyedCounts = 0;
    for (const [i, a] of terms.entries()) {
      const other = terms[(i * 7 + 3) % terms.length] as string;
      for (const search of [[a], [a, other], [a, "b"]]) {
        const expansions = expansionsOf(vocabulary, search);
        if ([...expansions.values()].some((keys) => !keys.length)) {
          none++;
          assert.deepEqual(holding(search), [], `${search}: in no word, so in no row`);
          continue;
        }
        if (search.some((t) => t.length > 2 && expansions.has(t))) byWords++;
        const where = d.search("Post", "t", search, { expansions });
        const expected = holding(search);
        assert.deepEqual(seqs({ sql: `SELECT "seq" FROM "Post" t WHERE ${where.sql} ORDER BY "seq"`, values: where.values }), expected, search.join(" "));
        const matches = d.matches("Post", search, expansions);
        if (matches) {
          const counted = database.prepare(`SELECT count(*) AS n FROM (${matches.sql})`).get(...matches.values) as { n: number };
          assert.equal(counted.n, expected.length, `count of ${search.join(" ")}`);
        }
        // With a board and a status, by their keys where every term goes through words: the
        // board's and the status's, or the pair's alone.
        const [board, status] = [BOARDS[i % 2] as string, STATUSES[(i >> 1) % 2] as string];
        const filtered = seqs({ sql: `SELECT "seq" FROM "Post" WHERE "boardId" = ? AND "statusId" = ? ORDER BY "seq"`, values: [board, status] });
        for (const keys of [[[filterKey("board", board)], [filterKey("status", status)]], [[filterKey("boardStatus", board, status)]]]) {
          const keyed = d.matches("Post", search, expansions, keys);
          if (keyed) {
            keyedCounts++;
            const counted = database.prepare(`SELECT count(*) AS n FROM (${keyed.sql})`).get(...keyed.values) as { n: number };
            assert.equal(counted.n, expected.filter((seq) => filtered.includes(seq)).length, `count of ${search.join(" ")} on ${JSON.stringify(keys)}`);
          } else assert.ok(!search.every((t) => t.length > 2 && expansions.has(t)), `${search.join(" ")}: every term by words, so keys serve`);
        }
      }
    }
    assert.ok(byWords > 100 && none > 10 && keyedCounts > 50, `through words ${byWords}, in no row ${none}, counted with keys ${keyedCounts}`);
    // The terms with a character that splits words were left to the trigram index.
    assert.ok(!expansionsOf(vocabulary, ["a-b", "ab_"]).size);
  });
});

describe("a search's count from its words, on a real word index", () => {
  // Every text holds "alphabet", a third "okta" and the others "zapier", a fifth "oktaves":
  // past the bound, one word and any part of it are settled by the vocabulary, and so is a term
  // inside one word only; anything else is counted. Then rows are deleted, as a contentless
  // index deletes them, until "alphabet" is within the bound.
  const texts = Array.from(
    { length: SEARCH_TOTAL_LIMIT + 300 },
    (_, i) => `alphabet ${i % 3 === 0 ? "okta" : "zapier"} n${i % 7}${i % 5 === 0 ? " oktaves" : ""}`,
  );
  const { database, vocabulary, holding } = indexedPosts([], 1, 0, () => 0, texts);
  const fromWords = async (v: typeof vocabulary, terms: string[], filters: WordFilters | null = {}) => {
    const expansions = expansionsOf(v, terms);
    return countFromWords(await termRowsOf({ version: 7, expansions, rows: termRows(v, expansions) }, terms, filters));
  };

  it("is the bound's count for one term whose commonest word is past the bound, and the exact count for a term inside one word, with no filter", async () => {
    for (const term of ["alphabet", "pha", "lphabe"]) {
      assert.ok(holding([term]).length > SEARCH_TOTAL_LIMIT);
      assert.equal(await fromWords(vocabulary, [term]), SEARCH_TOTAL_LIMIT + 1, term);
    }
    for (const term of ["zapier", "apie", "oktav", "taves"]) {
      const held = holding([term]).length;
      assert.ok(held > 0 && held < SEARCH_TOTAL_LIMIT, `${term}: ${held}`);
      assert.equal(await fromWords(vocabulary, [term]), held, term);
    }
    assert.equal(await fromWords(vocabulary, ["okta"]), undefined, "in two words (okta, oktaves), within the bound: counted");
    assert.equal(await fromWords(vocabulary, ["alphabet", "okta"]), undefined, "two terms: counted");
    assert.equal(await fromWords(vocabulary, ["alphabet"], { boardId: "b1" }), undefined, "with a board: counted");
    assert.equal(await fromWords(vocabulary, ["zapier"], null), undefined, "with a filter no count is kept by: counted");
    assert.equal(await fromWords(vocabulary, ["al"]), undefined, "a short term goes through trigrams, not words");
    assert.equal(await termRowsOf(undefined, ["alphabet"], {}), undefined, "no plan (no vocabulary yet)");
    assert.equal(countFromWords(undefined), undefined);
    assert.equal(countFromWords({ least: 0, most: 0 }), 0, "words no row holds any more");
  });

  it("reads PostgreSQL's kept counts only for the filters they were read with", async () => {
    // The plan PostgreSQL's lookup gives a changelog search with a status (planTerms): each
    // word's count among the changelogs of that status, read with the words.
    const plan = {
      expansions: new Map(),
      words: new Map([
        ["apie", ["zapier"]],
        ["okta", ["okta", "oktaves"]],
      ]),
      wordRows: { filters: { statusId: "Draft" }, rows: new Map([["zapier", 40], ["okta", 30], ["oktaves", 12]]) },
    };
    assert.deepEqual(await termRowsOf(plan, ["apie"], { statusId: "Draft" }), { least: 40, most: 40 });
    assert.deepEqual(await termRowsOf(plan, ["okta"], { statusId: "Draft" }), { least: 30, most: 42 });
    assert.equal(await termRowsOf(plan, ["apie"], { statusId: "Published" }), undefined, "another status: counted");
    assert.equal(await termRowsOf(plan, ["apie"], {}), undefined, "no status: counted");
    assert.equal(await termRowsOf(plan, ["apie"], null), undefined, "a filter no count is kept by (labels): counted");
    assert.equal(await termRowsOf(plan, ["apie", "okta"], { statusId: "Draft" }), undefined, "two terms: counted");
  });

  it("follows deleted rows: a word that falls within the bound gives its exact count", async () => {
    const gone = database.prepare(`SELECT "seq", "searchText" FROM "Post" ORDER BY "seq" LIMIT 301`).all() as { seq: number; searchText: string }[];
    for (const { seq, searchText } of gone) {
      database.prepare(`INSERT INTO "PostSearch"("PostSearch", rowid, "searchText") VALUES ('delete', ?, ?)`).run(seq, searchText);
      database.prepare(`DELETE FROM "PostWords" WHERE rowid = ?`).run(seq);
      database.prepare(`DELETE FROM "Post" WHERE "seq" = ?`).run(seq);
    }
    const rows = readVocabulary(database, vocabularyStatements("Post", dialects.sqlite, 7));
    assert.ok(rows);
    const after = vocabularyOf(rows, true);
    assert.equal(holding(["alphabet"]).length, SEARCH_TOTAL_LIMIT - 1);
    assert.equal(await fromWords(after, ["alphabet"]), SEARCH_TOTAL_LIMIT - 1);
  });
});

describe("reading a vocabulary on a real index", () => {
  const { database } = indexedPosts([..."ab1é -"], 777, 200, (i, random) => (i % 25 === 0 ? 1 + random(2) : 3 + random(10)), ["q"]);
  const listed = (sql: string) => database.prepare(sql).all() as { term: string; doc: number }[];
  const trigrams = listed(`SELECT "term", "doc" FROM "PostSearchVocab"`);
  const words = listed(`SELECT "term", "doc" FROM "PostWordsVocab" WHERE instr("term", 'ς') = 0`);

  it("lists every trigram and every word with its rows, in chunks of any size, and the short texts through their index", () => {
    assert.ok(trigrams.length > 40 && words.length > 20, `${trigrams.length} trigrams, ${words.length} words`);
    for (const chunk of [1, 5, trigrams.length - 1, trigrams.length, 1000]) {
      let statements = 0;
      const rows = readVocabulary(database, vocabularyStatements("Post", dialects.sqlite, chunk), () => statements++);
      assert.ok(rows);
      assert.ok(rows.every((row) => row.dataVersion === 7));
      const terms = (word: boolean) => rows.filter((row) => row.term !== null && Boolean(row.word) === word).map(({ term, doc }) => ({ term, doc }));
      assert.deepEqual(terms(false), trigrams, `trigrams by ${chunk}`);
      assert.deepEqual(terms(true), words, `words by ${chunk}`);
      assert.deepEqual(rows.filter((row) => row.text !== null).map((row) => row.text).sort(), listed(`SELECT "searchText" AS "term" FROM "Post" WHERE length("searchText") < 3`).map((r) => r.term).sort());
      // The short texts, then each kind's chunks, the last one short.
      assert.equal(statements, 1 + Math.floor(trigrams.length / chunk) + 1 + Math.floor(words.length / chunk) + 1, `statements by ${chunk}`);
    }
    const statements = vocabularyStatements("Post", dialects.sqlite);
    assert.ok(statements?.words);
    const plan = (sql: { sql: string; values: unknown[] }) =>
      (database.prepare(`EXPLAIN QUERY PLAN ${sql.sql}`).all(...sql.values) as { detail: string }[]).map((row) => row.detail).join("; ");
    assert.match(plan(statements.shortTexts), /USING COVERING INDEX Post_searchText_short_texts_idx/);
    // The vocabulary table gives its terms in order: no chunk sorts what it reads.
    for (const chunk of [statements.trigrams("ab"), statements.words("ab")]) assert.doesNotMatch(plan(chunk), /TEMP B-TREE/);
  });

  it("gives nothing when a write moves the version between two statements, at any of them", () => {
    const count = (() => {
      let n = 0;
      readVocabulary(database, vocabularyStatements("Post", dialects.sqlite, 16), () => n++);
      return n;
    })();
    assert.ok(count > 4);
    for (let at = 0; at < count - 1; at++) {
      const rows = readVocabulary(database, vocabularyStatements("Post", dialects.sqlite, 16), (i) => {
        if (i === at) database.prepare(`UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Post'`).run();
      });
      assert.equal(rows, null, `moved after statement ${at}`);
    }
    // After the last statement, the read is whole: it holds for the version it read.
    const rows = readVocabulary(database, vocabularyStatements("Post", dialects.sqlite, 16), (i) => {
      if (i === count - 1) database.prepare(`UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Post'`).run();
    });
    assert.ok(rows);
    assert.equal(vocabularyOf(rows, true).version + 1, (database.prepare(`SELECT "version" FROM "DataVersion" WHERE "name" = 'Post'`).get() as { version: number }).version);
  });
});

describe("a search's words found in a table's word list (PostgreSQL)", () => {
  const count = (boardId: string, statusId: string, rows: number): WordCount => ({ boardId, statusId, rows });
  const list = (words: [string, WordCount[]][], tooLong = false) => ({ version: 9, words: new Map(words), tooLong });

  it("are the words that contain each term, as the database's lookup gives them, with their counts by the filters asked for", () => {
    const words = list([
      ["okta", [count("b1", "s1", 3), count("b1", "", 2), count("b2", "s1", 5)]],
      ["oktas", [count("b2", "s2", 1)]],
      ["gone", []],
      ["other", [count("b1", "s1", 7)]],
    ]);
    assert.deepEqual(heldIn(words, ["okta", "zzz"], undefined), { holding: new Map([["okta", ["okta", "oktas"]], ["zzz", []]]), wordRows: undefined, version: 9 });
    const onBoard = heldIn(words, ["kta"], { boardId: "b1" });
    assert.deepEqual(onBoard.wordRows, { filters: { boardId: "b1" }, rows: new Map([["okta", 5], ["oktas", 0]]) });
    assert.deepEqual(heldIn(words, ["kta"], { boardId: "b2", statusId: "s1" }).wordRows?.rows, new Map([["okta", 5], ["oktas", 0]]));
    assert.deepEqual(heldIn(words, ["kta", "gone"], {}).wordRows?.rows, new Map([["okta", 10], ["oktas", 1], ["gone", 0]]));
    // No term in any word: nothing to count.
    assert.equal(heldIn(words, ["zzz"], {}).wordRows, undefined);
  });

  it("are read from the statement's rows: each word once with its counts, none for a word no row counts, the version without words", () => {
    const at = (word: string | null, boardId: string | null = null, statusId: string | null = null, rows: number | null = null) => ({ word, boardId, statusId, rows, dataVersion: 4 });
    const list = wordListOf([at("okta", "b1", "s1", 3), at("gone"), at("okta", "b2", "", 1)]);
    assert.deepEqual(list, { version: 4, words: new Map([["okta", [count("b1", "s1", 3), count("b2", "", 1)]], ["gone", []]]), tooLong: false });
    assert.deepEqual(wordListOf([at(null)]), { version: 4, words: new Map(), tooLong: false });
    assert.equal(wordListOf([at("okta"), at("")]).tooLong, true);
    assert.equal(wordListOf([]).version, -1);
  });

  it("leave out a term in more than EXPAND_WORDS words, and every term once a text held a word too long for the index", () => {
    const many = list(Array.from({ length: EXPAND_WORDS + 1 }, (_, i): [string, WordCount[]] => [`set${i}`, [count("b1", "s1", 1)]]));
    assert.deepEqual(heldIn(many, ["set", "set1"], {}).holding, new Map([["set1", ["set1", "set10", "set11", "set12", "set13", "set14", "set15", "set16", "set17", "set18", "set19"]]]));
    assert.deepEqual(heldIn(list([["okta", []], ["", []]], true), ["okta"], {}), { holding: new Map(), version: 9 });
  });
});
