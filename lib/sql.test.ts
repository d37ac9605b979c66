import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Prisma } from "./db";
import { pageOffset, where } from "./sql";

describe("pageOffset", () => {
  it("skips the pages before this one", () => {
    assert.equal(pageOffset(1, 20), 0);
    assert.equal(pageOffset(3, 20), 40);
  });

  it("stays a safe integer however far the page", () => {
    assert.equal(pageOffset(Number.MAX_SAFE_INTEGER, 100), Number.MAX_SAFE_INTEGER);
  });
});

describe("where", () => {
  it("joins conditions with AND, and is empty without any", () => {
    assert.equal(where([]).sql, "");
    assert.equal(where([Prisma.sql`a = ${1}`, Prisma.sql`b = ${2}`]).sql, "WHERE a = ? AND b = ?");
  });
});
