import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseTimestamp, timestampMs } from "./pg-timestamp";

/** What the parser did before: the text made ISO 8601 in UTC, parsed by Date. */
const byDate = (text: string) => new Date(`${text.replace(" ", "T")}Z`).getTime();

/** `ms` as PostgreSQL writes a timestamp(3): trailing zeros of the fraction dropped, no fraction for whole seconds. */
function written(ms: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = iso.slice(20, 23).replace(/0+$/, "");
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ""}`;
}

describe("timestampMs", () => {
  it("reads every timestamp PostgreSQL writes for years 1000-9999 as Date's parser reads it", () => {
    const edges = [Date.UTC(1000, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999), 0, Date.UTC(2000, 1, 29, 12), Date.UTC(2026, 11, 7, 8, 30, 0, 100)];
    for (const ms of edges) assert.equal(timestampMs(written(ms)), ms, written(ms));
    for (let i = 0; i < 50_000; i++) {
      const ms = Date.UTC(1000, 0, 1) + Math.floor(((i * 2_654_435_761) % 1_000_003) / 1_000_003 * 2.84e14) + (i % 1000);
      const text = written(ms);
      assert.equal(timestampMs(text), byDate(text), text);
    }
  });

  it("reads fractions of one to six digits to the millisecond, dropping what is past it", () => {
    const cases: [string, number][] = [
      ["2026-12-07 08:30:00.1", 100],
      ["2026-12-07 08:30:00.12", 120],
      ["2026-12-07 08:30:00.123", 123],
      ["2026-12-07 08:30:00.1234", 123],
      ["2026-12-07 08:30:00.12345", 123],
      ["2026-12-07 08:30:00.123999", 123],
      ["2026-12-07 08:30:00.000001", 0],
    ];
    for (const [text, milliseconds] of cases) {
      assert.equal(timestampMs(text), Date.UTC(2026, 11, 7, 8, 30, 0, milliseconds), text);
      assert.equal(timestampMs(text), byDate(text), text);
    }
  });

  it("leaves any other text to Date's parser", () => {
    const others = ["infinity", "-infinity", "0999-12-31 23:59:59", "10000-01-01 00:00:00", "2026-12-07 08:30:00 BC", "2026-12-07T08:30:00", "2026-12-07 08:30:00.", "2026-12-07 08:30:00.1234567", "2026-12-07 08:30:00.1x", "2026-12-07 08:30:00.1234x6", "2026-13-07 08:30:00", "2026-12-07 24:00:00", "2026-1x-07 08:30:00", ""];
    for (const text of others) assert.ok(Number.isNaN(timestampMs(text)), text);
  });
});

describe("parseTimestamp", () => {
  it("gives the Date the text names, through the fast path and Date's parser alike", () => {
    assert.equal(parseTimestamp("2026-12-07 08:30:00.5").toISOString(), "2026-12-07T08:30:00.500Z");
    assert.equal(parseTimestamp("0999-12-31 23:59:59").toISOString(), "0999-12-31T23:59:59.000Z");
    assert.ok(Number.isNaN(parseTimestamp("infinity").getTime()));
  });
});
