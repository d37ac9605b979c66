import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import { groupCommit } from "./group-commit";

// The dispatcher's group commit, on a fake clock: what is written together, when, and one batch
// at a time.

const WINDOW = 50;

/** A writer that records each batch and answers it when told to. */
function heldWriter() {
  const batches: number[][] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const write = (batch: number[]) => {
    batches.push(batch);
    return new Promise<string[]>((resolve, reject) => {
      pending.push({ resolve: () => resolve(batch.map((n) => `wrote ${n}`)), reject });
    });
  };
  return { write, batches, answer: () => pending.shift()?.resolve(), fail: (error: Error) => pending.shift()?.reject(error) };
}

/** Lets settled promises run their callbacks. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => mock.timers.enable({ apis: ["setTimeout"] }));
afterEach(() => mock.timers.reset());

describe("groupCommit", () => {
  it("writes what comes within a window as one batch, at the window's end, each item getting its own result", async () => {
    const writer = heldWriter();
    const commit = groupCommit(writer.write, WINDOW);
    const results = [1, 2].map((n) => commit.add(n));
    mock.timers.tick(WINDOW - 1);
    const third = commit.add(3);
    assert.deepEqual(writer.batches, [], "nothing is written before the window ends");
    mock.timers.tick(1);
    assert.deepEqual(writer.batches, [[1, 2, 3]]);
    writer.answer();
    assert.deepEqual(await Promise.all([...results, third]), ["wrote 1", "wrote 2", "wrote 3"]);
  });

  it("writes one batch at a time: what comes meanwhile waits for the next", async () => {
    const writer = heldWriter();
    const commit = groupCommit(writer.write, WINDOW);
    const first = commit.add(1);
    mock.timers.tick(WINDOW);
    const later = [2, 3].map((n) => commit.add(n));
    mock.timers.tick(5 * WINDOW);
    assert.deepEqual(writer.batches, [[1]], "no second write while the first is under way");
    writer.answer();
    await first;
    await settle();
    mock.timers.tick(WINDOW);
    assert.deepEqual(writer.batches, [[1], [2, 3]]);
    writer.answer();
    assert.deepEqual(await Promise.all(later), ["wrote 2", "wrote 3"]);
  });

  it("once drained, writes what waits at once, and each later item without a window", async () => {
    const writer = heldWriter();
    const commit = groupCommit(writer.write, WINDOW);
    const first = commit.add(1);
    commit.drain();
    assert.deepEqual(writer.batches, [[1]]);
    writer.answer();
    await first;
    await settle();
    const second = commit.add(2);
    assert.deepEqual(writer.batches, [[1], [2]]);
    writer.answer();
    assert.equal(await second, "wrote 2");
  });

  it("rejects every item of a batch that fails to be written, and writes the next batch", async () => {
    const writer = heldWriter();
    const commit = groupCommit(writer.write, WINDOW);
    const failed = [1, 2].map((n) => commit.add(n));
    mock.timers.tick(WINDOW);
    writer.fail(new Error("database is locked"));
    for (const result of failed) await assert.rejects(result, /database is locked/);
    await settle();
    const next = commit.add(3);
    mock.timers.tick(WINDOW);
    assert.deepEqual(writer.batches, [[1, 2], [3]]);
    writer.answer();
    assert.equal(await next, "wrote 3");
  });
});
