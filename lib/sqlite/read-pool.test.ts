import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { ReadPool, ReadQueueFullError, ReadTimeoutError } from "./read-pool";

// A query that keeps SQLite busy for seconds: counting to ten million (over a second).
const SLOW = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000) SELECT count(*) AS n FROM c";

describe("ReadPool", () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "read-pool-"));
    file = path.join(dir, "test.db");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b'), ('c');");
    db.close();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const pool = (overrides: Partial<ConstructorParameters<typeof ReadPool>[0]> = {}) =>
    new ReadPool({ file, size: 2, budgetMs: 5_000, busyTimeoutMs: 1_000, maxQueue: 100, ...overrides });

  it("answers reads with their rows and parameters", async () => {
    const reader = pool();
    try {
      assert.deepEqual(await reader.run("SELECT name FROM t WHERE id >= ? ORDER BY id", [2]), [{ name: "b" }, { name: "c" }]);
    } finally {
      await reader.close();
    }
  });

  it("decodes the rows it reads as the kinds given say, NULL left as it is", async () => {
    const reader = pool();
    try {
      const sql = `SELECT '2026-01-02T03:04:05.678+00:00' AS at, NULL AS never, 0 AS off, 1 AS on_, json_array('x', 'y') AS names, 5 AS n`;
      const kinds = [["at", "time"], ["never", "time"], ["off", "bool"], ["on_", "bool"], ["names", "list"], ["n", "int"]] as const;
      const [row] = (await reader.run(sql, [], { kinds })) as Record<string, unknown>[];
      assert.ok(row?.at instanceof Date, "a time is a Date");
      assert.equal((row.at as Date).toISOString(), "2026-01-02T03:04:05.678Z");
      assert.deepEqual({ ...row, at: undefined }, { at: undefined, never: null, off: false, on_: true, names: ["x", "y"], n: 5 });
      const plain = { at: "2026-01-02T03:04:05.678+00:00", never: null, off: 0, on_: 1, names: '["x","y"]', n: 5 };
      assert.deepEqual(await reader.run(sql, []), [plain], "no kinds: as SQLite gives them");
    } finally {
      await reader.close();
    }
  });

  it("keeps the event loop free while a read runs", async () => {
    const reader = pool({ budgetMs: 60_000 });
    try {
      const slow = reader.run(SLOW, []);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      await slow;
      clearInterval(timer);
      assert.ok(ticks > 10, `the event loop ran ${ticks} timer ticks during the read`);
    } finally {
      await reader.close();
    }
  });

  it("fails a read past its budget at once, and goes on serving with a new worker", async () => {
    const reader = pool({ size: 1, budgetMs: 200 });
    try {
      const started = performance.now();
      await assert.rejects(reader.run(SLOW, []), ReadTimeoutError);
      assert.ok(performance.now() - started < 2_000);
      assert.deepEqual(await reader.run("SELECT count(*) AS n FROM t", []), [{ n: 3 }]);
    } finally {
      await reader.close();
    }
  });

  it("counts a read's budget from when its worker has opened the database, not from when it was started", async () => {
    // The read is given to a worker still starting, and the main thread is held for longer than
    // the budget meanwhile (as on a busy machine): counted from the dispatch, the budget would
    // run out before the worker's answer could be taken.
    const reader = pool({ size: 1, budgetMs: 100 });
    try {
      const read = reader.run("SELECT count(*) AS n FROM t", []);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      assert.deepEqual(await read, [{ n: 3 }]);
    } finally {
      await reader.close();
    }
  });

  it("reports SQL errors with their message, and refuses reads beyond its queue", async () => {
    const reader = pool({ size: 1, maxQueue: 1, budgetMs: 60_000 });
    try {
      await assert.rejects(reader.run("SELECT nope FROM t", []), /no such column/);
      const first = reader.run("SELECT 1 AS one", []);
      const second = reader.run("SELECT 2 AS two", []);
      const third = assert.rejects(reader.run("SELECT 3 AS three", []), ReadQueueFullError);
      assert.deepEqual(await first, [{ one: 1 }]);
      assert.deepEqual(await second, [{ two: 2 }]);
      await third;
    } finally {
      await reader.close();
    }
  });

  it("maps as much of the database file into each reader as asked, and none by default", async () => {
    const mapped = pool({ mmapBytes: 64 * 1024 * 1024, size: 1 });
    const plain = pool({ size: 1 });
    try {
      assert.deepEqual(await mapped.run("PRAGMA mmap_size", []), [{ mmap_size: 64 * 1024 * 1024 }]);
      assert.deepEqual(await mapped.run("SELECT name FROM t WHERE id = ?", [3]), [{ name: "c" }], "reads through the mapping");
      assert.deepEqual(await plain.run("PRAGMA mmap_size", []), [{ mmap_size: 0 }]);
    } finally {
      await Promise.all([mapped.close(), plain.close()]);
    }
  });

  it("refuses to write", async () => {
    const reader = pool();
    try {
      await assert.rejects(reader.run("DELETE FROM t RETURNING id", []), /readonly/i);
    } finally {
      await reader.close();
    }
  });

  describe("a sort order's ranks (lib/sqlite/ranks.ts)", () => {
    // Posts with scores, some tied (the order breaks ties by seq), a hole where one was deleted,
    // and a version row as the data_versions migration keeps it.
    let ranked: string;
    before(() => {
      ranked = path.join(dir, "ranked.db");
      const db = new Database(ranked);
      db.pragma("journal_mode = WAL");
      db.exec(`CREATE TABLE "Post" (seq INTEGER PRIMARY KEY, score INT, name TEXT);
        CREATE TABLE "DataVersion" (name TEXT PRIMARY KEY, version INT);
        INSERT INTO "DataVersion" VALUES ('Post', 7);`);
      const insert = db.prepare(`INSERT INTO "Post" (seq, score, name) VALUES (?, ?, ?)`);
      for (let seq = 1; seq <= 40; seq++) if (seq !== 13) insert.run(seq, (seq * 7) % 5, seq % 3 === 0 ? "fizz" : "other");
      db.close();
    });
    const ORDER = `SELECT t.seq FROM "Post" t ORDER BY t.score DESC, t.seq DESC`;
    const READING = { highest: `SELECT max(seq) FROM "Post"`, version: `SELECT version FROM "DataVersion" WHERE name = 'Post'`, most: 1000 };
    const MATCHES = `SELECT seq FROM "Post" WHERE name = ? LIMIT ?`;
    const expected = (name: string) => {
      const db = new Database(ranked, { readonly: true });
      try {
        return db.prepare(`SELECT seq FROM "Post" WHERE name = ? ORDER BY score DESC, seq DESC`).pluck().all(name) as number[];
      } finally {
        db.close();
      }
    };
    const rankedPool = (overrides: Partial<ConstructorParameters<typeof ReadPool>[0]> = {}) =>
      new ReadPool({ file: ranked, size: 2, budgetMs: 5_000, busyTimeoutMs: 1_000, maxQueue: 100, ...overrides });
    type Ranks = { version: number; rows: number; order: Int32Array; rank: Int32Array };
    const readRanks = async (reader: ReadPool) => ((await reader.run(ORDER, [], { ranks: READING })) as Ranks[])[0] as Ranks;
    const page = (reader: ReadPool, name: string, offset: number, limit: number, bound = 100) =>
      reader.run(MATCHES, [name, bound + 1], { ranked: { name: "Post:score", offset, limit, bound, version: READING.version } });

    it("reads every row's place in the order, with the version, into shared memory", async () => {
      const reader = rankedPool();
      try {
        const ranks = await readRanks(reader);
        assert.equal(ranks.version, 7);
        assert.equal(ranks.rows, 39);
        assert.ok(ranks.order.buffer instanceof SharedArrayBuffer && ranks.rank.buffer instanceof SharedArrayBuffer);
        const all = [...expected("fizz"), ...expected("other")];
        assert.deepEqual([...ranks.order.subarray(0, ranks.rows)].sort((a, b) => a - b), all.sort((a, b) => a - b));
        for (let place = 0; place < ranks.rows; place++) assert.equal(ranks.rank[ranks.order[place] as number], place);
        assert.equal(ranks.rank[13], -1, "no row, no place");
        const none = ((await reader.run(ORDER, [], { ranks: { ...READING, most: 39 } })) as { version: number; rows: number; order: null }[])[0];
        assert.deepEqual(none, { version: 7, rows: 0, order: null, rank: null }, "none past the most rows asked for (the highest seq is 40)");
      } finally {
        await reader.close();
      }
    });

    it("counts a search's matches and gives its page in the order, from any offset, once every reader holds the ranks", async () => {
      const reader = rankedPool();
      try {
        assert.deepEqual(await page(reader, "fizz", 0, 5), [{ count: 13, version: 7, seqs: null, rows: null }], "no ranks yet: the count alone");
        reader.install("Post:score", await readRanks(reader));
        const fizz = expected("fizz");
        // Two readers: both pages come from whichever is free, and both hold the ranks.
        const [first, second] = await Promise.all([page(reader, "fizz", 0, 5), page(reader, "fizz", 5, 5)]);
        assert.deepEqual(first, [{ count: 13, version: 7, seqs: fizz.slice(0, 5), rows: null }]);
        assert.deepEqual(second, [{ count: 13, version: 7, seqs: fizz.slice(5, 10), rows: null }]);
        assert.deepEqual(await page(reader, "fizz", 10, 5), [{ count: 13, version: 7, seqs: fizz.slice(10), rows: null }], "the last page, short");
        assert.deepEqual(await page(reader, "fizz", 20, 5), [{ count: 13, version: 7, seqs: [], rows: null }], "past the end");
        assert.deepEqual(await page(reader, "none", 0, 5), [{ count: 0, version: 7, seqs: [], rows: null }]);
        assert.deepEqual(await page(reader, "other", 0, 5, 10), [{ count: 11, version: 7, seqs: null, rows: null }], "past the bound: counted to one more, no page");
      } finally {
        await reader.close();
      }
    });

    it("reads the page's rows in the same job, with the statement's own values and the page's seqs", async () => {
      const reader = rankedPool();
      try {
        reader.install("Post:score", await readRanks(reader));
        // The rows' statement has a value of its own beside @seqs, which drops none of the page's
        // rows here; the reader decodes them (a list, here) as their kinds say.
        const rows = {
          sql: `SELECT t.seq, json_array(t.name) AS names FROM "Post" t WHERE t.seq IN (SELECT value FROM json_each(@seqs)) AND t.name <> ? ORDER BY t.score DESC, t.seq DESC`,
          values: ["absent"],
          kinds: [["names", "list"]] as const,
        };
        const shown = (name: string, offset: number, limit: number) =>
          reader.run(MATCHES, [name, 101], { ranked: { name: "Post:score", offset, limit, bound: 100, version: READING.version, rows } });
        const rowsOf = (name: string, seqs: number[]) => seqs.map((seq) => ({ seq, names: [name] }));
        const fizz = expected("fizz").slice(5, 9);
        assert.deepEqual(await shown("fizz", 5, 4), [{ count: 13, version: 7, seqs: fizz, rows: rowsOf("fizz", fizz) }]);
        const other = expected("other").slice(0, 4);
        assert.deepEqual(await shown("other", 0, 4), [{ count: 26, version: 7, seqs: other, rows: rowsOf("other", other) }]);
        assert.deepEqual(await shown("fizz", 20, 4), [{ count: 13, version: 7, seqs: [], rows: [] }], "past the end: no rows");
      } finally {
        await reader.close();
      }
    });

    it("gives no page once the table's version moves past the ranks', and the ranks read again give it", async () => {
      const reader = rankedPool();
      const writer = new Database(ranked);
      try {
        reader.install("Post:score", await readRanks(reader));
        writer.exec(`UPDATE "Post" SET score = 9 WHERE seq = 40; UPDATE "DataVersion" SET version = 8`);
        assert.deepEqual(await page(reader, "other", 0, 3), [{ count: 26, version: 8, seqs: null, rows: null }]);
        reader.install("Post:score", await readRanks(reader));
        assert.deepEqual(await page(reader, "other", 0, 3), [{ count: 26, version: 8, seqs: expected("other").slice(0, 3), rows: null }]);
        assert.equal(expected("other")[0], 40, "the row moved to the top");
      } finally {
        writer.close();
        await reader.close();
      }
    });

    it("narrows a term's matches to those holding a word of each other term, by word bits read into shared memory (lib/sqlite/word-bits.ts)", async () => {
      const reader = rankedPool();
      try {
        reader.install("Post:score", await readRanks(reader));
        const [{ version } = { version: -1 }] = (await reader.run(READING.version, [])) as { version: number }[];
        // Two "words": the rows whose seq is a multiple of 2, and of 5 (seqs up to 40: two 32-bit words each).
        const stride = 2;
        const memory = new SharedArrayBuffer(4 * stride * 2);
        const WORD_ROWS = `SELECT group_concat(seq) FROM "Post" WHERE seq % ? = 0`;
        for (const [place, divisor] of [2, 5].entries()) {
          const into = new Int32Array(memory, 4 * stride * place, stride);
          const [read] = (await reader.run(WORD_ROWS, [divisor], { bits: { into, version: READING.version } })) as { version: number; rows: number; overflow: boolean }[];
          assert.deepEqual(read, { version, rows: divisor === 2 ? 20 : 8, overflow: false });
        }
        const tooSmall = new Int32Array(new SharedArrayBuffer(4), 0, 1);
        const [overflow] = (await reader.run(WORD_ROWS, [2], { bits: { into: tooSmall, version: READING.version } })) as { overflow: boolean }[];
        assert.equal(overflow?.overflow, true, "a seq past the bits' end says so");
        const untouched = new Int32Array(new SharedArrayBuffer(4 * stride), 0, stride);
        const [none] = (await reader.run(WORD_ROWS, [1000], { bits: { into: untouched, version: READING.version } })) as { rows: number }[];
        assert.deepEqual([none?.rows, [...untouched]], [0, [0, 0]], "a word in no row sets no bit");
        const narrowed = (terms: number[][], bitsVersion = version, placesVersion = version) => {
          reader.install("Post:bits", { version: bitsVersion, stride, bits: new Int32Array(memory) });
          const held = { name: "Post:bits", version: placesVersion, terms };
          return reader.run(MATCHES, ["fizz", 101], { ranked: { name: "Post:score", offset: 0, limit: 5, bound: 100, version: READING.version, held } });
        };
        const fizz = expected("fizz");
        const holding = (test: (seq: number) => boolean) => fizz.filter(test);
        const even = holding((seq) => seq % 2 === 0);
        assert.deepEqual(await narrowed([[0]]), [{ count: even.length, version, seqs: even.slice(0, 5), rows: null }], "one term of one word");
        const either = holding((seq) => seq % 2 === 0 || seq % 5 === 0);
        assert.deepEqual(await narrowed([[0, 1]]), [{ count: either.length, version, seqs: either.slice(0, 5), rows: null }], "one term of two words: either");
        const both = holding((seq) => seq % 10 === 0);
        assert.deepEqual(await narrowed([[0], [1]]), [{ count: both.length, version, seqs: both, rows: null }], "two terms: both");
        assert.ok(both.length > 0 && either.length > 5 && either.length > even.length, "the cases are not empty, and the page is short of the matches");
        const stale = [{ count: null, version, seqs: null, rows: null, stale: true }];
        assert.deepEqual(await narrowed([[0]], version - 1, version - 1), stale, "bits of another version than the table's say so");
        assert.deepEqual(await narrowed([[0]], version, version - 1), stale, "and so do places of another version than the bits'");
      } finally {
        await reader.close();
      }
    });

    it("finds a search by word bits alone: counted, and paged by the ranks up to the bound and past it by walking the order", async () => {
      const reader = rankedPool();
      try {
        const ranks = await readRanks(reader);
        reader.install("Post:score", ranks);
        const { version } = ranks;
        // Two "words", as above: the rows whose seq is a multiple of 2, and of 5.
        const stride = 2;
        const bits = new Int32Array(stride * 2);
        for (const seq of ranks.order.subarray(0, ranks.rows)) {
          for (const [place, divisor] of [2, 5].entries()) {
            const word = place * stride + (seq >>> 5);
            if (seq % divisor === 0) bits[word] = (bits[word] ?? 0) | (1 << (seq & 31));
          }
        }
        const shared = new Int32Array(new SharedArrayBuffer(bits.byteLength));
        shared.set(bits);
        reader.install("Post:bits", { version, stride, bits: shared });
        const rows = { sql: `SELECT t.seq FROM "Post" t WHERE t.seq IN (SELECT value FROM json_each(@seqs)) ORDER BY t.score DESC, t.seq DESC`, values: [] };
        const whole = (terms: number[][], offset: number, limit: number, bound: number, placesVersion = version) =>
          reader.run("", [], {
            ranked: { name: "Post:score", offset, limit, bound, version: READING.version, rows, whole: { name: "Post:bits", version: placesVersion, terms } },
          });
        const all = [...ranks.order.subarray(0, ranks.rows)];
        const answer = (count: number, seqs: number[]) => [{ count, version, seqs, rows: seqs.map((seq) => ({ seq })) }];
        const even = all.filter((seq) => seq % 2 === 0);
        assert.equal(even.length, 20);
        assert.deepEqual(await whole([[0]], 0, 5, 100), answer(20, even.slice(0, 5)), "within the bound, near the top: walked");
        assert.deepEqual(await whole([[0]], 17, 5, 100), answer(20, even.slice(17)), "its last page, short, deep enough to sort every match by its rank");
        assert.deepEqual(await whole([[0]], 0, 5, 10), answer(11, even.slice(0, 5)), "past the bound: counted to one more, and the page walked");
        assert.deepEqual(await whole([[0]], 12, 5, 10), answer(11, even.slice(12, 17)), "a page past the bound's matches, walked");
        assert.deepEqual(await whole([[0]], 18, 5, 10), answer(11, even.slice(18)), "the walk's last page, short");
        assert.deepEqual(await whole([[0]], 25, 5, 10), answer(11, []), "past the end");
        const either = all.filter((seq) => seq % 2 === 0 || seq % 5 === 0);
        assert.deepEqual(await whole([[0, 1]], 2, 6, 100), answer(either.length, either.slice(2, 8)), "one term of two words: either");
        assert.deepEqual(await whole([[0, 1]], 2, 6, 20), answer(21, either.slice(2, 8)), "and walked");
        const both = all.filter((seq) => seq % 10 === 0);
        assert.deepEqual(await whole([[0], [1]], 0, 5, 100), answer(4, both), "two terms: both, few enough to sort");
        assert.deepEqual(await whole([[0], [1]], 1, 2, 3), answer(4, both.slice(1, 3)), "and walked");
        const stale = [{ count: null, version, seqs: null, rows: null, stale: true }];
        assert.deepEqual(await whole([[0]], 0, 5, 100, version - 1), stale, "places of another version than the bits' say so");
        reader.install("Post:score", { ...ranks, version: version - 1 });
        assert.deepEqual(await whole([[0]], 0, 5, 100), stale, "and so do ranks of another version than the table's");
      } finally {
        await reader.close();
      }
    });

    it("gives the ranks to a reader started in place of one that ran out of time", async () => {
      const reader = rankedPool({ size: 1, budgetMs: 200 });
      try {
        reader.install("Post:score", await readRanks(reader));
        await assert.rejects(reader.run(SLOW, []), ReadTimeoutError);
        const [answer] = (await page(reader, "fizz", 0, 2)) as { seqs: number[] | null }[];
        assert.deepEqual(answer?.seqs, expected("fizz").slice(0, 2));
      } finally {
        await reader.close();
      }
    });
  });
});
