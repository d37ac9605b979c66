import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Dialect, dialects } from "../dialect";
import { after } from "../keyset";
import { bitsCountSql, countAndPageSql, countGathersPage, countSql, orderOn, POST_ORDERS, pageSql, postFilter, rowsSql } from "./queries";
import type { ListPostsQuery } from "./schemas";
import { countByWords, walkLength, walkSql } from "./search-plan";

// The SQL each engine gets for a post list. The speed of the list rests on its shape (see the
// comments in queries.ts and search-plan.ts); a refactor that loses a piece fails here.

const query = (over: Partial<ListPostsQuery> = {}): ListPostsQuery => ({
  id: undefined,
  search: undefined,
  cursor: undefined,
  boardId: undefined,
  statusId: undefined,
  postedById: undefined,
  sortBy: "latest",
  page: 1,
  limit: 20,
  ...over,
});
const oneLine = (sql: string) => sql.replace(/\s+/g, " ").trim();

for (const d of Object.values(dialects)) {
  describe(`post list SQL on ${d.engine}`, () => {
    it(`pages through the index first, then starts from the page with a CROSS JOIN, the names ${d.namesByKey ? "looked up by key" : "joined"}`, () => {
      const filter = postFilter(query({ boardId: "b1" }), d);
      const sql = oneLine(rowsSql(pageSql(filter, "top", 20, 40), "top", d).sql);
      assert.match(
        sql,
        /FROM \(SELECT t\."id" FROM "Post" t WHERE t\."boardId" = \? ORDER BY t\."upvotes" DESC, t\."createdAt" DESC, t\."id" DESC LIMIT \? OFFSET \?\) page CROSS JOIN "Post" p( JOIN .*)? WHERE/,
      );
      if (d.namesByKey) {
        assert.match(sql, /\(SELECT b\."name" FROM "Board" b WHERE b\."id" = p\."boardId"\) AS "boardName"/);
        assert.doesNotMatch(sql, /\bJOIN "(Board|PostStatus|User)"/);
      } else {
        assert.match(sql, /CROSS JOIN "Post" p JOIN "Board" b ON b\."id" = p\."boardId" LEFT JOIN "PostStatus" s ON s\."id" = p\."statusId" JOIN "User" u ON u\."id" = p\."postedById" WHERE/);
        assert.doesNotMatch(sql, /\(SELECT [bsu]\./);
      }
      assert.match(sql, /WHERE p\."id" = page\."id" ORDER BY p\."upvotes" DESC, p\."createdAt" DESC, p\."id" DESC$/);
    });

    it("counts a filtered search on the table, stopping one past the bound", () => {
      const filter = postFilter(query({ statusId: "s1", search: "dark mode" }), d);
      const sql = countSql(filter, d);
      assert.match(oneLine(sql.sql), /^SELECT count\(\*\) AS "total" FROM \(SELECT 1 FROM "Post" t WHERE t\."statusId" = \? AND .* LIMIT \?\) counted$/);
      assert.equal(sql.values.at(-1), 10_001);
    });

    it("counts a list without a search exactly", () => {
      const sql = countSql(postFilter(query({ boardId: "b1" }), d), d);
      assert.equal(oneLine(sql.sql), `SELECT count(*) AS "total" FROM "Post" t WHERE t."boardId" = ?`);
    });

    it("starts a page after a key with one row-value comparison that an index can seek", () => {
      const filter = { ...postFilter(query({ boardId: "b1" }), d), start: after(POST_ORDERS.top, "t", [5, new Date(0), "p9"]) };
      const sql = oneLine(pageSql(filter, "top", 21, 0).sql);
      assert.match(sql, /WHERE t\."boardId" = \? AND \(t\."upvotes", t\."createdAt", t\."id"\) < \(\?,\?,\?\) ORDER BY/);
    });
  });
}

describe("post search on SQLite", () => {
  const d = dialects.sqlite;

  it("gathers the page while counting only when a rare term's rows are read anyway", () => {
    assert.equal(countGathersPage(postFilter(query({ search: "dark mode" }), d), undefined), false, "the trigram index counts alone");
    assert.equal(countGathersPage(postFilter(query({ search: "dark mode" }), d, { through: ["dark"] }), undefined), true, "a rare term, the other tested on its rows");
    assert.equal(countGathersPage(postFilter(query({ search: "dark mode" }), d, { through: ["dark"] }), "cursor"), false, "a cursor's page starts mid-list");
    assert.equal(countGathersPage(postFilter(query({ boardId: "b1" }), d), undefined), false, "no search");
  });

  it("gathers a search's matches once, counts them, and sorts the page out of them and joins its rows only within the bound", () => {
    const filter = postFilter(query({ boardId: "b1", search: "dark mode" }), d, { through: ["dark"] });
    const sql = countAndPageSql(filter, "top", 21, 40, d);
    assert.match(
      oneLine(sql.sql),
      /^WITH m AS MATERIALIZED \(SELECT t\."id", t\."upvotes", t\."createdAt" FROM "Post" t WHERE t\."boardId" = \? AND .* LIMIT \?\) SELECT c\."total", r\.\* FROM \(SELECT count\(\*\) AS "total" FROM m\) c LEFT JOIN \( SELECT p\."id", .* FROM \( SELECT m\."id" FROM m WHERE \(SELECT count\(\*\) FROM m\) <= \? ORDER BY m\."upvotes" DESC, m\."createdAt" DESC, m\."id" DESC LIMIT \? OFFSET \?\) page CROSS JOIN "Post" p .* WHERE p\."id" = page\."id" ORDER BY .*\) r ON TRUE ORDER BY r\."upvotes" DESC, r\."createdAt" DESC, r\."id" DESC$/,
    );
    assert.deepEqual(sql.values.slice(-4), [10_001, 10_000, 21, 40]);
  });

  it("asks the FTS5 trigram table for terms of three characters or more, in one MATCH", () => {
    const { where } = postFilter(query({ search: 'Dark "MODE"' }), d);
    assert.equal(oneLine(where.sql), `WHERE t."seq" IN (SELECT rowid FROM "PostSearch" WHERE "PostSearch" MATCH ?)`);
    assert.deepEqual(where.values, ['"dark" AND """mode"""']);
  });

  it("tests shorter terms row by row with instr, which has no wildcards", () => {
    const { where } = postFilter(query({ search: "dark %_" }), d);
    assert.equal(
      oneLine(where.sql),
      `WHERE t."seq" IN (SELECT rowid FROM "PostSearch" WHERE "PostSearch" MATCH ?) AND instr(t."searchText", ?) > 0`,
    );
    assert.deepEqual(where.values, ['"dark"', "%_"]);
  });

  it("with a filter, tests the filter index's entries against the matches instead of reading each match's row", () => {
    const { where } = postFilter(query({ boardId: "b1", search: "dark" }), d);
    assert.equal(oneLine(where.sql), `WHERE t."boardId" = ? AND +t."seq" IN (SELECT rowid FROM "PostSearch" WHERE "PostSearch" MATCH ?)`);
  });

  it("finds only a rare term through the index when told, testing the others on its rows", () => {
    const filter = postFilter(query({ search: "137 people" }), d, { through: ["137"] });
    assert.equal(
      oneLine(filter.where.sql),
      `WHERE t."seq" IN (SELECT rowid FROM "PostSearch" WHERE "PostSearch" MATCH ?) AND instr(t."searchText", ?) > 0`,
    );
    assert.deepEqual(filter.where.values, ['"137"', "people"]);
    assert.match(oneLine(countSql(filter, d).sql), /FROM \(SELECT 1 FROM "Post" t WHERE/, "counted on the rows, not by the index alone");
  });

  it("counts a search on its own from the index alone, when the index answers every term", () => {
    assert.equal(
      oneLine(countSql(postFilter(query({ search: "dark mode" }), d), d).sql),
      `SELECT count(*) AS "total" FROM (SELECT rowid AS "seq" FROM "PostSearch" WHERE "PostSearch" MATCH ? LIMIT ?) counted`,
    );
    assert.match(countSql(postFilter(query({ search: "dark ab" }), d), d).sql, /FROM "Post" t WHERE/);
  });

  it("counts a search by words with board and/or status from the word index alone, with their keys", () => {
    const words = new Map([["dark", ["dark", "darker"]]]);
    const board = Buffer.from("b1").toString("hex");
    const status = Buffer.from("s1").toString("hex");
    const both = countSql(postFilter(query({ boardId: "b1", statusId: "s1", search: "dark" }), d, { expansions: words }), d);
    assert.equal(oneLine(both.sql), `SELECT count(*) AS "total" FROM (SELECT rowid AS "seq" FROM "PostWords" WHERE "PostWords" MATCH ? LIMIT ?) counted`);
    // Both filters by the pair's one key; one of them by its own.
    assert.deepEqual(both.values, [`("dark" OR "darker") AND "ςp${board}x${status}"`, 10_001]);
    assert.deepEqual(countSql(postFilter(query({ statusId: "s1", search: "dark" }), d, { expansions: words }), d).values, [`("dark" OR "darker") AND "ςs${status}"`, 10_001]);
    // A page the index finds tests the filter's index against the keyed matches.
    const filter = postFilter(query({ boardId: "b1", statusId: "s1", search: "dark" }), d, { expansions: words });
    assert.equal(
      oneLine(filter.where.sql),
      `WHERE t."boardId" = ? AND t."statusId" = ? AND +t."seq" IN (SELECT rowid FROM "PostWords" WHERE "PostWords" MATCH ?)`,
    );
    assert.deepEqual(filter.where.values, ["b1", "s1", `("dark" OR "darker") AND "ςp${board}x${status}"`]);
    // Not through the trigram index, which holds no keys; not with a filter that has no key.
    assert.match(countSql(postFilter(query({ boardId: "b1", search: "dark" }), d), d).sql, /FROM "Post" t WHERE/);
    assert.match(countSql(postFilter(query({ postedById: "u1", search: "dark" }), d, { expansions: words }), d).sql, /FROM "Post" t WHERE/);
    assert.match(countSql(postFilter(query({ boardId: "b1", id: ["p1"], search: "dark" }), d, { expansions: words }), d).sql, /FROM "Post" t WHERE/);
  });

  it("walks a bounded prefix of the sort order, testing each row", () => {
    const filter = postFilter(query({ boardId: "b1", search: "dark" }), d);
    const order = orderOn("latest");
    const walk = walkSql({ filter, order, limit: 20, offset: 0 }, 1000, d);
    assert.ok(walk);
    assert.equal(
      oneLine(walk.sql),
      `SELECT w."id" FROM ( SELECT t."id", t."searchText", t."upvotes", t."createdAt" FROM "Post" t WHERE t."boardId" = ? ORDER BY t."createdAt" DESC, t."id" DESC LIMIT ?) w WHERE instr(w."searchText", ?) > 0 ORDER BY w."createdAt" DESC, w."id" DESC LIMIT ? OFFSET ?`,
    );
    assert.deepEqual(walk.values, ["b1", 1000, "dark", 20, 0]);
  });

  it("takes a term's count for choosing the rare one from its words' rows only where they settle it", () => {
    assert.equal(countByWords({ least: 900, most: 1_800 }), 1_800, "rare, whatever rows its words share");
    assert.equal(countByWords({ least: 2_001, most: 2_001 }), 2_001, "common: one word in more rows than the bound");
    assert.equal(countByWords({ least: 1_500, most: 2_500 }), undefined, "either: the index is asked");
    assert.equal(countByWords(undefined), undefined, "not found through words: the index is asked");
  });

  it("walks twice what the matches' share predicts, and asks the index when that is long", () => {
    assert.equal(walkLength(21, 10_001, 1_000_000), 4200, "a common word (a bounded count): twice what its least share predicts");
    assert.equal(walkLength(21, 10_001, 20_000), 84, "a bounded count in a small table: a short walk");
    assert.equal(walkLength(101, 10_001, 1_000_000), 20198, "a bounded count walks up to 50,000 rows");
    assert.equal(walkLength(1001, 10_001, 1_000_000), null, "a common word's deep page goes to the index");
    assert.equal(walkLength(21, 5_000, 1_000_000), 8400, "two words together: twice their share predicts");
    assert.equal(walkLength(21, 1_000, 1_000_000), null, "a rare word goes to the index");
    assert.equal(walkLength(21, 30, 40), 56, "never shorter than the page");
    assert.equal(walkLength(21, 0, 1_000_000), null, "no matches, no walk");
  });
});

describe("post search on PostgreSQL", () => {
  const d = dialects.postgres;

  it("gathers the page while counting only for a rare term of several: its planner finds the others' pages", () => {
    assert.equal(countGathersPage(postFilter(query({ search: "dark mode" }), d), undefined), false);
    assert.equal(countGathersPage(postFilter(query({ search: "dark", boardId: "b1" }), d), undefined), false);
    const words = new Map([["137", ["137"]]]);
    assert.equal(countGathersPage(postFilter(query({ search: "137 people" }), d, { through: ["137"], words }), undefined), true);
  });

  it("finds a rare term of several by its words and tests the others on its rows, on the page and in the count", () => {
    // "people" is in the plan's words too, and in its expansions (rare enough together), but not through.
    const plan = { through: ["137"], expansions: new Map([["people", ["people"]]]), words: new Map([["137", ["137", "1370"]], ["people", ["people"]]]) };
    for (const filters of [{}, { boardId: "b1", statusId: "s1" }]) {
      const filter = postFilter(query({ ...filters, search: "137 people a" }), d, plan);
      const rare = `"search_words"(t."searchText") && ARRAY[?,?]::text[] AND strpos(t."searchText", ?) > 0 AND strpos(t."searchText", ?) > 0`;
      for (const sql of [pageSql(filter, "top", 20, 0), countSql(filter, d), countAndPageSql(filter, "top", 21, 0)]) {
        assert.ok(oneLine(sql.sql).includes(rare), oneLine(sql.sql));
        assert.ok(!oneLine(sql.sql).includes("LIKE"), oneLine(sql.sql));
        const at = sql.values.indexOf("137");
        assert.deepEqual(sql.values.slice(at, at + 4), ["137", "1370", "people", "a"]);
      }
    }
    // Without its words (a word too long for the index was written), the rare term keeps LIKE.
    const without = postFilter(query({ search: "137 people" }), d, { through: ["137"] });
    assert.match(oneLine(pageSql(without, "latest", 20, 0).sql), /t\."searchText" LIKE \? ESCAPE '\\' AND strpos\(t\."searchText", \?\) > 0/);
  });

  it("is a LIKE per term that pg_trgm serves, with every wildcard escaped", () => {
    const { where } = postFilter(query({ search: "Dark 100% a_b c\\d" }), d);
    assert.equal(
      oneLine(where.sql),
      `WHERE t."searchText" LIKE ? ESCAPE '\\' AND t."searchText" LIKE ? ESCAPE '\\' AND t."searchText" LIKE ? ESCAPE '\\' AND t."searchText" LIKE ? ESCAPE '\\'`,
    );
    assert.deepEqual(where.values, ["%dark%", "%100\\%%", "%a\\_b%", "%c\\\\d%"]);
  });

  it("leaves the plan to the planner and counts on the table", () => {
    assert.equal(d.plansSearchByHand, false);
    assert.match(countSql(postFilter(query({ search: "dark mode" }), d), d).sql, /FROM "Post" t WHERE/);
  });
});

describe("post count SQL on PostgreSQL", () => {
  it("tests no row for a short term the index of short substrings serves, and the page still does", () => {
    const filter = postFilter(query({ boardId: "b1", search: "xj e" }), dialects.postgres, { expansions: new Map([["xj", ["xj"]]]) });
    const grams = `"search_short_grams"(t."searchText") @> ARRAY[?]::text[]`;
    assert.equal(
      oneLine(pageSql(filter, "latest", 20, 0).sql),
      `SELECT t."id" FROM "Post" t WHERE t."boardId" = ? AND strpos(t."searchText", ?) > 0 AND strpos(t."searchText", ?) > 0 AND ${grams} ORDER BY t."createdAt" DESC, t."id" DESC LIMIT ? OFFSET ?`,
    );
    assert.match(oneLine(countSql(filter, dialects.postgres).sql), /FROM "Post" t WHERE t\."boardId" = \? AND strpos\(t\."searchText", \?\) > 0 AND "search_short_grams"/);
    assert.deepEqual(countSql(filter, dialects.postgres).values, ["b1", "e", "xj", 10_001]);
  });

  it("counts a longer term by its words, however common, with board and/or status only", () => {
    const d = dialects.postgres;
    // "dark" too common for the word index alone (no expansion), with its words known.
    const plan = { expansions: new Map([["xj", ["xj"]]]), words: new Map([["dark", ["dark", "darkest"]]]) };
    const words = `"search_words"(t."searchText") && ARRAY[?,?]::text[]`;
    for (const filters of [{ boardId: "b1" }, { statusId: "s1" }, { boardId: "b1", statusId: "s1" }]) {
      const filter = postFilter(query({ ...filters, search: "dark xj" }), d, plan);
      const count = countSql(filter, d);
      assert.ok(oneLine(count.sql).includes(words), oneLine(count.sql));
      assert.deepEqual(count.values.slice(-4, -1), ["dark", "darkest", "xj"], "the words, then the short term's key");
      assert.match(oneLine(pageSql(filter, "latest", 20, 0).sql), /t\."searchText" LIKE \?/, "the page keeps LIKE");
      // Board and status together by the pair's one key in the word index; the page walks their b-tree.
      const pair = `"post_board_status"(t."boardId", t."statusId") = "post_board_status"(?, ?)`;
      const both = "boardId" in filters && "statusId" in filters;
      assert.equal(oneLine(count.sql).includes(pair), both, oneLine(count.sql));
      assert.equal(/t\."boardId" = \?/.test(count.sql), "boardId" in filters && !both, oneLine(count.sql));
      if (both) assert.deepEqual(count.values.slice(0, 2), ["b1", "s1"]);
      assert.match(oneLine(pageSql(filter, "latest", 20, 0).sql), "boardId" in filters ? /t\."boardId" = \?/ : /t\."statusId" = \?/);
    }
    // A count not by words keeps the two conditions, which a b-tree serves.
    const plainCount = oneLine(countSql(postFilter(query({ boardId: "b1", statusId: "s1", search: "xj" }), d, plan), d).sql);
    assert.match(plainCount, /t\."boardId" = \? AND t\."statusId" = \?/);
    assert.ok(!plainCount.includes("post_board_status"), plainCount);
    // Without those filters, or with one no index holds beside the words: LIKE, as before.
    for (const filters of [{}, { postedById: "u1" }, { boardId: "b1", id: ["p1"] }]) {
      const count = oneLine(countSql(postFilter(query({ ...filters, search: "dark xj" }), d, plan), d).sql);
      assert.ok(!count.includes("search_words"), count);
      assert.match(count, /t\."searchText" LIKE \?/);
    }
  });

  it("counts terms all found by their words from the bitmaps of their words, board and status", () => {
    const d = dialects.postgres;
    const plan = { words: new Map([["dark", ["dark", "darkest"]], ["mode", ["mode"]]]) };
    const term = (n: number, words: string) => `(SELECT "chunk", bit_or("bits") AS "bits" FROM "PostWordBits" WHERE "word" IN (${words}) GROUP BY "chunk") t${n}`;
    const count = bitsCountSql(postFilter(query({ search: "dark mode" }), d, plan), d);
    assert.equal(
      oneLine(count?.sql ?? ""),
      `SELECT LEAST(coalesce(sum(bit_count(t0."bits" & t1."bits")), 0), ?)::bigint AS "total" FROM ${term(0, "?,?")} JOIN ${term(1, "?")} USING ("chunk")`,
    );
    assert.deepEqual(count?.values, [10_001, "dark", "darkest", "mode"]);
    // A board and a status are two more bitmaps.
    const filtered = bitsCountSql(postFilter(query({ search: "dark", boardId: "b1", statusId: "s1" }), d, plan), d);
    assert.equal(
      oneLine(filtered?.sql ?? ""),
      `SELECT LEAST(coalesce(sum(bit_count(t0."bits" & t1."bits" & t2."bits")), 0), ?)::bigint AS "total" FROM ${term(0, "?,?")} JOIN ${term(1, "?")} USING ("chunk") JOIN ${term(2, "?")} USING ("chunk")`,
    );
    assert.deepEqual(filtered?.values, [10_001, "dark", "darkest", "board:b1", "status:s1"]);
    // An author or ids, a term whose words are not known, no search, or SQLite: none.
    const others: [Partial<ListPostsQuery>, string, Dialect][] = [
      [{ postedById: "u1" }, "dark mode", d],
      [{ boardId: "b1", id: ["p1"] }, "dark mode", d],
      [{}, "dark mode xj", d],
      [{ boardId: "b1" }, "", d],
      [{}, "dark mode", dialects.sqlite],
    ];
    for (const [filters, search, dialect] of others) {
      assert.equal(bitsCountSql(postFilter(query({ ...filters, search }), dialect, plan), dialect), null, `${JSON.stringify(filters)} ${search}`);
    }
  });
});
