import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { importFile, jsonPath } from "./schema";

describe("jsonPath", () => {
  it("writes zod paths the way people read JSON", () => {
    assert.equal(jsonPath(["posts", 3, "boardId"]), "posts[3].boardId");
    assert.equal(jsonPath(["changelogs", 0, "labels", 2]), "changelogs[0].labels[2]");
    assert.equal(jsonPath([]), "(file)");
  });
});

describe("importFile", () => {
  it("fills the defaults: empty arrays, null statusId, upvotes 0", () => {
    const parsed = importFile.parse({
      version: 1,
      posts: [{ id: "p", title: "t", content: "", boardId: "b", postedById: "u", createdAt: "2026-01-02T03:04:05Z" }],
    });
    assert.deepEqual(parsed.boards, []);
    assert.equal(parsed.posts[0]?.statusId, null);
    assert.equal(parsed.posts[0]?.upvotes, 0);
  });

  it("takes times with an offset and keeps the instant", () => {
    const parsed = importFile.parse({ version: 1, comments: [{ id: "c", postId: "p", postedById: "u", commentDescription: "x", createdAt: "2026-01-02T05:04:05+02:00" }] });
    assert.equal(parsed.comments[0]?.createdAt.toISOString(), "2026-01-02T03:04:05.000Z");
  });
});
