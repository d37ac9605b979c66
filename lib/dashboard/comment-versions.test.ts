import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CommentRecord, CommentRevisionRecord } from "../comments/schemas";
import { ApiRequestError } from "./api-client";
import { conflictOf, isEdited, revisionChanges, textChanges } from "./comment-versions";

const created = "2026-02-25T09:00:00.000Z";
const later = "2026-03-01T10:00:00.000Z";

describe("isEdited", () => {
  it("is false for a comment never changed, and for one whose last change was a pin", () => {
    assert.equal(isEdited({ createdAt: created, updatedAt: created, pinnedAt: null }), false);
    assert.equal(isEdited({ createdAt: created, updatedAt: later, pinnedAt: later }), false);
  });

  it("is true when the last change came after creation and was not a pin", () => {
    assert.equal(isEdited({ createdAt: created, updatedAt: later, pinnedAt: null }), true);
    assert.equal(isEdited({ createdAt: created, updatedAt: later, pinnedAt: created }), true);
  });
});

describe("textChanges", () => {
  it("marks the removed and added words and keeps the rest", () => {
    const parts = textChanges("Please include the status.", "Please include the board.");
    assert.deepEqual(
      parts.filter((p) => p.kind !== "same").map((p) => [p.kind, p.text]),
      [
        ["removed", "status"],
        ["added", "board"],
      ],
    );
    // Read in order, the old parts give the old text and the new parts the new text.
    assert.equal(parts.filter((p) => p.kind !== "added").map((p) => p.text).join(""), "Please include the status.");
    assert.equal(parts.filter((p) => p.kind !== "removed").map((p) => p.text).join(""), "Please include the board.");
  });

  it("handles text outside ASCII", () => {
    const parts = textChanges("Merci !", "Merci beaucoup !");
    assert.deepEqual(parts.filter((p) => p.kind === "added").map((p) => p.text.trim()), ["beaucoup"]);
  });
});

const revision = (version: number, text: string, pinned: boolean): CommentRevisionRecord => ({
  version,
  commentDescription: text,
  pinned,
  createdAt: later,
  actor: { keyId: null, name: "Ada", via: "dashboard" },
});

describe("revisionChanges", () => {
  it("has nothing to compare for the original", () => {
    assert.deepEqual(revisionChanges(undefined, revision(1, "a", true)), { text: null, pin: null });
  });

  it("reads a pin change as Pinned or Unpinned, with the text unchanged", () => {
    assert.deepEqual(revisionChanges(revision(1, "a", false), revision(2, "a", true)), { text: null, pin: "Pinned" });
    assert.deepEqual(revisionChanges(revision(2, "a", true), revision(3, "a", false)), { text: null, pin: "Unpinned" });
  });

  it("gives the text's diff when the text changed", () => {
    const changes = revisionChanges(revision(1, "one two", false), revision(2, "one three", false));
    assert.equal(changes.pin, null);
    assert.ok(changes.text?.some((p) => p.kind === "added" && p.text === "three"));
  });
});

describe("conflictOf", () => {
  const current: CommentRecord = {
    id: "c1",
    postId: "p1",
    commentDescription: "Theirs",
    pinned: false,
    pinnedAt: null,
    postedById: "u1",
    createdAt: created,
    updatedAt: later,
  };

  it("reads the current record and its ETag from a 412", () => {
    const error = new ApiRequestError(412, { code: "precondition_failed", message: "changed", current }, '"v3"');
    assert.deepEqual(conflictOf(error), { current, etag: '"v3"' });
  });

  it("is null for any other error, or a 412 without what a retry needs", () => {
    assert.equal(conflictOf(new ApiRequestError(403, { code: "forbidden", message: "no" }, '"v3"')), null);
    assert.equal(conflictOf(new ApiRequestError(412, { code: "precondition_failed", message: "changed" }, '"v3"')), null);
    assert.equal(conflictOf(new ApiRequestError(412, { code: "precondition_failed", message: "changed", current }, null)), null);
    assert.equal(conflictOf(new Error("boom")), null);
  });
});
