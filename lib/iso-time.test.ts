import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isoTime } from "./iso-time";

/** A constructor standing in for Next.js's wrapper of Date: Dates made with it as new.target. */
function dateWrapper() {}
dateWrapper.prototype = Date.prototype;

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
  it("writes every eleventh day of the years 1000-9999 as toISOString does, leap days and the ends of centuries included", () => {
    const edges = [Date.UTC(2000, 1, 29), Date.UTC(1900, 1, 28, 23, 59, 59, 999), Date.UTC(1900, 2, 1), Date.UTC(2100, 1, 28), Date.UTC(1600, 1, 29), Date.UTC(1969, 11, 31, 23, 59, 59, 999)];
    for (const ms of edges) assert.equal(isoTime(new Date(ms)), new Date(ms).toISOString(), String(ms));
    // Every eleventh day from 1 March 1000 (each 400-year era starts on a 1 March), which lands on
    // every day of every month in turn, at a time of day that moves.
    for (let ms = Date.UTC(1000, 2, 1), i = 0; ms < Date.UTC(10_000, 0, 1); ms += 11 * 86_400_000, i++) {
      const date = new Date(ms + ((i * 7_919_993) % 86_400_000));
      assert.equal(isoTime(date), date.toISOString());
    }
  });
  it("writes a Date made with another constructor as its new.target, as Next.js's wrapper of Date makes them, the same way", () => {
    for (const ms of [Date.UTC(2026, 11, 7, 8, 5, 3, 9), Date.UTC(1000, 0, 1), 0]) {
      const date = Reflect.construct(Date, [ms], dateWrapper) as Date;
      assert.equal(isoTime(date), new Date(ms).toISOString());
    }
  });
  it("throws on an invalid date, as toISOString does", () => {
    assert.throws(() => isoTime(new Date(Number.NaN)), RangeError);
  });
});
