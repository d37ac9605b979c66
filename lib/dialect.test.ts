import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { storedTime } from "../tests/support/sql";
import { postgres, sqlite } from "./dialect";

describe("SQLite values", () => {
  it("binds times as its adapter stores them and booleans as 0/1", () => {
    assert.equal(sqlite.encode(new Date("2026-01-02T03:04:05.006Z")), "2026-01-02T03:04:05.006+00:00");
    assert.equal(sqlite.encode(true), 1);
    assert.equal(sqlite.encode(false), 0);
    assert.equal(sqlite.encode("text"), "text");
    assert.equal(sqlite.encode(null), null);
  });

  it("reads stored times back as Date and 0/1 as boolean, keeping nulls", () => {
    const time = sqlite.decode.time;
    const bool = sqlite.decode.bool;
    assert.ok(time && bool);
    assert.deepEqual(time("2026-01-02T03:04:05.006+00:00"), new Date("2026-01-02T03:04:05.006Z"));
    assert.equal(time(null), null);
    assert.equal(bool(1), true);
    assert.equal(bool(0), false);
    assert.equal(bool(null), null);
    assert.equal(sqlite.decode.int, undefined, "better-sqlite3 returns numbers");
  });
});

describe("PostgreSQL values", () => {
  it("reads counts (bigint) as numbers; Prisma already gives Date and boolean", () => {
    const int = postgres.decode.int;
    assert.ok(int);
    assert.equal(int(42n), 42);
    assert.equal(int(null), null);
    assert.equal(postgres.decode.time, undefined);
    assert.equal(postgres.decode.bool, undefined);
  });

  it("casts each placeholder of a hand-built insert to its column's type", () => {
    assert.deepEqual(
      (["text", "int", "bool", "time"] as const).map((kind, i) => postgres.placeholder(i + 1, kind)),
      ["$1::text", "$2::integer", "$3::boolean", "$4::timestamp(3)"],
    );
    assert.equal(sqlite.placeholder(3, "time"), "?");
  });
});

describe("substring tests", () => {
  it("use instr on SQLite and strpos on PostgreSQL, one per term", () => {
    assert.equal(sqlite.contains("u", ["a", "b"]).sql, `instr(u."searchText", ?) > 0 AND instr(u."searchText", ?) > 0`);
    assert.equal(postgres.contains("u", ["a"]).sql, `strpos(u."searchText", ?) > 0`);
  });
});

describe("SQLite's full-text queries", () => {
  const words = new Map([
    ["okta", ["okta", "oktas"]],
    ["port", ["export", "report"]],
  ]);

  it("go to the word index when every term is expanded into words", () => {
    const matches = sqlite.matches("Post", ["okta", "port"], words);
    assert.equal(matches?.sql, `SELECT rowid AS "seq" FROM "PostWords" WHERE "PostWords" MATCH ?`);
    assert.deepEqual(matches?.values, [`("okta" OR "oktas") AND ("export" OR "report")`]);
  });

  it("go to the trigram index alone when a term is not, a longer term as its own phrase and a short one by its trigrams", () => {
    const expansions = new Map([...words, ["xj", ["axj", "xjo"]]]);
    const matches = sqlite.matches("Post", ["okta", "for", "xj"], expansions);
    assert.equal(matches?.sql, `SELECT rowid AS "seq" FROM "PostSearch" WHERE "PostSearch" MATCH ?`);
    assert.deepEqual(matches?.values, [`"okta" AND "for" AND ("axj" OR "xjo")`]);
    const search = sqlite.search("Post", "t", ["okta", "for"], { walk: true, expansions });
    assert.equal(search.sql, `+t."seq" IN (SELECT rowid FROM "PostSearch" WHERE "PostSearch" MATCH ?)`);
    assert.deepEqual(search.values, [`"okta" AND "for"`]);
  });
});

