import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialects } from "../dialect";
import { bitsCountSql, changelogKeys, changelogWhere, countSql, pageSql, scanFinds, walkFinds } from "./queries";
import type { ListChangelogsQuery } from "./schemas";

// The SQL each engine gets for a changelog list; see the comments in queries.ts for why each
// piece is there.

const query = (over: Partial<ListChangelogsQuery> = {}): ListChangelogsQuery => ({
  id: undefined,
  search: undefined,
  cursor: undefined,
  status: undefined,
  labels: undefined,
  page: 1,
  limit: 20,
  ...over,
});
const oneLine = (sql: string) => sql.replace(/\s+/g, " ").trim();
const EXISTS = `EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = t."id" AND l."nameKey" IN (?,?)`;

describe("changelog list SQL", () => {
  it("tests a changelog's own label keys on PostgreSQL, by folded names, each once", () => {
    const where = changelogWhere(query({ labels: ["API", "Fixed", "api"] }), dialects.postgres);
    assert.equal(oneLine(where.sql), `WHERE t."labelKeys" && ARRAY[?,?]::text[]`);
    assert.deepEqual(where.values, ["api", "fixed"]);
  });

  it("probes labels per row with a correlated EXISTS on SQLite, which plans it per row by itself", () => {
    const where = changelogWhere(query({ labels: ["API", "Fixed"] }), dialects.sqlite);
    assert.equal(oneLine(where.sql), `WHERE ${EXISTS})`);
    assert.deepEqual(where.values, ["api", "fixed"]);
  });

  it("searches through the FTS5 table on SQLite, walking the status index when filtered", () => {
    const where = changelogWhere(query({ status: "Published", search: "webhooks" }), dialects.sqlite);
    assert.equal(
      oneLine(where.sql),
      `WHERE t."status" = ? AND +t."seq" IN (SELECT rowid FROM "ChangelogSearch" WHERE "ChangelogSearch" MATCH ?)`,
    );
    assert.deepEqual(where.values, ["Published", '"webhooks"']);
  });

  it("walks the sort index for a common search on its own on SQLite, and reads each match of a rare one", () => {
    const common = changelogWhere(query({ search: "webhooks" }), dialects.sqlite, { common: true });
    assert.equal(oneLine(common.sql), `WHERE +t."seq" IN (SELECT rowid FROM "ChangelogSearch" WHERE "ChangelogSearch" MATCH ?)`);
    const rare = changelogWhere(query({ search: "webhooks" }), dialects.sqlite);
    assert.equal(oneLine(rare.sql), `WHERE t."seq" IN (SELECT rowid FROM "ChangelogSearch" WHERE "ChangelogSearch" MATCH ?)`);
  });

  it("tests only the word index's matches for status and labels it holds as keys, walking the status index", () => {
    const words = new Map([["webhook", ["webhook", "webhooks"]]]);
    const key = (kind: string, value: string) => `"ς${kind}${Buffer.from(value).toString("hex")}"`;
    const filtered = query({ status: "Draft", labels: ["API", "Fixed"], search: "webhook" });
    const keys = changelogKeys(filtered);
    assert.ok(keys);
    const where = changelogWhere(filtered, dialects.sqlite, { expansions: words, keys });
    assert.equal(oneLine(where.sql), `WHERE t."status" = ? AND +t."seq" IN (SELECT rowid FROM "ChangelogWords" WHERE "ChangelogWords" MATCH ?)`);
    assert.deepEqual(where.values, ["Draft", `("webhook" OR "webhooks") AND ${key("s", "Draft")} AND (${key("l", "api")} OR ${key("l", "fixed")})`]);
    // Labels alone: a walk of the sort order only for a common search, as with no filter.
    const labelled = query({ labels: ["API"], search: "webhook" });
    for (const common of [true, false]) {
      const sql = oneLine(changelogWhere(labelled, dialects.sqlite, { expansions: words, keys: changelogKeys(labelled) ?? [], common }).sql);
      assert.equal(sql, `WHERE ${common ? "+" : ""}t."seq" IN (SELECT rowid FROM "ChangelogWords" WHERE "ChangelogWords" MATCH ?)`);
    }
    // Never without every term through the word index, nor on PostgreSQL, whose index has no keys.
    assert.throws(() => changelogWhere(filtered, dialects.sqlite, { keys }), /every term through the word index/);
    assert.throws(() => changelogWhere(filtered, dialects.postgres, { expansions: words, keys }), /no filter keys/);
  });

  it("walks when the walk to the page's end is shorter than reading every match's row", () => {
    // 50,000 changelogs, a page of 20 (21 rows read): a walk of 21 x 50,000 / matches steps.
    assert.equal(walkFinds(42_464, 21, 50_000), true);
    assert.equal(walkFinds(2_370, 21, 50_000), true);
    assert.equal(walkFinds(100, 21, 50_000), false);
    assert.equal(walkFinds(0, 21, 50_000), false);
    // Deeper pages walk further: page 50 of 100 for a word in 300 of them reads its matches.
    assert.equal(walkFinds(300, 21, 50_000), true);
    assert.equal(walkFinds(300, 5_001, 50_000), false);
  });

  it("tests each changelog's own text when the matches are many, with status and labels as plain conditions", () => {
    const filtered = query({ status: "Published", labels: ["API", "Mobile"], search: "Now av" });
    const where = changelogWhere(filtered, dialects.sqlite, { scan: true });
    assert.equal(oneLine(where.sql), `WHERE t."status" = ? AND ${EXISTS}) AND instr(t."searchText", ?) > 0 AND instr(t."searchText", ?) > 0`);
    assert.deepEqual(where.values, ["Published", "api", "mobile", "now", "av"]);
  });

  it("tests the text when the walk is short next to the matches' list", () => {
    // 50,000 changelogs: a word in all of them, page 1 of 20 and page 5 of 100 (but not when its
    // count stopped at the bound, 10,001); a word in 2,422, page 1 of 20.
    assert.equal(scanFinds(50_000, 21, 50_000), true);
    assert.equal(scanFinds(10_001, 501, 50_000), false);
    assert.equal(scanFinds(50_000, 501, 50_000), true);
    assert.equal(scanFinds(2_422, 21, 50_000), false);
    assert.equal(scanFinds(0, 21, 50_000), false);
    // The API tests' 600 changelogs: a word in all of them scans for a page ending at row 21, not 101.
    assert.equal(scanFinds(600, 21, 600), true);
    assert.equal(scanFinds(600, 101, 600), false);
  });

  it("searches with an escaped LIKE on PostgreSQL", () => {
    const where = changelogWhere(query({ search: "50%" }), dialects.postgres);
    assert.equal(oneLine(where.sql), `WHERE t."searchText" LIKE ? ESCAPE '\\'`);
    assert.deepEqual(where.values, ["%50\\%%"]);
  });

  it("walks the sort index: drafts first, newest first, ties by id", () => {
    const sql = oneLine(pageSql(changelogWhere(query(), dialects.sqlite), 20, 0, dialects.sqlite).sql);
    assert.match(sql, /FROM "Changelog" t ORDER BY t\."status" ASC, t\."sortAt" DESC, t\."id" DESC LIMIT \? OFFSET \?\) page /);
  });

  for (const d of Object.values(dialects)) {
    it(`reads each shown changelog's labels in the page's statement, for the page's rows alone, on ${d.engine}`, () => {
      const sql = oneLine(pageSql(changelogWhere(query({ status: "Draft" }), d), 20, 0, d).sql);
      const labels =
        d.engine === "sqlite"
          ? `(SELECT json_group_array(l."name") FROM "ChangelogLabel" l WHERE l."changelogId" = page."id") AS "labels"`
          : `ARRAY(SELECT l."name" FROM "ChangelogLabel" l WHERE l."changelogId" = page."id") AS "labels"`;
      assert.ok(sql.startsWith(`SELECT page.*, ${labels} FROM (SELECT t."id", `), sql);
      assert.match(sql, /LIMIT \? OFFSET \?\) page ORDER BY page\."status" ASC, page\."sortAt" DESC, page\."id" DESC$/);
    });
  }
});

