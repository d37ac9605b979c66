import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JITTER, retryDelay } from "./schedule";

const SCHEDULE = [30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000];

describe("the retry schedule", () => {
  it("waits about 30 s, 2 min, 10 min, 1 h, 6 h and 24 h, then gives up", () => {
    assert.deepEqual(
      SCHEDULE.map((_, i) => retryDelay(i + 1, SCHEDULE, 0.5)),
      SCHEDULE,
    );
    assert.equal(retryDelay(SCHEDULE.length + 1, SCHEDULE, 0.5), null);
  });

  it("spreads each retry within the jitter either side", () => {
    for (const [i, base] of SCHEDULE.entries()) {
      const low = retryDelay(i + 1, SCHEDULE, 0) as number;
      const high = retryDelay(i + 1, SCHEDULE, 0.999_999) as number;
      assert.equal(low, Math.round(base * (1 - JITTER)));
      assert.ok(high <= base * (1 + JITTER) && high > base * (1 + JITTER) * 0.999, `${high}`);
    }
    const seen = new Set(Array.from({ length: 50 }, () => retryDelay(1, SCHEDULE)));
    assert.ok(seen.size > 1, "Math.random gives different delays");
  });

  it("with one delay, the second failure is final", () => {
    assert.equal(retryDelay(1, [100], 0.5), 100);
    assert.equal(retryDelay(2, [100], 0.5), null);
  });
});
