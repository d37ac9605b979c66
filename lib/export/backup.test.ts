import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, it } from "node:test";
import Database from "better-sqlite3";
import { backupSqlite } from "./backup";

// A write by another connection between two steps of SQLite's backup makes it start over, so
// on a busy server a backup could run forever. The copy must instead finish in its first pass,
// holding the data as it was when it began.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "feedback-backup-unit-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

it("finishes in one pass while another connection writes between its steps, copying one moment's data", async () => {
  const source = path.join(dir, "source.db");
  const writer = new Database(source);
  writer.pragma("journal_mode = WAL");
  writer.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  const insert = writer.prepare("INSERT INTO t (v) VALUES (?)");
  writer.transaction(() => {
    for (let i = 0; i < 50_000; i++) insert.run("x".repeat(200));
  })();

  const target = path.join(dir, "copy.db");
  let steps = 0;
  const { pages } = await backupSqlite(source, target, () => {
    steps += 1;
    // Enough writes that a copy which restarts on them shows it, few enough that it still ends.
    if (steps <= 50) insert.run("written during the backup");
  });
  writer.close();

  assert.ok(pages > 2000, `${pages} pages`);
  // One progress call per 1000 pages, plus the first and the last.
  assert.ok(steps <= Math.ceil(pages / 1000) + 2, `${steps} progress calls for ${pages} pages: the copy started over`);
  const copy = new Database(target, { readonly: true });
  try {
    assert.deepEqual(copy.pragma("integrity_check"), [{ integrity_check: "ok" }]);
    assert.equal((copy.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n, 50_000);
  } finally {
    copy.close();
  }
});
