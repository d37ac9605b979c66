import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { KeyReader } from "./key-reader";

describe("KeyReader", () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "key-reader-"));
    file = path.join(dir, "test.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (id TEXT PRIMARY KEY, at TEXT, revoked INTEGER); INSERT INTO t VALUES ('a', '2026-01-02T03:04:05.678+00:00', 0), ('b', NULL, 1);");
    db.close();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads a row by its key, decoded as the kinds say", () => {
    const reader = new KeyReader({ file });
    try {
      const rows = reader.read("SELECT id, at, revoked FROM t WHERE id = ?", ["a"], [["at", "time"], ["revoked", "bool"]]) as Record<string, unknown>[];
      assert.equal(rows.length, 1);
      assert.ok(rows[0]?.at instanceof Date);
      assert.equal((rows[0].at as Date).toISOString(), "2026-01-02T03:04:05.678Z");
      assert.equal(rows[0].revoked, false);
      assert.deepEqual(reader.read("SELECT id, at FROM t WHERE id = ?", ["b"], [["at", "time"]]), [{ id: "b", at: null }]);
      assert.deepEqual(reader.read("SELECT id FROM t WHERE id = ?", ["none"], []), []);
    } finally {
      reader.close();
    }
  });

  it("sees each write committed before its read, its statements kept", () => {
    const reader = new KeyReader({ file });
    const writer = new Database(file);
    try {
      const sql = "SELECT revoked FROM t WHERE id = ?";
      assert.deepEqual(reader.read(sql, ["b"], []), [{ revoked: 1 }]);
      writer.prepare("UPDATE t SET revoked = 0 WHERE id = ?").run("b");
      assert.deepEqual(reader.read(sql, ["b"], []), [{ revoked: 0 }], "no snapshot held over from the first read");
      writer.prepare("UPDATE t SET revoked = 1 WHERE id = ?").run("b");
      assert.deepEqual(reader.read(sql, ["b"], []), [{ revoked: 1 }]);
    } finally {
      writer.close();
      reader.close();
    }
  });

  it("refuses to write", () => {
    const reader = new KeyReader({ file });
    try {
      assert.throws(() => reader.read("DELETE FROM t WHERE id = ? RETURNING id", ["a"], []), /readonly|read-only|query_only/i);
      const check = new Database(file, { readonly: true });
      assert.deepEqual(check.prepare("SELECT count(*) AS n FROM t").get(), { n: 2 });
      check.close();
    } finally {
      reader.close();
    }
  });

  it("gives undefined at once, without waiting, where SQLite says busy", () => {
    // A file in rollback-journal mode, whose exclusive lock keeps readers out (in WAL mode
    // nothing but a log being reset does).
    const locked = path.join(dir, "locked.db");
    const owner = new Database(locked);
    owner.exec("CREATE TABLE t (id TEXT PRIMARY KEY); INSERT INTO t VALUES ('a');");
    const reader = new KeyReader({ file: locked });
    try {
      assert.deepEqual(reader.read("SELECT id FROM t WHERE id = ?", ["a"], []), [{ id: "a" }]);
      owner.exec("BEGIN EXCLUSIVE; UPDATE t SET id = 'b'");
      const started = Date.now();
      assert.equal(reader.read("SELECT id FROM t WHERE id = ?", ["a"], []), undefined);
      assert.ok(Date.now() - started < 500, "it did not wait for the lock");
      owner.exec("ROLLBACK");
      assert.deepEqual(reader.read("SELECT id FROM t WHERE id = ?", ["a"], []), [{ id: "a" }], "reads again once the lock is gone");
    } finally {
      reader.close();
      owner.close();
    }
  });

  it("throws any other failure", () => {
    const reader = new KeyReader({ file });
    try {
      assert.throws(() => reader.read("SELECT missing_column FROM t WHERE id = ?", ["a"], []), /no such column/);
    } finally {
      reader.close();
    }
  });
});
