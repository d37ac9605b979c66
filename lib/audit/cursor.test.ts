import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeEventCursor, encodeEventCursor } from "./cursor";

describe("audit cursors", () => {
  it("round-trips an event id", () => {
    const id = "evt_0mh2k9x1a000abcdefghijklm";
    assert.equal(decodeEventCursor(encodeEventCursor(id)), id);
  });

  for (const [name, cursor] of [
    ["garbage", "not a cursor"],
    ["an empty cursor", ""],
    ["another id's shape", encodeEventCursor("key_0123456789abcdef")],
    ["an id with capitals", encodeEventCursor("evt_0MH2K9X1A000ABCDEFGHIJKLM")],
    ["padding added", `${encodeEventCursor("evt_0mh2k9x1a000abcdefghijklm")}==`],
    ["a NUL inside", encodeEventCursor("evt_0mh2k9x1a000abcdefghijk\u0000m")],
  ] as const) {
    it(`refuses ${name}`, () => assert.equal(decodeEventCursor(cursor), null));
  }
});
