import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { scriptArgs } from "../../lib/server-command";
import { createDatabase, runCli, startApp, type TestApp, testEngine, type ThrowawayDatabase } from "../support/app";
import { dataset } from "../support/dataset";
import { sql, storedTime } from "../support/sql";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "feedback-cli-"));
const file = (name: string, content: unknown) => {
  const target = path.join(tmp, name);
  fs.writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
};
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("feedback import", () => {
  let db: ThrowawayDatabase;
  before(async () => {
    db = await createDatabase();
  });
  after(async () => {
    await db?.drop();
  });
  const cli = (...args: string[]) => runCli(db.url, args);

  it("refuses a file with one dangling reference, names the record, and writes nothing", async () => {
    const broken = structuredClone(dataset);
    (broken.posts[3] as { boardId: string }).boardId = "b-missing";
    const result = await cli("import", file("dangling.json", broken));
    assert.notEqual(result.code, 0);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /posts\[3\]\.boardId/);
    assert.match(result.stderr, /b-missing/);
    assert.match(result.stderr, /nothing was written/);
    const seeded = await cli("import", file("boards-only.json", { version: 1, boards: [{ id: "probe", name: "Probe" }] }));
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.match(seeded.stdout, /^Imported 1 boards, 0 statuses, 0 users, 0 posts, 0 comments, 0 changelogs/);
  });

  const invalid: [string, unknown, RegExp][] = [
    ["not JSON", "{ nope", /cannot read/],
    ["the wrong version", { version: 2 }, /version/],
    ["a post without a title", { ...dataset, posts: [{ ...dataset.posts[0], title: undefined }] }, /posts\[0\]\.title/],
    ["a bad date", { ...dataset, posts: [{ ...dataset.posts[0], createdAt: "yesterday" }] }, /posts\[0\]\.createdAt/],
    ["negative upvotes", { ...dataset, posts: [{ ...dataset.posts[0], upvotes: -1 }] }, /posts\[0\]\.upvotes/],
    ["a duplicate id", { ...dataset, boards: [...dataset.boards, dataset.boards[0]] }, /boards\[3\]\.id/],
    ["a comment on a missing post", { ...dataset, comments: [{ ...dataset.comments[0], postId: "p-missing" }] }, /comments\[0\]\.postId/],
    ["a missing status", { ...dataset, posts: [{ ...dataset.posts[0], statusId: "s-missing" }] }, /posts\[0\]\.statusId/],
    ["a Published changelog without publishedAt", { ...dataset, changelogs: [{ ...dataset.changelogs[0], publishedAt: undefined }] }, /changelogs\[0\]\.publishedAt/],
    ["a Draft with publishedAt", { ...dataset, changelogs: [{ ...dataset.changelogs[3], publishedAt: "2026-01-01T00:00:00.000Z" }] }, /changelogs\[0\]\.publishedAt/],
    ["two users with one email", { ...dataset, users: [...dataset.users, { id: "u-copy", name: "Copy", email: "ada@example.com" }] }, /users\[3\]\.email: "ada@example\.com" is also the email of users\[0\]/],
    ["an unknown changelog status", { ...dataset, changelogs: [{ ...dataset.changelogs[0], status: "Archived" }] }, /changelogs\[0\]\.status/],
  ];
  for (const [name, content, message] of invalid) {
    it(`refuses ${name}`, async () => {
      const result = await cli("import", file(`${name}.json`, content));
      assert.equal(result.code, 1);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, "");
    });
  }

  it("refuses a missing file with a one-line reason", async () => {
    const result = await cli("import", path.join(tmp, "nope.json"));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^feedback: cannot read .*nope\.json: no such file\n/);
  });

  it("imports the whole dataset, resolves references to the database, and a second run changes nothing", async () => {
    const first = await cli("import", file("full.json", dataset));
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^Imported 3 boards, 3 statuses, 3 users, 26 posts, 4 comments, 5 changelogs from .* in [\d.]+ s\.\n$/);
    const again = await cli("import", file("full.json", dataset));
    assert.equal(again.code, 0, again.stderr);

    // A later file may refer to records imported before.
    const extra = { version: 1, comments: [{ id: "c-extra", postId: "p-csv", postedById: "u-ada", commentDescription: "Later", createdAt: "2026-02-01T00:00:00.000Z" }] };
    assert.equal((await cli("import", file("extra.json", extra))).code, 0);
  });

  it("refuses a user whose email another user of the database has, and writes nothing", async () => {
    assert.equal((await cli("import", file("base-for-email.json", dataset))).code, 0);
    const taken = { version: 1, users: [{ id: "u-newcomer", name: "Newcomer", email: "ada@example.com" }] };
    const result = await cli("import", file("taken-email.json", taken));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /users\[0\]\.email: the user "u-ada" already has the email "ada@example\.com"/);
    assert.equal((await sql(db.url, `SELECT 1 FROM "User" WHERE "id" = 'u-newcomer'`)).length, 0);
    // A user may keep its email, and another may change its own.
    const kept = { version: 1, users: [{ id: "u-ada", name: "Ada King", email: "ada@example.com" }, { id: "u-grace", name: "Grace Hopper", email: "hopper@example.com" }] };
    const again = await cli("import", file("kept-email.json", kept));
    assert.equal(again.code, 0, again.stderr);
  });

  it("gives existing records every value of a later file, and keeps when boards and users were created", async () => {
    assert.equal((await cli("import", file("base.json", dataset))).code, 0);
    const created = async () =>
      sql<{ id: string; createdAt: unknown }>(db.url, `SELECT "id", "createdAt" FROM "Board" UNION ALL SELECT "id", "createdAt" FROM "User" ORDER BY "id"`);
    const createdBefore = await created();
    const later = "2026-03-01T00:00:00.000Z";
    const changed = {
      version: 1,
      boards: [{ id: "b-bugs", name: "Defects" }],
      statuses: [{ id: "s-open", name: "Triage", color: "#AABBCC", position: 7 }],
      users: [{ id: "u-zoe", name: "Zoë Ünal-Smith", email: "zoe@example.com" }],
      posts: [{ id: "p-csv", title: "Export to Excel", content: "xlsx too", boardId: "b-bugs", statusId: "s-done", postedById: "u-grace", upvotes: 56, createdAt: "2026-01-06T00:00:00.000Z", updatedAt: later }],
      comments: [
        { id: "c-pinned", postId: "p-csv", postedById: "u-zoe", commentDescription: "Moved here.", pinned: false, createdAt: "2026-01-12T00:00:00.000Z", updatedAt: later },
        // Named again, its text and pin as they were.
        dataset.comments[2],
      ],
      changelogs: [
        { id: "cl-dark", title: "Dark mode, again", content: "", status: "Draft", labels: ["Beta"], createdAt: "2026-01-15T00:00:00.000Z", updatedAt: later },
        { id: "cl-audit", title: "Audit log", content: "Shipped.", status: "Published", labels: ["New", "API", "new"], publishedAt: later, createdAt: "2026-01-26T00:00:00.000Z", updatedAt: later },
      ],
    };
    const result = await cli("import", file("changed.json", changed));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await created(), createdBefore);

    const exported = path.join(tmp, "after-change.json");
    assert.equal((await cli("export", exported, "--force")).code, 0);
    const out = JSON.parse(fs.readFileSync(exported, "utf8")) as Record<string, { id: string }[]>;
    const byId = (kind: string, id: string) => out[kind]?.find((record) => record.id === id);
    assert.deepEqual(byId("boards", "b-bugs"), { id: "b-bugs", name: "Defects" });
    assert.deepEqual(byId("statuses", "s-open"), { id: "s-open", name: "Triage", color: "#aabbcc", position: 7 });
    assert.deepEqual(byId("users", "u-zoe"), changed.users[0]);
    assert.deepEqual(byId("posts", "p-csv"), changed.posts[0]);
    assert.deepEqual(byId("comments", "c-pinned"), { ...changed.comments[0], pinnedAt: null });
    assert.deepEqual(byId("changelogs", "cl-dark"), { ...changed.changelogs[0], publishedAt: null });
    // Labels are the file's, the first spelling of each once.
    assert.deepEqual(byId("changelogs", "cl-audit"), { ...changed.changelogs[1], labels: ["API", "New"] });
    // Records the file does not name are as they were, and commentCount follows the comment.
    assert.deepEqual(byId("posts", "p-dark"), { ...dataset.posts[0], updatedAt: dataset.posts[0]?.createdAt });
    // A comment whose text or pin changed has a new version (its ETag), and its revisions say
    // what it was, by its author, and that the import changed it; one named unchanged keeps its.
    const versions = await sql<{ id: string; version: unknown }>(db.url, `SELECT "id", "version" FROM "Comment" WHERE "id" IN ('c-pinned', 'c-later') ORDER BY "id"`);
    assert.deepEqual(versions.map((row) => [row.id, Number(row.version)]), [["c-later", 1], ["c-pinned", 2]]);
    const revisions = await sql<{ version: unknown; commentDescription: string; pinned: unknown; actorName: string; via: string }>(
      db.url,
      `SELECT "version", "commentDescription", "pinned", "actorName", "via" FROM "CommentRevision" WHERE "commentId" = 'c-pinned' ORDER BY "version"`,
    );
    assert.deepEqual(
      revisions.map((r) => [Number(r.version), r.commentDescription, Boolean(r.pinned), r.via]),
      [[1, "This is planned for Q2.", true, "author"], [2, "Moved here.", false, "cli"]],
    );
    assert.equal(revisions[0]?.actorName, "Ada Lovelace");
    assert.match(revisions[1]?.actorName ?? "", /^cli \(/);
    assert.equal((await sql(db.url, `SELECT 1 FROM "CommentRevision" WHERE "commentId" = 'c-later'`)).length, 0);

    // p-dark had three comments, p-csv one more than it had, whichever earlier test added it.
    const counts = await sql<{ id: string; commentCount: unknown; comments: unknown }>(
      db.url,
      `SELECT p."id", p."commentCount", (SELECT count(*) FROM "Comment" c WHERE c."postId" = p."id") AS "comments" FROM "Post" p WHERE p."id" IN ('p-dark', 'p-csv') ORDER BY p."id"`,
    );
    assert.deepEqual(
      counts.map((row) => [row.id, Number(row.commentCount)]),
      counts.map((row) => [row.id, Number(row.comments)]),
    );
    assert.equal(Number(counts[1]?.commentCount), 2, "p-dark lost the comment that moved");
  });

  it("imports while another connection keeps writing, waiting for the lock instead of failing", async () => {
    // As a running server records each key's use. On SQLite an import whose transaction read
    // before its first write failed at once (SQLITE_BUSY_SNAPSHOT) when such a write committed
    // in between; the busy handler only waits for a lock, not for a snapshot to catch up.
    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        await sql(db.url, `UPDATE "ApiKey" SET "lastUsedAt" = ?`, [storedTime(db.url, new Date())]);
        writes += 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    const changelog = (i: number) => ({
      version: 1,
      changelogs: [{ id: `cl-busy-${i}`, title: "Now available", content: "", status: "Draft", labels: ["API"], createdAt: "2026-01-01T00:00:00.000Z" }],
    });
    try {
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => cli("import", file(`busy-${i}.json`, changelog(i)))));
      for (const result of results) assert.equal(result.code, 0, result.stderr);
    } finally {
      writing = false;
      await writer;
    }
    assert.ok(writes > 20, `the other connection wrote ${writes} times`);
    const [labels] = await sql<{ n: number }>(db.url, `SELECT count(*) AS "n" FROM "ChangelogLabel" WHERE "changelogId" LIKE 'cl-busy-%'`);
    assert.equal(Number(labels?.n), 6);
  });

  it("runs two imports of the same posts one after the other, in either order of the files", async () => {
    // PostgreSQL: the two upserts lock the posts, and the counts of their words, in the order
    // of their files; run at once, each came to hold a row the other waited for (a deadlock,
    // one import rolled back). They take turns, and the second says it waits. The test holds
    // the first import at its last post (a row lock of its own) until the second says so, and
    // then past the second's statement timeout.
    // More than one statement's worth (3,000 posts), so the first import reports progress
    // before it reaches the held post.
    const ids = Array.from({ length: 3_200 }, (_, i) => `p-turn-${String(i).padStart(4, "0")}`);
    const posts = (title: string, order: string[]) => ({
      version: 1,
      posts: order.map((id, i) => ({ ...dataset.posts[0], id, title: `${title} ${i}`, content: `${title} words ${id}` })),
    });
    const first = file("turn-first.json", posts("firstly", ids));
    const second = file("turn-second.json", posts("secondly", [...ids].reverse()));
    const { boards, statuses, users } = dataset;
    const original = await cli("import", file("turn-0.json", { ...posts("originally", ids), boards, statuses, users }));
    assert.equal(original.code, 0, original.stderr);
    // Long enough for the first to wait on the held row (PostgreSQL) or the write lock (SQLite).
    const env = { ...process.env, DATABASE_URL: db.url, DATABASE_LOCK_TIMEOUT_MS: "60000" };
    const start = (target: string, more: Record<string, string> = {}) => {
      const child = spawn(process.execPath, [...scriptArgs("cli/feedback.ts"), "import", target], { cwd: process.cwd(), env: { ...env, ...more } });
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      const done = new Promise<number | null>((resolve) => child.on("close", resolve));
      return { done, stderr: () => stderr };
    };
    const until = async (what: string, ready: () => boolean, said: () => string) => {
      const deadline = Date.now() + 20_000;
      while (!ready()) {
        assert.ok(Date.now() < deadline, `timed out waiting until ${what}; it said: ${said()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const holder = db.url.startsWith("file:") ? null : new pg.Client({ connectionString: db.url });
    await holder?.connect();
    try {
      await holder?.query(`BEGIN; SELECT 1 FROM "Post" WHERE "id" = '${ids.at(-1)}' FOR UPDATE`);
      const one = start(first);
      if (holder) {
        // The first import's upsert waits on the held row, inside its turn.
        await until("the first import waits on the held post", () => /import: \d+\/\d+ records/.test(one.stderr()), one.stderr);
      }
      // The second waits longer than its statement timeout: it waits however long the first takes.
      const two = start(second, { DATABASE_STATEMENT_TIMEOUT_MS: "3000" });
      if (holder) {
        await until("the second import says it waits", () => /another import is running/.test(two.stderr()), two.stderr);
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        await holder.query("COMMIT");
      }
      assert.equal(await one.done, 0, one.stderr());
      assert.equal(await two.done, 0, two.stderr());
    } finally {
      await holder?.end();
    }
    const titles = await sql<{ title: string }>(db.url, `SELECT "title" FROM "Post" WHERE "id" LIKE 'p-turn-%'`);
    const by = new Set(titles.map((row) => row.title.split(" ")[0]));
    assert.equal(titles.length, ids.length);
    // The second ran after the first where the test ordered them; on SQLite, all of one or the other.
    if (holder) assert.deepEqual([...by], ["secondly"]);
    else assert.equal(by.size, 1, [...by].join(", "));
    const found = await sql<{ n: number }>(db.url, `SELECT count(*) AS "n" FROM "Post" WHERE "searchText" LIKE '%firstly%'`);
    assert.equal(Number(found[0]?.n), holder ? 0 : by.has("firstly") ? ids.length : 0);
  });

  it("says plainly that another writer held the database too long, and writes nothing", async () => {
    // Another writer holds what the import needs past DATABASE_LOCK_TIMEOUT_MS: SQLite's write
    // lock (a transaction of the test's own), or on PostgreSQL the row of a board the import
    // changes. The import is one transaction, so it fails whole.
    const board = { id: "b-held", name: "Held" };
    assert.equal((await cli("import", file("held-0.json", { version: 1, boards: [board] }))).code, 0);
    const changed = file("held-1.json", { version: 1, boards: [{ ...board, name: "Renamed" }, { id: "b-held-new", name: "New" }] });
    const holder = db.url.startsWith("file:") ? null : new pg.Client({ connectionString: db.url });
    const sqliteFile = holder ? null : new Database(db.url.replace(/^file:/, ""));
    await holder?.connect();
    try {
      if (holder) await holder.query(`BEGIN; SELECT 1 FROM "Board" WHERE "id" = 'b-held' FOR UPDATE`);
      else sqliteFile?.exec("BEGIN IMMEDIATE");
      const result = await runCli(db.url, ["import", changed], { DATABASE_LOCK_TIMEOUT_MS: "300" });
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr.trimEnd().split("\n").at(-1) ?? "",
        /^feedback: import failed, nothing was written: another writer \(another import, or the server\) held a lock it needed for longer than DATABASE_LOCK_TIMEOUT_MS \(300 ms\); run it again once that writer is done/,
      );
    } finally {
      await holder?.query("ROLLBACK");
      await holder?.end();
      if (sqliteFile?.inTransaction) sqliteFile.exec("ROLLBACK");
      sqliteFile?.close();
    }
    const boards = await sql<{ id: string; name: string }>(db.url, `SELECT "id", "name" FROM "Board" WHERE "id" LIKE 'b-held%' ORDER BY "id"`);
    assert.deepEqual(boards.map((b) => [b.id, b.name]), [["b-held", "Held"]]);
    // Once the writer is done, the same import lands.
    assert.equal((await cli("import", changed)).code, 0);
  });

  it("says what a database failure was, on one line", async () => {
    const broken = await createDatabase();
    try {
      await sql(broken.url, `ALTER TABLE "AuditEvent" RENAME TO "AuditEventGone"`);
      const result = await runCli(broken.url, ["import", file("boards-only.json", { version: 1, boards: [{ id: "probe", name: "Probe" }] })]);
      assert.equal(result.code, 1);
      assert.match(result.stderr.trimEnd().split("\n").at(-1) ?? "", /^feedback: \S.*AuditEvent/);
      assert.doesNotMatch(result.stderr, /invocation/);
    } finally {
      await broken.drop();
    }
  });
});

describe("the search indexes after bulk writes", () => {
  let db: ThrowawayDatabase;
  before(async () => {
    db = await createDatabase();
  });
  after(async () => {
    await db?.drop();
  });
  const sqlite = testEngine() === "sqlite";
  const INDEXES = ["PostSearch", "PostWords", "ChangelogSearch", "ChangelogWords"];
  // How many FTS5 segments hold pages of each index (SQLite).
  const segments = async () => {
    const rows = await sql<{ name: string; segments: number }>(
      db.url,
      INDEXES.map((name) => `SELECT '${name}' AS "name", count(DISTINCT segid) AS "segments" FROM "${name}_idx"`).join(" UNION ALL "),
    );
    return Object.fromEntries(rows.map((row) => [row.name, Number(row.segments)]));
  };
  const merged = { PostSearch: 1, PostWords: 1, ChangelogSearch: 1, ChangelogWords: 1 };
  // Posts on the seed's boards, by its users, each with a word of its own batch.
  const posts = (count: number, word: string) => ({
    version: 1,
    posts: Array.from({ length: count }, (_, i) => ({
      id: `bulk-${word}-${i}`,
      title: `Please add ${word} number ${i}`,
      content: "Imported in one batch.",
      boardId: "demo_board_1",
      statusId: "demo_status_1",
      postedById: "demo_user_0000001",
      upvotes: i,
      createdAt: "2026-01-01T00:00:00.000Z",
    })),
  });
  const matches = async (word: string) =>
    (await sql<{ n: number }>(db.url, `SELECT count(*) AS "n" FROM "PostWords" WHERE "PostWords" MATCH ?`, [word]))[0]?.n;

  it("merges them after the seed and after an import of 1,000 posts or more, not after a smaller one", async () => {
    const seeded = await runCli(db.url, ["seed", "--posts", "3000"]);
    assert.equal(seeded.code, 0, seeded.stderr);
    if (sqlite) {
      assert.match(seeded.stderr, /seed: merging the search indexes of posts and changelogs\n/);
      assert.deepEqual(await segments(), merged);
    }
    const small = await runCli(db.url, ["import", file("ten-posts.json", posts(10, "zquorkfew"))]);
    assert.equal(small.code, 0, small.stderr);
    assert.doesNotMatch(small.stderr, /merging/);
    // The small import's posts are a segment of their own.
    if (sqlite) assert.ok(((await segments()).PostWords ?? 0) > 1, JSON.stringify(await segments()));
    const large = await runCli(db.url, ["import", file("thousand-posts.json", posts(1000, "zquorkmany"))]);
    assert.equal(large.code, 0, large.stderr);
    assert.match(large.stdout, /^Imported 0 boards, 0 statuses, 0 users, 1000 posts/);
    if (!sqlite) {
      // PostgreSQL's GIN indexes need no merging: nothing is said or done.
      for (const output of [seeded.stderr, large.stderr]) assert.doesNotMatch(output, /merging/);
      return;
    }
    assert.match(large.stderr, /import: merging the search indexes of posts\n/);
    assert.deepEqual(await segments(), merged);
    assert.equal(await matches("zquorkfew"), 10);
    assert.equal(await matches("zquorkmany"), 1000);
  });
});

describe("the imported data through the API", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dataset });
  });
  after(async () => {
    await app?.stop();
  });

  it("derives commentCount, and a re-import keeps every record as it was", async () => {
    const before = await app.json("/api/v1/posts?limit=100");
    assert.equal(before.body.data.find((p: { id: string }) => p.id === "p-dark").commentCount, 3);
    const again = await app.cli(["import", file("again.json", dataset)]);
    assert.equal(again.code, 0, again.stderr);
    const after = await app.json("/api/v1/posts?limit=100");
    assert.deepEqual(after.body, before.body);
    const changelogs = await app.json("/api/v1/changelogs?limit=100");
    assert.equal(changelogs.body.pagination.total, 5);
  });

  it("keeps search in step with an import that changes a title", async () => {
    const changed = { version: 1, posts: [{ ...dataset.posts[0], title: "Midnight theme" }] };
    assert.equal((await app.cli(["import", file("retitle.json", changed)])).code, 0);
    const found = await app.json("/api/v1/posts?search=midnight");
    assert.deepEqual(found.body.data.map((p: { id: string }) => p.id), ["p-dark"]);
    const old = await app.json("/api/v1/posts?search=dark%20mode");
    assert.deepEqual(old.body.data, []);
  });
});

describe("the command line's conventions", () => {
  let db: ThrowawayDatabase;
  before(async () => {
    db = await createDatabase();
  });
  after(async () => {
    await db?.drop();
  });

  it("prints only the key on stdout for keys create, through npm run as documented", async () => {
    const { stdout, stderr } = await promisify(execFile)("npm", ["run", "-s", "feedback", "--", "keys", "create", "--name", "npm"], {
      cwd: path.resolve(import.meta.dirname, "..", ".."),
      env: { ...process.env, DATABASE_URL: db.url },
    });
    assert.match(stdout, /^fbk_[A-Za-z0-9_-]{43}\n$/);
    assert.match(stderr, /shown once/);
  });

  it("is safe to migrate twice, printing nothing on stdout", async () => {
    const result = await runCli(db.url, ["migrate"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "");
  });

  it("seeds the same data for the same seed, and seeding twice leaves one copy", async () => {
    const first = await runCli(db.url, ["seed", "--posts", "50", "--seed", "7"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^Seeded 5 boards, 6 statuses, 10 users, 50 posts, \d+ comments, 5 changelogs \(seed 7\)/);
    const second = await runCli(db.url, ["seed", "--posts", "50", "--seed", "7"]);
    assert.equal(second.stdout.replace(/in [\d.]+ s/, ""), first.stdout.replace(/in [\d.]+ s/, ""));
  });

  const usage: [string[], RegExp][] = [
    [[], /no command given/],
    [["frobnicate"], /unknown command "frobnicate"/],
    [["keys"], /keys takes create, list or revoke/],
    [["keys", "create"], /--name/],
    [["keys", "create", "--name", "x", "--scopes", "root"], /unknown scope root; use read, write, admin/],
    [["audit"], /audit takes list, export or prune/],
    [["audit", "prune", "--older-than-days", "0"], /--older-than-days must be a whole number from 1/],
    [["keys", "revoke", "key_nope"], /no key has the ID key_nope/],
    [["seed", "--posts", "0"], /--posts must be a whole number from 1/],
    [["seed", "--posts", "ten"], /--posts must be a whole number/],
    [["seed", "--bogus"], /Unknown option/],
    [["import"], /import needs exactly one FILE/],
  ];
  for (const [args, message] of usage) {
    it(`fails with a one-line reason: feedback ${args.join(" ") || "(nothing)"}`, async () => {
      const result = await runCli(db.url, args);
      assert.equal(result.code, 1);
      assert.match(result.stderr.split("\n")[0] ?? "", message);
      assert.equal(result.stdout, "");
    });
  }
});
