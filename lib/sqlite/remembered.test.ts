import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { RememberedReads } from "./remembered";

describe("RememberedReads", () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "remembered-"));
    file = path.join(dir, "test.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE k (id TEXT PRIMARY KEY, name TEXT); INSERT INTO k VALUES ('a', 'first'), ('b', 'second')");
    db.close();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const SQL = "SELECT name FROM k WHERE id = ?";
  /** A read through `remembered` that counts the reads that reached the database. */
  const reader = (remembered: RememberedReads) => {
    const connection = new Database(file, { readonly: true });
    const statement = connection.prepare(SQL);
    const counted = { reads: 0 };
    const read = (id: string) =>
      remembered.read(SQL, [id], async () => {
        counted.reads++;
        return statement.all(id) as { name: string }[];
      });
    return { read, counted, close: () => connection.close() };
  };
  const write = (sql: string) => {
    const db = new Database(file);
    db.exec(sql);
    db.close();
  };

  it("reads once while the database is unchanged, each value apart", async () => {
    const remembered = new RememberedReads(file);
    const { read, counted, close } = reader(remembered);
    try {
      assert.deepEqual(await read("a"), [{ name: "first" }]);
      assert.deepEqual(await read("a"), [{ name: "first" }]);
      assert.deepEqual(await read("b"), [{ name: "second" }]);
      assert.deepEqual(await read("b"), [{ name: "second" }]);
      assert.equal(counted.reads, 2);
    } finally {
      close();
      remembered.close();
    }
  });

  it("reads again after a commit by another connection, or by another process", async () => {
    const remembered = new RememberedReads(file);
    const { read, counted, close } = reader(remembered);
    try {
      assert.deepEqual(await read("a"), [{ name: "first" }]);
      write("UPDATE k SET name = 'changed' WHERE id = 'a'");
      assert.deepEqual(await read("a"), [{ name: "changed" }]);
      assert.equal(counted.reads, 2);
      // A write to another row moves the count too: nothing read before it is reused.
      const script = `const D = require("better-sqlite3"); const d = new D(${JSON.stringify(file)}); d.exec("UPDATE k SET name = 'elsewhere' WHERE id = 'a'"); d.close();`;
      execFileSync(process.execPath, ["-e", script], { cwd: process.cwd() });
      assert.deepEqual(await read("a"), [{ name: "elsewhere" }]);
      assert.deepEqual(await read("a"), [{ name: "elsewhere" }]);
      assert.equal(counted.reads, 3);
    } finally {
      close();
      remembered.close();
    }
  });

  it("gives each caller rows of its own", async () => {
    const remembered = new RememberedReads(file);
    const { read, close } = reader(remembered);
    try {
      // The first caller's rows (as read), then a remembered copy's: neither reaches the next caller.
      for (let i = 0; i < 2; i++) {
        const [row] = await read("b");
        assert.ok(row);
        row.name = "scribbled on";
      }
      assert.deepEqual(await read("b"), [{ name: "second" }]);
    } finally {
      close();
      remembered.close();
    }
  });

  it("keeps at most its limit, dropping the least recently used", async () => {
    const remembered = new RememberedReads(file, 1);
    const { read, counted, close } = reader(remembered);
    try {
      await read("a");
      await read("b");
      await read("a");
      assert.equal(counted.reads, 3, "a was dropped when b came");
      await read("a");
      assert.equal(counted.reads, 3);
    } finally {
      close();
      remembered.close();
    }
  });

  it("reads every time where it cannot tell whether the database changed", async () => {
    const missing = new RememberedReads(path.join(dir, "no-such.db"));
    const { read, counted, close } = reader(missing);
    const closed = new RememberedReads(file);
    const second = reader(closed);
    closed.close();
    try {
      await read("a");
      await read("a");
      assert.equal(counted.reads, 2);
      await second.read("a");
      await second.read("a");
      assert.equal(second.counted.reads, 2);
    } finally {
      close();
      second.close();
    }
  });

  it("tries again after a file it could not read turns into the database", async () => {
    const late = path.join(dir, "late.db");
    fs.writeFileSync(late, "not a database yet, ".repeat(300));
    const remembered = new RememberedReads(late);
    let reads = 0;
    const read = () =>
      remembered.read(SQL, ["a"], async () => {
        reads++;
        return [{ name: "first" }];
      });
    try {
      await read();
      await read();
      assert.equal(reads, 2, "not remembered while the file is no database");
      fs.copyFileSync(file, late);
      await read();
      await read();
      assert.equal(reads, 3, "remembered once it is one");
    } finally {
      remembered.close();
    }
  });

  it("does not keep a read that failed", async () => {
    const remembered = new RememberedReads(file);
    try {
      await assert.rejects(
        remembered.read(SQL, ["a"], async () => {
          throw new Error("the reader failed");
        }),
        /the reader failed/,
      );
      assert.deepEqual(await remembered.read(SQL, ["a"], async () => [{ name: "read again" }]), [{ name: "read again" }]);
    } finally {
      remembered.close();
    }
  });
});
