import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isoTime } from "./iso-time";

describe("isoTime", () => {
  it("writes every date as toISOString does", () => {
    const edges = [0, -1, Date.UTC(999, 11, 31, 23, 59, 59, 999), Date.UTC(1000, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), -62198755200000, 8.64e15, -8.64e15];
    for (const ms of edges) assert.equal(isoTime(new Date(ms)), new Date(ms).toISOString(), String(ms));
    // Every field's one- and two-digit values, and milliseconds of one, two and three digits.
    for (let i = 0; i < 20_000; i++) {
      const date = new Date(Date.UTC(1970 + (i % 90), i % 12, 1 + (i % 31), i % 24, (i * 7) % 60, (i * 13) % 60, (i * 37) % 1000));
      assert.equal(isoTime(date), date.toISOString());
    }
  });
  it("throws on an invalid date, as toISOString does", () => {
    assert.throws(() => isoTime(new Date(Number.NaN)), RangeError);
  });
});
