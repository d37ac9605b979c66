import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";

// tableRows on a real SQLite file. The database's modules read DATABASE_URL when first loaded,
// so they are loaded after it is set.

describe("tableRows", () => {
  it("reads a table's rows once for each data version it is told, and every time when told none", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "table-rows-"));
    const file = path.join(dir, "rows.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE "Post" ("seq" INTEGER PRIMARY KEY, "x" TEXT); INSERT INTO "Post" ("x") VALUES ('a'), ('b');`);
    process.env.DATABASE_URL = `file:${file}`;
    const { tableRows } = await import("./sql");
    const { closeConnections } = await import("./db");
    try {
      assert.equal(await tableRows("Post", 7), 2);
      db.exec(`INSERT INTO "Post" ("x") VALUES ('c')`);
      assert.equal(await tableRows("Post", 7), 2, "remembered for version 7");
      assert.equal(await tableRows("Post", 8), 3, "read again for another version");
      db.exec(`INSERT INTO "Post" ("x") VALUES ('d')`);
      assert.equal(await tableRows("Post"), 4, "read when no version is told");
    } finally {
      await closeConnections();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
