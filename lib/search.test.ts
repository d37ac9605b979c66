import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fold, searchTerms, searchTextOf } from "./search";

describe("fold", () => {
  const same: [string, string][] = [
    ["CRÈME", "crème"],
    ["Straße", "STRASSE"],
    ["ΟΔΟΣ", "οδος"],
    ["ὈΔΌΣ", "ὀδός"],
    ["Zoë", "ZOË"],
    ["ÅNGSTRÖM", "ångström"],
    ["ДОБРО", "добро"],
  ];
  for (const [a, b] of same) it(`folds ${a} and ${b} alike`, () => assert.equal(fold(a), fold(b)));

  it("composes decomposed accents first (NFC)", () => {
    assert.equal(fold("cre\u0300me"), fold("crème"));
  });

  it("leaves wildcard characters alone", () => {
    assert.equal(fold("100%_\\"), "100%_\\");
  });
});

describe("searchTerms", () => {
  it("splits on any whitespace, folds, drops empties and repeats", () => {
    assert.deepEqual(searchTerms("  Dark\tMODE\n dark  "), ["dark", "mode"]);
    assert.deepEqual(searchTerms(""), []);
    assert.deepEqual(searchTerms(undefined), []);
    assert.deepEqual(searchTerms("a\u00a0b"), ["a", "b"]);
  });
});

describe("searchTextOf", () => {
  it("keeps title and content apart so no whitespace-free term spans both", () => {
    const text = searchTextOf("Dark", "Mode");
    assert.equal(text, "dark\nmode");
    assert.ok(!text.includes("darkmode"));
  });
});
