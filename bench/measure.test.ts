import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, test } from "node:test";
import { EVENT_LOOP_HELD } from "../lib/event-loop";
import { type Hold, longestHold, readHolds, type Server } from "./measure";

// A run's longest event-loop hold, from the lines the server writes once a second.

const serverWith = (holds: Hold[]) => ({ holds }) as Server;

describe("event-loop holds", () => {
  test("are read from the server's text log, a line split across chunks included; other lines pass on", async () => {
    const stderr = new PassThrough();
    const holds: Hold[] = [];
    const shown: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => shown.push(chunk) > 0) as typeof process.stderr.write;
    try {
      readHolds(stderr, holds, EVENT_LOOP_HELD);
      stderr.write(`2026-11-24T19:00:00.000Z warn ${EVENT_LOOP_HELD} longestMs=12 thresholdMs=1 pid=7\n2026-11-24T19:00:00.`);
      stderr.write(`500Z warn ${EVENT_LOOP_HELD} longestMs=73 thresholdMs=1 pid=8\nListening\n`);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(
      holds.map((h) => h.longestMs),
      [12, 73],
    );
    assert.deepEqual(shown, ["Listening\n"]);
  });

  test("a run's longest is the longest reported during it and in the second after", async () => {
    const server = serverWith([
      { at: 1_000, longestMs: 400 },
      { at: 2_000, longestMs: 9 },
      { at: 3_000, longestMs: 31 },
      { at: 4_100, longestMs: 20 },
      { at: 9_000, longestMs: 500 },
    ]);
    assert.equal(await longestHold(server, 1_500, 4_000, 1000), 31);
  });

  test("null from a server that reports none", async () => {
    assert.equal(await longestHold(serverWith([]), Date.now() - 100, Date.now(), 10), null);
  });
});
