import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeIdCursor, encodeIdCursor, idCursorParam } from "./id-cursor";

describe("id cursors", () => {
  for (const prefix of ["evt", "dlv"]) {
    const id = `${prefix}_0mh2k9x1a000abcdefghijklm`;
    it(`round-trips a ${prefix} id`, () => assert.equal(decodeIdCursor(encodeIdCursor(id), prefix), id));

    for (const [name, cursor] of [
      ["garbage", "not a cursor"],
      ["an empty cursor", ""],
      ["another id's shape", encodeIdCursor("key_0123456789abcdef")],
      ["another list's id", encodeIdCursor(`${prefix === "evt" ? "dlv" : "evt"}_0mh2k9x1a000abcdefghijklm`)],
      ["an id with capitals", encodeIdCursor(id.toUpperCase())],
      ["padding added", `${encodeIdCursor(id)}==`],
      ["a NUL inside", encodeIdCursor(`${id.slice(0, -1)}\u0000`)],
    ] as const) {
      it(`refuses ${name} as a ${prefix} cursor`, () => assert.equal(decodeIdCursor(cursor, prefix), null));
    }
  }

  it("as a query parameter: empty is the first page, a bad one names the problem", () => {
    const param = idCursorParam("evt", "x");
    assert.equal(param.parse(undefined), undefined);
    assert.equal(param.parse("  "), undefined);
    const id = "evt_0mh2k9x1a000abcdefghijklm";
    assert.equal(param.parse(` ${encodeIdCursor(id)} `), id);
    const refused = param.safeParse("nope");
    assert.equal(refused.success, false);
    assert.equal(refused.error?.issues[0]?.message, "is not a cursor this API gave");
    assert.equal(param.safeParse("a".repeat(201)).success, false);
  });
});
