import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { SqliteWriter } from "./writer";

describe("SqliteWriter", () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "writer-"));
    file = path.join(dir, "test.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
    db.close();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Another connection takes the write lock; the returned function lets it go. */
  const holdLock = () => {
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    return () => {
      other.exec("COMMIT");
      other.close();
    };
  };
  const names = () => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare("SELECT name FROM t ORDER BY id").all() as { name: string }[]).map((r) => r.name);
    } finally {
      db.close();
    }
  };
  const insert = (writer: SqliteWriter, name: string) =>
    writer.transaction(async (run) => run("INSERT INTO t (name) VALUES (?)", [name]));

  it("waits for another connection's lock off the event loop, and runs its transactions in the order they came", async () => {
    const writer = new SqliteWriter(file, { timeoutMs: 5_000, blocking: false });
    const release = holdLock();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    try {
      const done = ["first", "second", "third"].map((name) => insert(writer, name));
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.ok(ticks >= 10, `timers ran while the writer waited (${ticks} ticks)`);
      assert.deepEqual(names(), [], "nothing was written while the lock was held");
      release();
      await Promise.all(done);
      assert.deepEqual(names(), ["first", "second", "third"]);
    } finally {
      clearInterval(ticker);
      writer.close();
    }
  });

  it("gives up with SQLITE_BUSY once its time is out, counted from when each transaction was asked for", async () => {
    const writer = new SqliteWriter(file, { timeoutMs: 300, blocking: false });
    const release = holdLock();
    try {
      const started = performance.now();
      const outcomes = await Promise.allSettled(
        ["late-1", "late-2"].map(async (name) => {
          await insert(writer, name).catch((error: { code?: string }) => {
            throw Object.assign(new Error(error.code), { at: performance.now() - started });
          });
        }),
      );
      for (const outcome of outcomes) {
        assert.equal(outcome.status, "rejected");
        const reason = (outcome as PromiseRejectedResult).reason as Error & { at: number };
        assert.equal(reason.message, "SQLITE_BUSY");
        // The second was queued behind the first, but its wait began when it was asked for.
        assert.ok(reason.at >= 280 && reason.at < 550, `gave up after ${Math.round(reason.at)} ms`);
      }
    } finally {
      release();
      writer.close();
    }
    assert.ok(!names().some((name) => name.startsWith("late")), "nothing was written");
  });
});
