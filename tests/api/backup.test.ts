import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { createDatabase, runCli, startApp, type TestApp, testEngine, type ThrowawayDatabase } from "../support/app";
import { dataset } from "../support/dataset";

// `feedback backup`: a consistent copy of a SQLite database taken while the server reads and
// writes it. On PostgreSQL it refuses and points to pg_dump.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "feedback-backup-"));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

if (testEngine() === "sqlite") {
  describe("feedback backup (SQLite)", () => {
    let app: TestApp;
    before(async () => {
      app = await startApp({ dataset });
      // Enough pages that the copy takes several steps.
      const seeded = await app.cli(["seed", "--posts", "5000"]);
      assert.equal(seeded.code, 0, seeded.stderr);
    });
    after(async () => {
      await app?.stop();
    });

    it("copies the live database while the server keeps writing, into a valid database with the same data", { timeout: 120_000 }, async () => {
      const written = ["Yes please, my eyes hurt."];
      const statuses: number[] = [];
      let writing = true;
      let during = 0;
      let backupRunning = false;
      const writer = (async () => {
        for (let n = 0; writing; n++) {
          const text = `Edited while the backup runs, #${n}`;
          const res = await app.request("/api/v1/comments/c-first", {
            method: "PUT",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ commentDescription: text }),
          });
          statuses.push(res.status);
          await res.arrayBuffer();
          written.push(text);
          if (backupRunning) during += 1;
        }
      })();

      const file = path.join(tmp, "live.db");
      while (written.length < 3) await new Promise((r) => setTimeout(r, 5));
      backupRunning = true;
      const backup = await app.cli(["backup", file]);
      backupRunning = false;
      writing = false;
      await writer;

      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stdout, /^Backed up .+ to .+live\.db \(\d+ pages, [\d.]+ MB\) in [\d.]+ s\.\n$/);
      assert.match(backup.stderr, /^backup: (\d+)\/\1 pages$/m);
      assert.ok(during >= 1, "the server wrote while the backup ran");
      assert.deepEqual([...new Set(statuses)], [200], "every write succeeded");
      assert.deepEqual(fs.readdirSync(tmp), ["live.db"], "no temporary or journal file is left beside it");

      const copy = new Database(file, { readonly: true, fileMustExist: true });
      const source = new Database(app.databaseUrl.slice("file:".length), { readonly: true, fileMustExist: true });
      try {
        assert.deepEqual(copy.pragma("integrity_check"), [{ integrity_check: "ok" }]);
        for (const table of ["Board", "PostStatus", "User", "Post", "Comment", "Changelog", "ChangelogLabel", "ApiKey"]) {
          assert.equal(count(copy, table), count(source, table), table);
        }
        assert.ok(count(copy, "Post") > 5000);
        // One moment's data: the comment as one of the writes left it.
        const comment = copy.prepare(`SELECT "commentDescription" AS text FROM "Comment" WHERE "id" = 'c-first'`).get() as { text: string };
        assert.ok(written.includes(comment.text), comment.text);
      } finally {
        copy.close();
        source.close();
      }

      // The app's own code reads the copy.
      const exported = await runCli(`file:${file}`, ["export", "-"]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal(JSON.parse(exported.stdout).posts.length, 5026);
    });

    it("refuses to replace a file without --force, and replaces it with --force", async () => {
      const file = path.join(tmp, "existing.db");
      fs.writeFileSync(file, "precious");
      const refused = await app.cli(["backup", file]);
      assert.equal(refused.code, 1);
      assert.equal(refused.stdout, "");
      assert.match(refused.stderr, /^feedback: .*existing\.db already exists; pass --force to replace it\n$/);
      assert.equal(fs.readFileSync(file, "utf8"), "precious");

      const forced = await app.cli(["backup", "--force", file]);
      assert.equal(forced.code, 0, forced.stderr);
      const copy = new Database(file, { readonly: true, fileMustExist: true });
      try {
        assert.deepEqual(copy.pragma("integrity_check"), [{ integrity_check: "ok" }]);
      } finally {
        copy.close();
      }
    });

    it("needs exactly one FILE", async () => {
      const result = await app.cli(["backup"]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /^feedback: backup needs exactly one FILE\n/);
    });
  });
} else {
  describe("feedback backup (PostgreSQL)", () => {
    let db: ThrowawayDatabase;
    before(async () => {
      db = await createDatabase();
    });
    after(async () => {
      await db?.drop();
    });

    it("refuses with a one-line reason that points to pg_dump, and writes nothing", async () => {
      const file = path.join(tmp, "pg.db");
      const result = await runCli(db.url, ["backup", file]);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /^feedback: backup copies a SQLite database; on PostgreSQL use pg_dump .*\n$/);
      assert.equal(fs.existsSync(file), false);
    });
  });
}

function count(db: Database.Database, table: string): number {
  return (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
}
