import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeDeliveryCursor, encodeDeliveryCursor } from "./cursor";

describe("delivery cursors", () => {
  it("round-trips a delivery id", () => {
    const id = "dlv_0mh2k9x1a000abcdefghijklm";
    assert.equal(decodeDeliveryCursor(encodeDeliveryCursor(id)), id);
  });

  for (const [name, cursor] of [
    ["garbage", "not a cursor"],
    ["an empty cursor", ""],
    ["an audit event's cursor", encodeDeliveryCursor("evt_0mh2k9x1a000abcdefghijklm")],
    ["an id with capitals", encodeDeliveryCursor("dlv_0MH2K9X1A000ABCDEFGHIJKLM")],
    ["padding added", `${encodeDeliveryCursor("dlv_0mh2k9x1a000abcdefghijklm")}==`],
  ] as const) {
    it(`refuses ${name}`, () => assert.equal(decodeDeliveryCursor(cursor), null));
  }
});