describe("changelog count SQL on SQLite", () => {
  it("counts a search on its own from the FTS5 table alone, stopping at the bound", () => {
    const sql = countSql(query({ search: "webhooks" }), true, undefined, dialects.sqlite);
    assert.equal(
      oneLine(sql.sql),
      `SELECT count(*) AS "total" FROM (SELECT rowid AS "seq" FROM "ChangelogSearch" WHERE "ChangelogSearch" MATCH ? LIMIT ?) counted`,
    );
    assert.deepEqual(sql.values, ['"webhooks"', 10_001]);
  });

  it("counts a search with a filter on the changelogs, and a list without a search exactly", () => {
    for (const filter of [{ status: "Draft" as const }, { labels: ["API"] }, { id: ["c1"] }]) {
      const sql = oneLine(countSql(query({ search: "webhooks", ...filter }), true, undefined, dialects.sqlite).sql);
      assert.match(sql, /^SELECT count\(\*\) AS "total" FROM \(SELECT 1 FROM "Changelog" t WHERE .* LIMIT \?\) counted$/, sql);
    }
    assert.equal(oneLine(countSql(query({ status: "Draft" }), false, undefined, dialects.sqlite).sql), `SELECT count(*) AS "total" FROM "Changelog" t WHERE t."status" = ?`);
  });

  it("counts a search by words with status and/or labels from the word index alone, with their keys", () => {
    const words = new Map([["webhook", ["webhook", "webhooks"]]]);
    const key = (kind: string, value: string) => `"ς${kind}${Buffer.from(value).toString("hex")}"`;
    const count = (over: Partial<ListChangelogsQuery>) => countSql(query({ search: "webhook", ...over }), true, words, dialects.sqlite);
    const both = count({ status: "Draft", labels: ["API", "Fixed", "api", "Ünïcode"] });
    assert.equal(oneLine(both.sql), `SELECT count(*) AS "total" FROM (SELECT rowid AS "seq" FROM "ChangelogWords" WHERE "ChangelogWords" MATCH ? LIMIT ?) counted`);
    // Labels by their folded names, each once, any of them.
    assert.deepEqual(both.values, [
      `("webhook" OR "webhooks") AND ${key("s", "Draft")} AND (${key("l", "api")} OR ${key("l", "fixed")} OR ${key("l", "ünïcode")})`,
      10_001,
    ]);
    assert.deepEqual(count({ labels: ["API"] }).values, [`("webhook" OR "webhooks") AND ${key("l", "api")}`, 10_001]);
    // Not through the trigram index, which holds no keys; not with ids, which have none.
    assert.match(countSql(query({ search: "webhook", status: "Draft" }), true, undefined, dialects.sqlite).sql, /FROM "Changelog" t WHERE/);
    assert.match(count({ status: "Draft", id: ["c1"] }).sql, /FROM "Changelog" t WHERE/);
    assert.match(count({ id: ["c1"] }).sql, /FROM "Changelog" t WHERE/);
  });

  it("tests rows for a short term the index cannot answer alone", () => {
    const sql = oneLine(countSql(query({ search: "ab webhooks" }), true, undefined, dialects.sqlite).sql);
    assert.match(sql, /FROM "Changelog" t WHERE .*instr/, sql);
  });
});

