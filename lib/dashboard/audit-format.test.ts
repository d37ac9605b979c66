import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { changeLines, isoToLocal, localToIso, resourceHref, validIso } from "./audit-format";

describe("the Activity page's wording", () => {
  it("says each changed field as before → after, and an import's counts as they are", () => {
    assert.deepEqual(changeLines({ commentDescription: { from: "Old text", to: "New text" }, pinned: { from: false, to: true } }), [
      "Text: Old text → New text",
      "Pinned: no → yes",
    ]);
    assert.deepEqual(changeLines({ posts: 12, comments: 0 }), ["posts: 12", "comments: 0"]);
    assert.deepEqual(changeLines({ revokedAt: { from: null, to: "2026-11-22T10:00:00.000Z" } }), [
      "Revoked: none → 2026-11-22T10:00:00.000Z",
    ]);
    assert.deepEqual(changeLines({}), []);
  });

  it("cuts long text short, by characters rather than UTF-16 units", () => {
    const [line] = changeLines({ commentDescription: { from: "😀".repeat(100), to: "x" } });
    assert.equal(line, `Text: ${"😀".repeat(79)}… → x`);
  });

  it("links a comment's events to the comment, and nothing else", () => {
    assert.equal(resourceHref({ resource: { type: "comment", id: "c 1" } }), "/comments/c%201");
    assert.equal(resourceHref({ resource: { type: "key", id: "key_1" } }), null);
    assert.equal(resourceHref({ resource: { type: "import", id: null } }), null);
  });

  it("turns a datetime-local value into a time and back; the end of a range keeps its whole minute", () => {
    const start = localToIso("2026-11-22T17:30");
    const end = localToIso("2026-11-22T17:30", "end");
    assert.ok(start && end);
    assert.equal(new Date(end).getTime() - new Date(start).getTime(), 59_999);
    assert.equal(isoToLocal(start), "2026-11-22T17:30");
    assert.equal(isoToLocal(end), "2026-11-22T17:30");
    assert.equal(localToIso(""), undefined);
    assert.equal(localToIso("not a time"), undefined);
    assert.equal(isoToLocal(null), "");
    assert.equal(validIso("garbage"), undefined);
    assert.equal(validIso("2026-11-22T10:00:00Z"), "2026-11-22T10:00:00.000Z");
  });
});
