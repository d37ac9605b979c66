import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { limitOf, listOf, pageOf } from "./list-params";

describe("list view parameters from the address bar", () => {
  const pages: [string | null, number][] = [
    [null, 1],
    ["", 1],
    ["1", 1],
    ["7", 7],
    ["0", 1],
    ["-2", 1],
    ["1.5", 1],
    ["abc", 1],
    ["9999999999", 1],
  ];
  for (const [value, expected] of pages) {
    it(`page ${JSON.stringify(value)} is ${expected}`, () => assert.equal(pageOf(value), expected));
  }

  const limits: [string | null, number][] = [
    [null, 10],
    ["25", 25],
    ["100", 100],
    ["7", 10],
    ["1000", 10],
    ["x", 10],
  ];
  for (const [value, expected] of limits) {
    it(`limit ${JSON.stringify(value)} is ${expected}`, () => assert.equal(limitOf(value), expected));
  }

  it("splits comma lists, trimming and dropping empties and repeats", () => {
    assert.deepEqual(listOf(null), []);
    assert.deepEqual(listOf(""), []);
    assert.deepEqual(listOf("New, Fixed,,New, "), ["New", "Fixed"]);
  });
});
