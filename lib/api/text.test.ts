import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "./errors";
import { assertStorableText, textProblem } from "./text";

describe("textProblem", () => {
  it("accepts every character but NUL and unpaired surrogates", () => {
    for (const ok of ["", "plain", "tab\t\n\r\u0001\u007f\u0085", "😀 \ud83d\ude00", "e\u0301", "\ufffd\ufffe\uffff", "\u{10ffff}"]) {
      assert.equal(textProblem(ok), undefined, JSON.stringify(ok));
    }
  });

  it("names NUL and the unpaired surrogate it finds", () => {
    assert.equal(textProblem("a\0b"), "must not contain NUL (U+0000)");
    assert.equal(textProblem("a\ud800b"), "must not contain an unpaired surrogate (U+D800)");
    assert.equal(textProblem("\udc00"), "must not contain an unpaired surrogate (U+DC00)");
    assert.equal(textProblem("\ude00\ud83d"), "must not contain an unpaired surrogate (U+DE00)", "a pair in the wrong order");
    assert.equal(textProblem("\ud83d"), "must not contain an unpaired surrogate (U+D83D)", "half a pair at the end");
  });
});

describe("assertStorableText", () => {
  const refused = (input: unknown, fields?: string[]) => {
    try {
      assertStorableText(input, fields, "query");
      return undefined;
    } catch (error) {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "invalid_request");
      return error.details?.map((d) => d.field);
    }
  };

  it("names every field holding such text, in lists and nested values too", () => {
    assert.deepEqual(refused({ search: "a\0", id: ["ok", "b\ud800"], page: "1", body: { deep: ["\0"] } }), ["search", "id", "body"]);
  });

  it("checks only the fields given, and leaves other values alone", () => {
    assert.equal(refused({ note: "\0", search: "fine" }, ["search"]), undefined);
    assert.equal(refused({ pinComment: true, n: 1, none: null }), undefined);
  });
});
