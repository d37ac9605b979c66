import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { BatchedLimiter, type Limiter, MIN_MARGIN } from "./batched-limiter";

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
    const store = sharedStore(2 * MIN_MARGIN);
    const limiter = new BatchedLimiter(store, noError, 60_000);
    const answers: boolean[] = [];
    for (let i = 0; i < 2 * MIN_MARGIN + 2; i++) answers.push(await admitted(limiter, "key_b"));
    assert.deepEqual(answers, [...Array(2 * MIN_MARGIN).fill(true), false, false]);
    // The first in the store; the next ones from memory while more than half is left; the one
    // past that with them; then one at a time.
    assert.deepEqual(store.calls, [1, MIN_MARGIN, ...Array(MIN_MARGIN + 1).fill(1)]);
    assert.equal(await store.count("key_b"), 2 * MIN_MARGIN + 2);
  });

  it("holds the limit across processes sharing the store", async () => {
    const store = sharedStore(2 * MIN_MARGIN);
    const processes = [new BatchedLimiter(store, noError, 60_000), new BatchedLimiter(store, noError, 60_000)];
    let admittedCount = 0;
    for (let i = 0; i < 4 * MIN_MARGIN; i++) if (await admitted(processes[i % 2] as Limiter, "key_c")) admittedCount++;
    assert.equal(admittedCount, 2 * MIN_MARGIN);
  });

  it("counts a small limit exactly, every request in the store", async () => {
    const store = sharedStore(MIN_MARGIN);
    const processes = [new BatchedLimiter(store, noError, 60_000), new BatchedLimiter(store, noError, 60_000)];
    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) remaining.push((await (processes[i % 2] as Limiter).consume("key_f")).remainingPoints);
    assert.deepEqual(
      remaining,
      Array.from({ length: 10 }, (_, i) => MIN_MARGIN - 1 - i),
    );
    assert.equal(store.calls.length, 10);
  });

  it("counts the requests on their way to the store while it has not answered", async () => {
    const store = sharedStore(1_000);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = false;
    const slow: Limiter = {
      points: store.points,
      consume: async (key, points) => {
        if (holding) await held;
        return store.consume(key, points);
      },
    };
    const limiter = new BatchedLimiter(slow, noError, 60_000);
    for (let i = 0; i < 6; i++) await limiter.consume("key_g");
    holding = true;
    const flushed = limiter.flush();
    assert.equal((await limiter.consume("key_g")).remainingPoints, 1_000 - 7, "the five being sent count");
    release();
    await flushed;
    assert.equal((await limiter.consume("key_g")).remainingPoints, 1_000 - 8);
    await limiter.flush();
    assert.equal(await store.count("key_g"), 8);
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
