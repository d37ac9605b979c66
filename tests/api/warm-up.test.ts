import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { logLines, startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { eventually } from "../support/eventually";
import { sql } from "../support/sql";

// On SQLite a process reads its search aids (the indexes' vocabularies, the commonest words'
// bits, the sort orders' ranks) from its start, for the tables as they were then, where
// before each waited for the first search that asked for it (lib/sqlite/warm-up.ts). What the
// server holds is read from its log: each read logs its table and the version it is of.

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});

/** Every read of a search aid the server has logged, as "what table order@version". */
const aidReads = () =>
  [
    ...logLines(app, "read the search index's vocabulary").map((line) => `vocabulary ${line.table}@${line.version}`),
    ...logLines(app, "read the commonest words' rows").map((line) => `bits ${line.table}@${line.version}`),
    ...logLines(app, "read a sort order's ranks").map((line) => `ranks ${line.table} ${line.order}@${line.version}`),
  ].sort();

describe("search aids read from the start", () => {
  it("are read before any search (SQLite; PostgreSQL keeps none), and the first searches find them held", async () => {
    if (app.engine === "postgres") {
      // Given the time SQLite's server takes for it here, with room.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      assert.deepEqual([aidReads(), logLines(app, "read the search aids after the start")], [[], []]);
      return;
    }
    const [ready] = await eventually(async () => {
      const lines = logLines(app, "read the search aids after the start");
      return lines.length ? lines : undefined;
    }, "the server to read its search aids");
    const versions = Object.fromEntries(
      (await sql<{ name: string; version: number }>(app.databaseUrl, `SELECT "name", "version" FROM "DataVersion" WHERE "name" IN ('Post', 'Changelog')`)).map(
        (row) => [row.name, Number(row.version)],
      ),
    );
    assert.deepEqual([ready?.versions, ready?.passedOver, ready?.changed], [versions, undefined, undefined], "every aid read, of the tables as they were");
    const held = [
      `bits Changelog@${versions.Changelog}`,
      `bits Post@${versions.Post}`,
      `ranks Changelog drafts-then-newest@${versions.Changelog}`,
      `ranks Post latest@${versions.Post}`,
      `ranks Post top@${versions.Post}`,
      `vocabulary Changelog@${versions.Changelog}`,
      `vocabulary Post@${versions.Post}`,
    ];
    assert.deepEqual(aidReads(), held, "each aid read once, at the table's version, with no request made");

    // Searches of each kind: short terms, a word in either order, a word with a filter, the
    // changelogs'. Each would ask for an aid it found missing, and its read would be logged.
    const searches: [path: string, table: string, where: string, params: string[]][] = [
      ["/api/v1/posts?search=ok", "Post", `"searchText" LIKE ?`, ["%ok%"]],
      ["/api/v1/posts?search=e", "Post", `"searchText" LIKE ?`, ["%e%"]],
      ["/api/v1/posts?search=filler", "Post", `"searchText" LIKE ?`, ["%filler%"]],
      ["/api/v1/posts?search=filler&sortBy=top", "Post", `"searchText" LIKE ?`, ["%filler%"]],
      ["/api/v1/posts?search=report&boardId=b-bugs", "Post", `"searchText" LIKE ? AND "boardId" = ?`, ["%report%", "b-bugs"]],
      ["/api/v1/changelogs?search=coming", "Changelog", `"searchText" LIKE ?`, ["%coming%"]],
      ["/api/v1/changelogs?search=dark&status=Published", "Changelog", `"searchText" LIKE ? AND "status" = ?`, ["%dark%", "Published"]],
    ];
    for (const [path, table, where, params] of searches) {
      const [expected] = await sql<{ n: number }>(app.databaseUrl, `SELECT COUNT(*) AS "n" FROM "${table}" WHERE ${where}`, params);
      const { status, body } = await app.json(path);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.pagination.total, Number(expected?.n), path);
    }
    assert.deepEqual(aidReads(), held, "no aid read again");
    assert.equal(logLines(app, "read the search aids after the start").length, 1);
  });
});
