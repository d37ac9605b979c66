import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EVENT_LOOP_CHECK_MS, heldMs, watchEventLoop } from "./event-loop";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const hold = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // holding the loop on purpose
  }
};

describe("watchEventLoop", () => {
  it("reports a hold past the threshold, with about how long it was", async () => {
    const reports: [number, number][] = [];
    const stop = watchEventLoop(60, (longest, threshold) => reports.push([longest, threshold]));
    try {
      await sleep(50);
      hold(150);
      await sleep(EVENT_LOOP_CHECK_MS + 200);
    } finally {
      stop();
    }
    assert.ok(reports.length >= 1, "the hold was reported");
    const [longest, threshold] = reports[0] ?? [0, 0];
    // The histogram's timer fires every 10 ms, so a 150 ms hold reads as 140 ms or more (more
    // when the machine is busy).
    assert.ok(longest >= 130, `reported ${longest} ms`);
    assert.equal(threshold, 60);
  });

  it("watches nothing at a threshold of 0", async () => {
    const reports: number[] = [];
    const stop = watchEventLoop(0, (longest) => reports.push(longest));
    hold(150);
    await sleep(EVENT_LOOP_CHECK_MS + 200);
    stop();
    assert.deepEqual(reports, []);
  });

  it("takes the timer's own interval off the histogram's delays", () => {
    assert.equal(heldMs(0), 0);
    assert.equal(heldMs(10_100_000), 0);
    assert.equal(heldMs(89_200_000), 79);
  });
});
