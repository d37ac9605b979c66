import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { SqliteLookups } from "./lookups";

describe("SqliteLookups", () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "lookups-"));
    file = path.join(dir, "test.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b'), ('c');");
    db.close();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("answers a read with its rows, and sees what another connection committed since", () => {
    const lookups = new SqliteLookups(file, 0);
    const writer = new Database(file);
    try {
      assert.deepEqual(lookups.run("SELECT name FROM t WHERE id = ?", [2]), [{ name: "b" }]);
      writer.prepare("UPDATE t SET name = ? WHERE id = ?").run("B", 2);
      assert.deepEqual(lookups.run("SELECT name FROM t WHERE id = ?", [2]), [{ name: "B" }]);
    } finally {
      writer.close();
      lookups.close();
    }
  });

  it("refuses to write", () => {
    const lookups = new SqliteLookups(file, 0);
    try {
      assert.throws(() => lookups.run("DELETE FROM t RETURNING id", []), /readonly|read-only|query_only/i);
      assert.equal(lookups.run("SELECT count(*) AS n FROM t", []).length, 1);
    } finally {
      lookups.close();
    }
  });

  it("answers undefined at once, without sleeping, when the database is locked", () => {
    const lookups = new SqliteLookups(file, 0);
    // A connection in exclusive locking mode keeps every other one out of a WAL database once it
    // has written.
    const holder = new Database(file);
    try {
      holder.pragma("locking_mode = EXCLUSIVE");
      holder.prepare("UPDATE t SET name = name WHERE id = 1").run();
      const started = performance.now();
      assert.equal(lookups.run("SELECT name FROM t WHERE id = ?", [1]), undefined);
      assert.ok(performance.now() - started < 500, "a busy lookup must not wait for the lock");
    } finally {
      holder.close();
      lookups.close();
    }
    const again = new SqliteLookups(file, 0);
    try {
      assert.deepEqual(again.run("SELECT name FROM t WHERE id = ?", [1]), [{ name: "a" }]);
    } finally {
      again.close();
    }
  });
});