describe("PostgreSQL's searches by words", () => {
  const words = new Map([["kta", ["okta", "oktas"]]]);

  it("find a count's words through the word index, and test a page's terms with LIKE", () => {
    const page = postgres.search("Post", "t", ["kta", "for"], { expansions: words });
    assert.equal(page.text, `t."searchText" LIKE $1 ESCAPE '\\' AND t."searchText" LIKE $2 ESCAPE '\\'`);
    assert.deepEqual(page.values, ["%kta%", "%for%"]);
    const count = postgres.search("Post", "t", ["kta", "for"], { expansions: words, counting: true });
    assert.equal(count.text, `"search_words"(t."searchText") && ARRAY[$1,$2]::text[] AND t."searchText" LIKE $3 ESCAPE '\\'`);
  });

  it("look each term's words up in one statement, and nowhere on SQLite, which reads them with its vocabulary", () => {
    const lookup = postgres.wordsHolding("Changelog", ["okta", "50%"], 65);
    const text = lookup?.text.replace(/\s+/g, " ") ?? "";
    assert.match(text, /^SELECT h\."term", h\."word", NULL::bigint AS "rows", v\."version" AS "dataVersion" FROM "DataVersion" v LEFT JOIN \(/);
    assert.match(text, /\(\(SELECT \$1::text AS "term", w\."word" FROM "SearchWord" w WHERE w\."table" = \$2 AND w\."word" LIKE \$3 ESCAPE '\\' LIMIT \$4\) UNION ALL \(SELECT \$5::text/);
    assert.deepEqual(lookup?.values, ["okta", "Changelog", "%okta%", 65, "50%", "Changelog", "%50\\%%", 65, "Changelog", "Changelog"]);
    // The row that says a text held a word too long for the index (kept as the empty string).
    assert.match(text, / UNION ALL \(SELECT NULL, w\."word" FROM "SearchWord" w WHERE w\."table" = \$9 AND w\."word" = ''\)\) h ON true WHERE v\."name" = \$10$/);
    assert.equal(sqlite.wordsHolding("Post", ["okta"], 65), null);
  });

  it("read a table's whole word list with its counts and version, on one snapshot, and nowhere on SQLite", () => {
    const list = postgres.wordList("Post", 200_001);
    assert.match(list?.text.replace(/\s+/g, " ") ?? "", /^SELECT w\."word", r\."boardId", r\."statusId", r\."rows", v\."version" AS "dataVersion" FROM "DataVersion" v LEFT JOIN "SearchWord" w ON w\."table" = v\."name" LEFT JOIN "SearchWordRows" r ON r\."table" = w\."table" AND r\."word" = w\."word" WHERE v\."name" = \$1 LIMIT \$2$/);
    assert.deepEqual(list?.values, ["Post", 200_001]);
    assert.equal(sqlite.wordList("Post", 10), null);
  });

  it("count each word's rows with the words, in the table searched, by the filters asked for", () => {
    const filtered = postgres.wordsHolding("Post", ["okta"], 65, { boardId: "b1", statusId: "s1" });
    const text = filtered?.text.replace(/\s+/g, " ") ?? "";
    assert.match(text, /CASE WHEN h\."term" IS NOT NULL AND count\(\*\) OVER \(PARTITION BY h\."term"\) < \$\d+ THEN coalesce\(\( SELECT sum\(r\."rows"\) FROM "SearchWordRows" r WHERE r\."table" = \$\d+ AND r\."word" = h\."word" AND r\."boardId" = \$\d+ AND r\."statusId" = \$\d+\), 0\) END AS "rows"/);
    assert.deepEqual(filtered?.values.slice(0, 4), [65, "Post", "b1", "s1"]);
    const unfiltered = postgres.wordsHolding("Post", ["okta"], 65, {})?.text ?? "";
    assert.match(unfiltered, /r\."word" = h\."word"\), 0\) END AS "rows"/);
    // The changelogs' counts are kept by status alone (the changelog_word_rows migration).
    const changelogs = postgres.wordsHolding("Changelog", ["okta"], 65, { statusId: "Draft" });
    assert.match(changelogs?.text.replace(/\s+/g, " ") ?? "", /WHERE r\."table" = \$\d+ AND r\."word" = h\."word" AND r\."statusId" = \$\d+\), 0\) END AS "rows"/);
    assert.deepEqual(changelogs?.values.slice(0, 3), [65, "Changelog", "Draft"]);
    assert.match(postgres.wordsHolding("Post", ["okta"], 65)?.text ?? "", /NULL::bigint AS "rows"/);
  });
});

// tests/support/sql.ts spells out the stored time format, since the benchmark loads it where
// this module cannot load: the two must not drift apart.
describe("the tests' hand-written times", () => {
  it("are the times each engine's encoder binds", () => {
    for (const at of [new Date("2026-01-02T03:04:05.006Z"), new Date(0), new Date("2026-11-24T23:59:59.999Z")]) {
      assert.equal(storedTime("file:/tmp/x.db", at), sqlite.encode(at));
      assert.equal(storedTime("postgresql://u@h/db", at), postgres.encode(at));
    }
  });
});
