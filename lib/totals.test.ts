import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Prisma } from "./db";
import { exactTotal } from "./totals";

describe("exact totals", () => {
  it("shares one count among requests that miss together, and remembers it for the version", async () => {
    const where = Prisma.sql`WHERE t."boardId" = ${"board_shared"}`;
    let counts = 0;
    const finishers: ((total: number) => void)[] = [];
    const count = () => {
      counts++;
      return new Promise<number>((resolve) => finishers.push(resolve));
    };
    const waiting = [exactTotal("Post", where, count, 7), exactTotal("Post", where, count, 7), exactTotal("Post", where, count, 7)];
    await new Promise((resolve) => setImmediate(resolve));
    for (const finish of finishers) finish(1234);
    assert.deepEqual(await Promise.all(waiting), [1234, 1234, 1234]);
    assert.equal(counts, 1);
    assert.equal(await exactTotal("Post", where, count, 7), 1234, "the same version: remembered");
    assert.equal(counts, 1);
  });

  it("counts again at another version, and after a failed count", async () => {
    const where = Prisma.sql`WHERE t."boardId" = ${"board_again"}`;
    let counts = 0;
    const failing = async () => {
      counts++;
      throw new Error("statement timeout");
    };
    const results = await Promise.allSettled([exactTotal("Post", where, failing, 1), exactTotal("Post", where, failing, 1)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["rejected", "rejected"],
    );
    assert.equal(counts, 1, "one count, shared, failed for both");
    const counted = async () => {
      counts++;
      return 5;
    };
    assert.equal(await exactTotal("Post", where, counted, 1), 5, "a failed count is not remembered");
    assert.equal(await exactTotal("Post", where, counted, 2), 5);
    assert.equal(counts, 3, "a new version counts again");
  });
});
