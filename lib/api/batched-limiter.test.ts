import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { BatchedLimiter, type Limiter } from "./batched-limiter";

/** A store shared by the limiters given it, as PostgreSQL is by processes, that notes each call. */
function sharedStore(points: number): Limiter & { calls: number[]; count: (key: string) => Promise<number> } {
  const memory = new RateLimiterMemory({ points, duration: 60 });
  const calls: number[] = [];
  return {
    points,
    calls,
    consume: (key, consumed = 1) => {
      calls.push(consumed);
      return memory.consume(key, consumed);
    },
    count: async (key) => (await memory.get(key))?.consumedPoints ?? 0,
  };
}

/** Whether the request was let through; a refusal is the limiter's RateLimiterRes. */
async function admitted(limiter: Limiter, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (rejection) {
    assert.ok(rejection instanceof RateLimiterRes, `a refusal, not ${String(rejection)}`);
    return false;
  }
}

const noError = (error: unknown) => assert.fail(`no store error expected: ${String(error)}`);

describe("batched rate limits", () => {
  it("far from the limit, counts in memory and adds the requests to the store in one call", async () => {
    const store = sharedStore(1_000);
    const limiter = new BatchedLimiter(store, noError, 60_000);
    const remaining: number[] = [];
    for (let i = 0; i < 50; i++) remaining.push((await limiter.consume("key_a")).remainingPoints);
    assert.deepEqual(
      remaining,
      Array.from({ length: 50 }, (_, i) => 999 - i),
      "the headers count every request",
    );
    assert.deepEqual(store.calls, [1], "only the first request, with no count known, went to the store");
    await limiter.flush();
    assert.deepEqual(store.calls, [1, 49]);
    assert.equal(await store.count("key_a"), 50);
  });

  it("within half the limit, counts every request in the store, and refuses past it", async () => {
    const store = sharedStore(10);
    const limiter = new BatchedLimiter(store, noError, 60_000);
    const answers: boolean[] = [];
    for (let i = 0; i < 12; i++) answers.push(await admitted(limiter, "key_b"));
    assert.deepEqual(answers, [...Array(10).fill(true), false, false]);
    // The first in the store; the next four from memory; the fifth with them; then one at a time.
    assert.deepEqual(store.calls, [1, 5, 1, 1, 1, 1, 1, 1]);
    assert.equal(await store.count("key_b"), 12);
  });

  it("holds the limit across processes sharing the store", async () => {
    const store = sharedStore(20);
    const processes = [new BatchedLimiter(store, noError, 60_000), new BatchedLimiter(store, noError, 60_000)];
    let admittedCount = 0;
    for (let i = 0; i < 40; i++) if (await admitted(processes[i % 2] as Limiter, "key_c")) admittedCount++;
    assert.equal(admittedCount, 20);
  });

  it("sends waiting counts on its own after the flush interval, and reports a store that fails", async () => {
    const store = sharedStore(1_000);
    const errors: unknown[] = [];
    const limiter = new BatchedLimiter(store, (error) => errors.push(error), 20);
    for (let i = 0; i < 5; i++) await limiter.consume("key_d");
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await store.count("key_d"), 5);

    let down = false;
    const flaky: Limiter = {
      points: 1_000,
      consume: async () => {
        if (down) throw new Error("connection refused");
        return new RateLimiterRes(999, 60_000, 1, true);
      },
    };
    const failing = new BatchedLimiter(flaky, (error) => errors.push(error), 60_000);
    await failing.consume("key_e");
    down = true;
    assert.equal((await failing.consume("key_e")).remainingPoints, 998, "answered from memory");
    await failing.flush();
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ["connection refused"],
    );
  });
});
