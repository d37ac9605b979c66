import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiRequestError, apiPath } from "./api-client";

describe("apiPath", () => {
  it("drops empty values and joins lists with commas", () => {
    assert.equal(apiPath("/posts", { search: "", boardId: undefined, page: 2, limit: 10 }), "/api/v1/posts?page=2&limit=10");
    assert.equal(apiPath("/changelogs", { labels: ["New", "Fixed"] }), "/api/v1/changelogs?labels=New%2CFixed");
    assert.equal(apiPath("/changelogs", { labels: [] }), "/api/v1/changelogs");
  });

  it("encodes search text", () => {
    assert.equal(apiPath("/posts", { search: "100% a&b" }), "/api/v1/posts?search=100%25+a%26b");
  });
});

describe("ApiRequestError", () => {
  it("keeps the API's error object and finds a field's message", () => {
    const error = new ApiRequestError(400, {
      code: "invalid_request",
      message: "Invalid body: commentDescription.",
      details: [{ field: "commentDescription", message: "must not be empty" }],
      requestId: "r1",
    });
    assert.equal(error.message, "Invalid body: commentDescription.");
    assert.equal(error.detail("commentDescription"), "must not be empty");
    assert.equal(error.detail("pinComment"), undefined);
  });
});