describe("changelog count SQL on PostgreSQL", () => {
  it("tests no row for a short term the index of short substrings serves, and the page still does", () => {
    const expansions = new Map([["xj", ["xj"]]]);
    const page = oneLine(changelogWhere(query({ search: "xj e" }), dialects.postgres, { expansions }).sql);
    const count = oneLine(changelogWhere(query({ search: "xj e" }), dialects.postgres, { expansions, counting: true }).sql);
    assert.equal(page, `WHERE strpos(t."searchText", ?) > 0 AND strpos(t."searchText", ?) > 0 AND "search_short_grams"(t."searchText") @> ARRAY[?]::text[]`);
    assert.equal(count, `WHERE strpos(t."searchText", ?) > 0 AND "search_short_grams"(t."searchText") @> ARRAY[?]::text[]`);
  });

  it("counts the longer terms by their words with status and/or labels, through the index that holds them beside the words", () => {
    const words = new Map([["ebhoo", ["webhook", "webhooks"]]]);
    const count = (over: Partial<ListChangelogsQuery>) =>
      oneLine(countSql(query({ search: "ebhoo xj", ...over }), true, new Map([["xj", ["xj"]]]), dialects.postgres, words).sql);
    assert.equal(
      count({ status: "Draft", labels: ["API", "Fixed"] }),
      `SELECT count(*) AS "total" FROM (SELECT 1 FROM "Changelog" t WHERE t."status" = ? AND t."labelKeys" && ARRAY[?,?]::text[] AND "search_words"(t."searchText") && ARRAY[?,?]::text[] AND "search_short_grams"(t."searchText") @> ARRAY[?]::text[] LIMIT ?) counted`,
    );
    assert.match(count({ labels: ["API"] }), /"search_words"\(t\."searchText"\) && ARRAY\[\?,\?\]/);
    // With no status or labels, by LIKE unless the words are rare (the plan's expansions); with ids, as before.
    for (const over of [{}, { id: ["c1"], status: "Draft" as const }]) assert.match(count(over), /t\."searchText" LIKE \?/);
  });

  it("counts terms all found by their words from the bitmaps of their words, status and labels", () => {
    const d = dialects.postgres;
    const words = new Map([["ebhoo", ["webhook", "webhooks"]], ["mode", ["mode"]]]);
    const group = (n: number, keys: string) =>
      `(SELECT "chunk", bit_or("bits") AS "bits" FROM "ChangelogWordBits" WHERE "word" IN (${keys}) GROUP BY "chunk") t${n}`;
    const count = bitsCountSql(query({ search: "ebhoo mode", status: "Draft", labels: ["API", "Fixed", "api"] }), ["ebhoo", "mode"], words, d);
    assert.equal(
      oneLine(count?.sql ?? ""),
      `SELECT LEAST(coalesce(sum(bit_count(t0."bits" & t1."bits" & t2."bits" & t3."bits")), 0), ?)::bigint AS "total" FROM ${group(0, "?,?")} JOIN ${group(1, "?")} USING ("chunk") JOIN ${group(2, "?")} USING ("chunk") JOIN ${group(3, "?,?")} USING ("chunk")`,
    );
    // Any of the labels, each folded once.
    assert.deepEqual(count?.values, [10_001, "webhook", "webhooks", "mode", "status:Draft", "label:api", "label:fixed"]);
    assert.deepEqual(bitsCountSql(query({ search: "mode" }), ["mode"], words, d)?.values, [10_001, "mode"]);
    // Ids, a term whose words are not known (a short one), no words read, no search, or SQLite: none.
    const none: [Partial<ListChangelogsQuery>, string[], Map<string, string[]> | undefined, typeof d][] = [
      [{ id: ["c1"], status: "Draft" }, ["mode"], words, d],
      [{}, ["mode", "xj"], words, d],
      [{}, ["mode"], undefined, d],
      [{ status: "Draft" }, [], words, d],
      [{}, ["mode"], words, dialects.sqlite],
    ];
    for (const [over, terms, known, dialect] of none) {
      assert.equal(bitsCountSql(query({ search: terms.join(" "), ...over }), terms, known, dialect), null, `${JSON.stringify(over)} ${terms}`);
    }
  });
});
