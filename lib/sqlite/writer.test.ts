import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { MAX_GROUP, SqliteWriter } from "./writer";

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
      const attempt = async (name: string) => {
        await insert(writer, name).catch((error: { code?: string }) => {
          throw Object.assign(new Error(error.code), { at: performance.now() - started });
        });
      };
      const first = attempt("late-1");
      // Asked for later, so it waits behind the first's group, but its own time counts from now.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const outcomes = await Promise.allSettled([first, attempt("late-2")]);
      const [firstGaveUp, secondGaveUp] = outcomes.map((outcome) => {
        assert.equal(outcome.status, "rejected");
        const reason = (outcome as PromiseRejectedResult).reason as Error & { at: number };
        assert.equal(reason.message, "SQLITE_BUSY");
        return reason.at;
      });
      const firstAt = firstGaveUp ?? Number.NaN;
      const secondAt = secondGaveUp ?? Number.NaN;
      assert.ok(firstAt >= 280 && firstAt < 450, `the first gave up after ${Math.round(firstAt)} ms`);
      assert.ok(secondAt >= 380 && secondAt < 600, `the second gave up after ${Math.round(secondAt)} ms`);
    } finally {
      release();
      writer.close();
    }
    assert.ok(!names().some((name) => name.startsWith("late")), "nothing was written");
  });

  it("commits the transactions asked for together as one, and a failed one rolls back alone", async () => {
    const writer = new SqliteWriter(file, { timeoutMs: 5_000, blocking: false });
    const seen: string[][] = [];
    try {
      const outcomes = await Promise.allSettled([
        insert(writer, "group-1"),
        writer.transaction(async (run) => {
          run("INSERT INTO t (name) VALUES (?)", ["group-failed"]);
          throw new Error("refused");
        }),
        writer.transaction(async (run) => {
          // Another connection does not see the first yet: it is not committed on its own.
          seen.push(names().filter((name) => name.startsWith("group")));
          return run("INSERT INTO t (name) VALUES (?)", ["group-3"]);
        }),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ["fulfilled", "rejected", "fulfilled"],
      );
      assert.equal(((outcomes[1] as PromiseRejectedResult).reason as Error).message, "refused");
      assert.deepEqual(seen, [[]]);
      assert.deepEqual(
        names().filter((name) => name.startsWith("group")),
        ["group-1", "group-3"],
      );
    } finally {
      writer.close();
    }
  });

  it("fails every transaction of a group when one ends the group's transaction, and writes none of them", async () => {
    const writer = new SqliteWriter(file, { timeoutMs: 5_000, blocking: false });
    try {
      const outcomes = await Promise.allSettled([
        insert(writer, "ended-1"),
        writer.transaction(async (run) => {
          run("ROLLBACK", []);
          throw new Error("the transaction ended");
        }),
        insert(writer, "ended-3"),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ["rejected", "rejected", "rejected"],
      );
      // Each with the error that ended it, not a failed ROLLBACK TO of a savepoint gone with it.
      for (const outcome of outcomes) assert.equal(((outcome as PromiseRejectedResult).reason as Error).message, "the transaction ended");
      assert.ok(!names().some((name) => name.startsWith("ended")), "nothing was written");
      // The connection is fit for the next group.
      await insert(writer, "after-ended");
      assert.ok(names().includes("after-ended"));
    } finally {
      writer.close();
    }
  });

  it("commits a queue longer than a group in the order it came, a group at a time", async () => {
    const writer = new SqliteWriter(file, { timeoutMs: 5_000, blocking: false });
    try {
      const wanted = Array.from({ length: MAX_GROUP * 2 + 3 }, (_, i) => `queued-${String(i).padStart(2, "0")}`);
      const answered: string[] = [];
      await Promise.all(wanted.map((name) => insert(writer, name).then(() => answered.push(name))));
      assert.deepEqual(answered, wanted);
      assert.deepEqual(
        names().filter((name) => name.startsWith("queued")),
        wanted,
      );
    } finally {
      writer.close();
    }
  });
});
