import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createDatabase, runCli, startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { sql } from "../support/sql";

// GET /users leaves the email out, so search must not match it either: otherwise a read key
// could recover an address one character at a time. Checked for data written by the import and
// for rows written before the fix, which the migration recomputes.

const MIGRATION = "20261123000000_user_search_name_only";

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});


async function searchTexts(url = app.databaseUrl): Promise<Record<string, string>> {
  const rows = await sql<{ id: string; searchText: string }>(url, `SELECT "id", "searchText" FROM "User" ORDER BY "id"`);
  return Object.fromEntries(rows.map((r) => [r.id, r.searchText]));
}

async function found(query: string): Promise<string[]> {
  const { status, body } = await app.json(`/api/v1/users?${query}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body.data.map((u: { id: string }) => u.id);
}

const emailOnly: [string, string][] = [
  ["the whole address", "ada%40example.com"],
  ["the domain", "example.com"],
  ["the part after @ in one user's address", "%40ex"],
  ["the local part of an address that is not in the name", "grace%40"],
  ["a run spanning the name and the email", "lovelace%20ada%40"],
];

describe("GET /api/v1/users?search= matches what the API shows, never the email", () => {
  for (const [name, search] of emailOnly) {
    it(`finds nobody for ${name}`, async () => {
      assert.deepEqual(await found(`search=${search}`), []);
      assert.deepEqual(await found(`q=${search}`), []);
    });
  }

  it("still finds users by their name, in any case, across name parts", async () => {
    assert.deepEqual(await found("search=LOVELACE"), ["u-ada"]);
    assert.deepEqual(await found("search=grace%20hop"), ["u-grace"]);
    assert.deepEqual(await found("search=%C3%BCnal"), ["u-zoe"]);
  });

  it("stores the folded name alone as a user's search text", async () => {
    assert.deepEqual(await searchTexts(), { "u-ada": "ada lovelace", "u-grace": "grace hopper", "u-zoe": "zoë ünal" });
  });

  it("recomputes users written before the fix when the migration runs", async () => {
    // On a database of its own: migrating is for a stopped server.
    const database = await createDatabase(app.engine);
    try {
      const file = path.join(os.tmpdir(), `feedback-users-${process.pid}.json`);
      fs.writeFileSync(file, JSON.stringify({ version: 1, users: dataset.users }));
      const imported = await runCli(database.url, ["import", file]);
      fs.rmSync(file, { force: true });
      assert.equal(imported.code, 0, imported.stderr);
      // The old writers stored the folded name and email joined by a space, the space even
      // without an email.
      const update = `UPDATE "User" SET "searchText" = ? WHERE "id" = ?`;
      await sql(database.url, update, ["ada lovelace ada@example.com", "u-ada"]);
      await sql(database.url, update, ["zoë ünal ", "u-zoe"]);
      await sql(database.url, `DELETE FROM "_prisma_migrations" WHERE "migration_name" = ?`, [MIGRATION]);

      const migrated = await runCli(database.url, ["migrate"]);
      assert.equal(migrated.code, 0, migrated.stderr);
      assert.match(migrated.stderr, new RegExp(MIGRATION));
      // Grace's row already held her name alone, and keeps it.
      assert.deepEqual(await searchTexts(database.url), { "u-ada": "ada lovelace", "u-grace": "grace hopper", "u-zoe": "zoë ünal" });
    } finally {
      await database.drop();
    }
  });
});
