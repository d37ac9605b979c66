import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "./api/errors";
import { after, decodeCursor, encodeCursor, type SortOrder } from "./keyset";

const latest: SortOrder = {
  name: "latest",
  columns: [
    { name: "createdAt", kind: "time", descending: true },
    { name: "id", kind: "text", descending: true },
  ],
};
const mixed: SortOrder = {
  name: "drafts-then-newest",
  columns: [{ name: "status", kind: "text", descending: false }, ...latest.columns],
};
const oneLine = (sql: string) => sql.replace(/\s+/g, " ").trim();

describe("keyset positions", () => {
  it("is one row-value comparison when every column goes one way", () => {
    const sql = after(latest, "t", [new Date(0), "p1"]);
    assert.equal(oneLine(sql.sql), `(t."createdAt", t."id") < (?,?)`);
    assert.deepEqual(sql.values, [new Date(0), "p1"]);
  });

  it("splits at a change of direction", () => {
    const sql = after(mixed, "t", ["Draft", new Date(0), "c1"]);
    assert.equal(oneLine(sql.sql), `((t."status") > (?) OR ((t."status") = (?) AND (t."createdAt", t."id") < (?,?)))`);
    assert.deepEqual(sql.values, ["Draft", "Draft", new Date(0), "c1"]);
  });

  it("round-trips a key through an opaque cursor", () => {
    const key = [new Date("2026-01-02T03:04:05.678Z"), "post_1"];
    const cursor = encodeCursor(latest, key);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeCursor(latest, cursor), key);
  });

  it("refuses a cursor of another order, a forged one and garbage, naming the parameter", () => {
    const refused = (order: SortOrder, cursor: string) =>
      assert.throws(
        () => decodeCursor(order, cursor),
        (e) => e instanceof ApiError && e.status === 400 && e.details?.[0]?.field === "cursor",
      );
    refused(mixed, encodeCursor(latest, [new Date(0), "p"]));
    refused(latest, "not a cursor");
    refused(latest, Buffer.from(JSON.stringify({ o: "latest", k: ["yesterday", "p"] })).toString("base64url"));
    refused(latest, Buffer.from(JSON.stringify({ o: "latest", k: [new Date(0).toISOString()] })).toString("base64url"));
    refused(latest, Buffer.from(JSON.stringify({ o: "latest", k: [1, 2] })).toString("base64url"));
  });
});
