import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { linkHeader, pagination } from "./responses";

describe("pagination", () => {
  it("computes totalPages and hasNextPage", () => {
    assert.deepEqual(pagination(2, 10, 57), { page: 2, limit: 10, total: 57, totalPages: 6, hasNextPage: true });
    assert.deepEqual(pagination(6, 10, 57), { page: 6, limit: 10, total: 57, totalPages: 6, hasNextPage: false });
    assert.deepEqual(pagination(1, 10, 0), { page: 1, limit: 10, total: 0, totalPages: 0, hasNextPage: false });
    assert.deepEqual(pagination(9, 10, 20), { page: 9, limit: 10, total: 20, totalPages: 2, hasNextPage: false });
  });
});

describe("linkHeader", () => {
  const url = new URL("http://x/api/v1/posts?boardId=b1&page=2&limit=10");
  it("links first, prev, next and last, keeping the other parameters", () => {
    assert.equal(
      linkHeader(url, pagination(2, 10, 57)),
      '</api/v1/posts?boardId=b1&page=1&limit=10>; rel="first", </api/v1/posts?boardId=b1&page=1&limit=10>; rel="prev", </api/v1/posts?boardId=b1&page=3&limit=10>; rel="next", </api/v1/posts?boardId=b1&page=6&limit=10>; rel="last"',
    );
  });
  it("has only first for an empty list", () => {
    assert.equal(linkHeader(url, pagination(1, 10, 0)), '</api/v1/posts?boardId=b1&page=1&limit=10>; rel="first"');
  });
  it("carries the cursor on next alone, where the request had it, and the search as it was encoded", () => {
    const cursored = new URL("http://x/api/v1/posts?search=two%20words+a%2Bb&cursor=old&page=3&limit=20");
    const known = { total: 100, totalIsExact: false, hasNextPage: true, nextCursor: "new" };
    assert.equal(
      linkHeader(cursored, pagination(3, 20, 100, known)),
      '</api/v1/posts?search=two+words+a%2Bb&page=1&limit=20>; rel="first", </api/v1/posts?search=two+words+a%2Bb&page=2&limit=20>; rel="prev", </api/v1/posts?search=two+words+a%2Bb&cursor=new&page=4&limit=20>; rel="next"',
    );
  });
  it("points prev at the last page from past the end", () => {
    assert.match(linkHeader(url, pagination(9, 10, 20)), /page=2&limit=10>; rel="prev"/);
  });
});
