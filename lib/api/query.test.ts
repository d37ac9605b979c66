import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { ApiError } from "./errors";
import { listBoardsQuery } from "../boards/schemas";
import { listChangelogsQuery } from "../changelogs/schemas";
import { listPostsQuery } from "../posts/schemas";
import { listUsersQuery } from "../users/schemas";
import { idsParam, intParam, listKeysOf, pageParams, queryObject, searchParam } from "./query";

const schema = z.object({ id: idsParam, search: searchParam, ...pageParams });
const keys = Object.keys(schema.shape);
const parse = (qs: string) => schema.safeParse(queryObject(new URLSearchParams(qs), keys, listKeysOf(schema)));

describe("query parsing", () => {
  it("takes as lists the keys whose schema is an array", () => {
    assert.deepEqual(listKeysOf(schema), ["id"]);
    assert.deepEqual(listKeysOf(listPostsQuery), ["id"]);
    assert.deepEqual(listKeysOf(listChangelogsQuery), ["id", "labels"]);
    assert.deepEqual(listKeysOf(listUsersQuery), ["id"]);
    assert.deepEqual(listKeysOf(listBoardsQuery), []);
  });

  it("defaults limit to 10 and page to 1", () => {
    assert.deepEqual(parse("").data, { limit: 10, page: 1 });
  });

  for (const bad of ["0", "101", "abc", "1.5", "", " 5", "+5", "-1", "1e2", "0x10"]) {
    it(`refuses limit=${JSON.stringify(bad)}`, () => {
      const result = parse(`limit=${encodeURIComponent(bad)}`);
      assert.equal(result.success, false);
      assert.deepEqual(result.error?.issues.map((i) => i.path), [["limit"]]);
    });
  }

  it("accepts limit at both ends and leading zeros", () => {
    assert.equal(parse("limit=1").data?.limit, 1);
    assert.equal(parse("limit=100").data?.limit, 100);
    assert.equal(parse("limit=007").data?.limit, 7);
  });

  it("merges comma-separated and repeated ids, trimmed and deduplicated", () => {
    assert.deepEqual(parse("id=a,b&id=c&id=a,,%20d%20").data?.id, ["a", "b", "c", "d"]);
    assert.equal(parse("id=,").data?.id, undefined);
  });

  it("refuses a single-valued key given twice, even when the values agree", () => {
    assert.throws(() => queryObject(new URLSearchParams("limit=5&limit=5"), keys, ["id"]), (e: unknown) => e instanceof ApiError && e.details?.[0]?.field === "limit");
  });

  it("reads q as search, and refuses both together", () => {
    assert.equal(parse("q=%20hi%20").data?.search, "hi");
    assert.throws(() => queryObject(new URLSearchParams("q=a&search=b"), keys, ["id"]), ApiError);
  });

  it("ignores unknown keys, repeated or not", () => {
    assert.deepEqual(queryObject(new URLSearchParams("x=1&x=2&limit=3"), keys, ["id"]), { limit: "3" });
  });

  it("counts search length in characters, not UTF-16 units", () => {
    assert.equal(parse(`search=${encodeURIComponent("😀".repeat(200))}`).success, true);
    assert.equal(parse(`search=${encodeURIComponent("😀".repeat(201))}`).success, false);
  });

  it("bounds page by what JavaScript counts exactly", () => {
    const page = intParam(1, Number.MAX_SAFE_INTEGER, 1);
    assert.equal(page.safeParse(String(Number.MAX_SAFE_INTEGER)).success, true);
    assert.equal(page.safeParse("9007199254740992").success, false);
  });
});
