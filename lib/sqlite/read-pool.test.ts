import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { ReadPool, ReadQueueFullError, ReadTimeoutError } from "./read-pool";

// A query that keeps SQLite busy for seconds: counting to ten million (over a second).
const SLOW = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000) SELECT count(*) AS n FROM c";

describe("ReadPool", () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "read-pool-"));
    file = path.join(dir, "test.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b'), ('c');");
    db.close();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const pool = (overrides: Partial<ConstructorParameters<typeof ReadPool>[0]> = {}) =>
    new ReadPool({ file, size: 2, budgetMs: 5_000, busyTimeoutMs: 1_000, maxQueue: 100, ...overrides });

  it("answers reads with their rows and parameters", async () => {
    const reader = pool();
    try {
      assert.deepEqual(await reader.run("SELECT name FROM t WHERE id >= ? ORDER BY id", [2]), [{ name: "b" }, { name: "c" }]);
    } finally {
      await reader.close();
    }
  });

  it("keeps the event loop free while a read runs", async () => {
    const reader = pool({ budgetMs: 60_000 });
    try {
      const slow = reader.run(SLOW, []);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      await slow;
      clearInterval(timer);
      assert.ok(ticks > 10, `the event loop ran ${ticks} timer ticks during the read`);
    } finally {
      await reader.close();
    }
  });

  it("fails a read past its budget at once, and goes on serving with a new worker", async () => {
    const reader = pool({ size: 1, budgetMs: 200 });
    try {
      const started = performance.now();
      await assert.rejects(reader.run(SLOW, []), ReadTimeoutError);
      assert.ok(performance.now() - started < 2_000);
      assert.deepEqual(await reader.run("SELECT count(*) AS n FROM t", []), [{ n: 3 }]);
    } finally {
      await reader.close();
    }
  });

  it("counts a read's budget from when its worker has opened the database, not from when it was started", async () => {
    // The read is given to a worker still starting, and the main thread is held for longer than
    // the budget meanwhile (as on a busy machine): counted from the dispatch, the budget would
    // run out before the worker's answer could be taken.
    const reader = pool({ size: 1, budgetMs: 100 });
    try {
      const read = reader.run("SELECT count(*) AS n FROM t", []);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      assert.deepEqual(await read, [{ n: 3 }]);
    } finally {
      await reader.close();
    }
  });

  it("reports SQL errors with their message, and refuses reads beyond its queue", async () => {
    const reader = pool({ size: 1, maxQueue: 1, budgetMs: 60_000 });
    try {
      await assert.rejects(reader.run("SELECT nope FROM t", []), /no such column/);
      const first = reader.run("SELECT 1 AS one", []);
      const second = reader.run("SELECT 2 AS two", []);
      const third = assert.rejects(reader.run("SELECT 3 AS three", []), ReadQueueFullError);
      assert.deepEqual(await first, [{ one: 1 }]);
      assert.deepEqual(await second, [{ two: 2 }]);
      await third;
    } finally {
      await reader.close();
    }
  });

  it("maps as much of the database file into each reader as asked, and none by default", async () => {
    const mapped = pool({ mmapBytes: 64 * 1024 * 1024, size: 1 });
    const plain = pool({ size: 1 });
    try {
      assert.deepEqual(await mapped.run("PRAGMA mmap_size", []), [{ mmap_size: 64 * 1024 * 1024 }]);
      assert.deepEqual(await mapped.run("SELECT name FROM t WHERE id = ?", [3]), [{ name: "c" }], "reads through the mapping");
      assert.deepEqual(await plain.run("PRAGMA mmap_size", []), [{ mmap_size: 0 }]);
    } finally {
      await Promise.all([mapped.close(), plain.close()]);
    }
  });

  it("refuses to write", async () => {
    const reader = pool();
    try {
      await assert.rejects(reader.run("DELETE FROM t RETURNING id", []), /readonly/i);
    } finally {
      await reader.close();
    }
  });
});
