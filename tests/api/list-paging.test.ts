import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { importData, logLines, startApp, type TestApp, testEngine } from "../support/app";
import { random as seededRandom } from "../../lib/seed/vocabulary";
import { eventually } from "../support/eventually";
import { sql } from "../support/sql";

// Bounded search totals, cursors and deep pages (contract §6), on 12,000 seeded posts: enough
// for a search past the 10,000 bound and for pages past the remembered positions' spacing. The
// expected rows come from plain SQL on the same database, an oracle that shares no code with
// the app's queries.

const POSTS = 12_000;
let app: TestApp;

before(async () => {
  app = await startApp();
  const seeded = await app.cli(["seed", "--posts", String(POSTS)]);
  assert.equal(seeded.code, 0, seeded.stderr);
});
after(async () => {
  await app?.stop();
});

interface Page {
  data: { id: string }[];
  pagination: {
    page: number;
    total: number;
    totalPages: number;
    hasNextPage: boolean;
    totalIsExact: boolean;
    nextCursor: string | null;
  };
}

const ids = (body: Page) => body.data.map((p) => p.id);

/** What PostgreSQL's server logs when a search's remembered words were of an older version (lib/vocabulary.ts). */
const REMEMBERED_OUT_OF_DATE = "a search's remembered words were out of date; searches read their words again for a while";
/** What PostgreSQL's server logs when it has read a table's words (lib/vocabulary.ts). */
const WORDS_READ = "read a table's words for searches";

const ORDER = {
  latest: `"createdAt" DESC, "id" DESC`,
  top: `"upvotes" DESC, "createdAt" DESC, "id" DESC`,
} as const;

/** Every post id in an order, filtered by plain SQL (searchText holds folded text). */
async function oracle(order: keyof typeof ORDER, where = "1 = 1", params: unknown[] = []): Promise<string[]> {
  const rows = await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "Post" WHERE ${where} ORDER BY ${ORDER[order]}`, params);
  return rows.map((r) => r.id);
}

async function get(path: string): Promise<{ body: Page; link: string }> {
  const { status, body, headers } = await app.json<Page>(path);
  assert.equal(status, 200, JSON.stringify(body));
  return { body, link: headers.get("link") ?? "" };
}

/**
 * Whether the server has logged `message` for `table` at the table's data version now: for each
 * of `orders` where given (a sort order's ranks), else once (a vocabulary).
 */
async function readAtVersion(message: string, table: string, orders?: string[]): Promise<boolean> {
  const [current] = await sql<{ version: number }>(app.databaseUrl, `SELECT "version" FROM "DataVersion" WHERE "name" = ?`, [table]);
  // PostgreSQL's driver gives the version (a bigint) as a string.
  const read = logLines(app, message).filter((line) => line.table === table && Number(line.version) === Number(current?.version));
  return orders ? orders.every((order) => read.some((line) => line.order === order)) : read.length > 0;
}

/** Whether the server holds a table's ranks of the version now, for each of its orders (SQLite; PostgreSQL keeps none). */
const ranksHeld = async (table: string, orders: string[]) => testEngine() !== "sqlite" || readAtVersion("read a sort order's ranks", table, orders);

/** Searches, each answer checked by `checkAll`, until the server holds the table's ranks of the version now. */
const searchUntilRanksHeld = (checkAll: (label: string) => Promise<void>, table: string, orders: string[]) => (label: string, what: string) =>
  eventually(async () => {
    await checkAll(label);
    return ranksHeld(table, orders);
  }, what);

/**
 * Checks a search (in upper case, which the app folds) against the oracle in both orders, with
 * optional filters: the first page, the total and whether it is exact, and the last page
 * when the total is exact. Returns how many posts match.
 */
async function checkSearch(search: string, label: string, ...filters: [column: string, value: string][]): Promise<number> {
  const terms = search.split(" ");
  const where = [...terms.map(() => `"searchText" LIKE ?`), ...filters.map(([column]) => `"${column}" = ?`)].join(" AND ");
  const params = [...terms.map((t) => `%${t}%`), ...filters.map(([, value]) => value)];
  for (const sortBy of ["latest", "top"] as const) {
    const expected = await oracle(sortBy, where, params);
    const path = `/api/v1/posts?search=${encodeURIComponent(search.toUpperCase())}&sortBy=${sortBy}&limit=50${filters.map(([column, value]) => `&${column}=${value}`).join("")}`;
    const { body } = await get(path);
    assert.deepEqual(ids(body), expected.slice(0, 50), `${label}: ${path}`);
    assert.deepEqual(
      [body.pagination.total, body.pagination.totalIsExact],
      expected.length > 10_000 ? [10_000, false] : [expected.length, true],
      `${label}: ${path}`,
    );
    if (expected.length > 50 && expected.length <= 10_000) {
      const last = Math.ceil(expected.length / 50);
      const end = await get(`${path}&page=${last}`);
      assert.deepEqual(ids(end.body), expected.slice((last - 1) * 50), `${label}: last page of ${path}`);
    }
  }
  return (await oracle("latest", where, params)).length;
}

/**
 * Runs searches by words with filters with and without the word index's keys: on SQLite a
 * search at a table version uses them once that version's vocabulary is read, which the first
 * search at it starts in the background, so the searches run before the read (without the
 * keys), while it is read, and once the server has logged it (with them). On PostgreSQL, whose
 * word index holds the filters beside the words, they simply run.
 */
async function withAndWithoutKeys(table: "Post" | "Changelog", label: string, run: (label: string) => Promise<unknown>): Promise<void> {
  const keysRead = async () => {
    if (testEngine() !== "sqlite") return true;
    const [current] = await sql<{ version: number }>(app.databaseUrl, `SELECT "version" FROM "DataVersion" WHERE "name" = ?`, [table]);
    const read = logLines(app, "read the search index's vocabulary").filter((line) => line.table === table).at(-1);
    return Number(read?.version) === current?.version;
  };
  await run(`${label}, before the vocabulary was read`);
  const searchedAndRead = async () => {
    await run(`${label}, while it was read`);
    return keysRead();
  };
  await eventually(searchedAndRead, `${label}: the ${table} vocabulary of this version`);
  await run(`${label}, with the keys`);
}

/**
 * PostgreSQL keeps how many rows hold each word (the word_rows and changelog_word_rows
 * migrations' triggers): the posts' by board and status (none: ''), the changelogs' by status
 * (under the board ''). The kept counts must be those the rows give, key by key.
 */
async function wordRowsKept(table: "Post" | "Changelog", label: string): Promise<void> {
  if (testEngine() !== "postgres") return;
  type Kept = { word: string; boardId: string; statusId: string; rows: number };
  const [board, status] = table === "Post" ? [`t."boardId"`, `COALESCE(t."statusId", '')`] : [`''`, `t."status"`];
  const counted = await sql<Kept>(
    app.databaseUrl,
    `SELECT words.w AS "word", ${board} AS "boardId", ${status} AS "statusId", count(*)::integer AS "rows"
     FROM "${table}" t, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(t."searchText")) AS w) AS words
     GROUP BY 1, 2, 3`,
  );
  const kept = await sql<Kept>(app.databaseUrl, `SELECT "word", "boardId", "statusId", "rows" FROM "SearchWordRows" WHERE "table" = ? AND "rows" <> 0`, [table]);
  const key = (r: Kept) => `${r.word} ${r.boardId} ${r.statusId} ${r.rows}`;
  assert.deepEqual(kept.map(key).sort(), counted.map(key).sort(), `${label}: the ${table} word counts kept are those its rows give`);
}

/**
 * PostgreSQL keeps which posts hold each word, and which are on each board and have each status
 * (the post_word_bits migration's triggers), and which changelogs hold each word, have each
 * status and carry each label (changelog_word_bits), as bitmaps, a row's bit at its "seq". The
 * rows each bitmap holds must be those the rows give, key by key.
 */
async function wordBitsKept(label: string, table: "Post" | "Changelog" = "Post"): Promise<void> {
  if (testEngine() !== "postgres") return;
  const keys =
    table === "Post"
      ? `SELECT DISTINCT w AS "word", t."seq" FROM "Post" t, unnest("search_words"(t."searchText")) AS w
         UNION ALL SELECT 'board:' || t."boardId", t."seq" FROM "Post" t
         UNION ALL SELECT 'status:' || COALESCE(t."statusId", ''), t."seq" FROM "Post" t`
      : `SELECT DISTINCT w AS "word", t."seq" FROM "Changelog" t, unnest("search_words"(t."searchText")) AS w
         UNION ALL SELECT 'status:' || t."status", t."seq" FROM "Changelog" t
         UNION ALL SELECT 'label:' || l."nameKey", t."seq" FROM "ChangelogLabel" l JOIN "Changelog" t ON t."id" = l."changelogId"`;
  const counted = await sql<{ word: string; seq: number }>(app.databaseUrl, keys);
  const kept = await sql<{ word: string; chunk: number; bits: string }>(app.databaseUrl, `SELECT "word", "chunk", "bits"::text AS "bits" FROM "${table}WordBits"`);
  const held = kept.flatMap(({ word, chunk, bits }) => [...bits].flatMap((bit, i) => (bit === "1" ? [`${word} ${chunk * 16_384 + i}`] : [])));
  assert.ok(counted.length > 0, `${label}: some rows hold words`);
  assert.deepEqual(held.sort(), counted.map(({ word, seq }) => `${word} ${seq}`).sort(), `${label}: the ${table} rows each key's bitmap holds are those its rows give`);
}

/** On PostgreSQL, TRUNCATE forgets a table's kept word counts (rolled back: the other tests need the rows). */
async function truncateForgetsWordRows(table: "Post" | "Changelog"): Promise<void> {
  if (testEngine() !== "postgres") return;
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query(`TRUNCATE "${table}" CASCADE`);
    const left = await client.query(`SELECT count(*)::integer AS "n" FROM "SearchWordRows" WHERE "table" = $1`, [table]);
    assert.equal(left.rows[0].n, 0, `TRUNCATE "${table}" forgets its word counts`);
    const bits = await client.query(`SELECT count(*)::integer AS "n" FROM "${table}WordBits"`);
    assert.equal(bits.rows[0].n, 0, `TRUNCATE "${table}" forgets its words' bitmaps`);
  } finally {
    await client.query("ROLLBACK");
    await client.end();
  }
}

describe("bounded search totals", () => {
  it("counts a search up to 10,000 and says when there are more, keeping every page exact", async () => {
    const expected = await oracle("latest", `"searchText" LIKE ?`, ["%the%"]);
    assert.ok(expected.length > 10_000, `the seed should give more than 10,000 matches, gave ${expected.length}`);
    const first = await get("/api/v1/posts?search=the&limit=20");
    assert.deepEqual(ids(first.body), expected.slice(0, 20));
    assert.equal(first.body.pagination.total, 10_000);
    assert.equal(first.body.pagination.totalIsExact, false);
    assert.equal(first.body.pagination.totalPages, 500);
    assert.equal(first.body.pagination.hasNextPage, true);
    assert.doesNotMatch(first.link, /rel="last"/, "a bounded total has no known last page");

    // Past the bound the rows go on, and the true last page says so.
    const past = await get("/api/v1/posts?search=the&limit=20&page=501");
    assert.deepEqual(ids(past.body), expected.slice(10_000, 10_020));
    assert.equal(past.body.pagination.hasNextPage, expected.length > 10_020);
    const lastPage = Math.ceil(expected.length / 100);
    const end = await get(`/api/v1/posts?search=the&limit=100&page=${lastPage}`);
    assert.deepEqual(ids(end.body), expected.slice((lastPage - 1) * 100));
    assert.equal(end.body.pagination.hasNextPage, false);
  });

  it("counts several common terms together exactly, as parts of words too, with and without board and status, on every sort", async () => {
    // Terms each in thousands of posts: PostgreSQL counts them from its words' bitmaps (the
    // post_word_bits migration), not from the word index; the oracle tests each row.
    for (const search of ["the customers", "custom would", "our customers would", "the this"]) {
      for (const term of search.split(" ")) {
        const alone = (await oracle("latest", `"searchText" LIKE ?`, [`%${term}%`])).length;
        assert.ok(alone > 2_000, `${term}: in ${alone} posts, more than a rare term's (lib/posts/search-plan.ts)`);
      }
      const total = await checkSearch(search, "common terms together");
      assert.ok(total > 0 && total <= 10_000, `${search}: ${total} posts, within the bound`);
    }
    // With a board and/or a status: two more bitmaps on PostgreSQL.
    for (const filters of [[["boardId", "demo_board_2"]], [["statusId", "demo_status_3"]], [["boardId", "demo_board_4"], ["statusId", "demo_status_1"]]] as [string, string][][]) {
      for (const search of ["the customers", "custom", "our customers would"]) {
        const total = await checkSearch(search, "common terms with filters", ...filters);
        assert.ok(total > 0, `${search} ${JSON.stringify(filters)}: some posts`);
      }
    }
  });

  it("is exact below the bound, with a filter and without", async () => {
    const expected = await oracle("top", `"searchText" LIKE ? AND "boardId" = ?`, ["%okta%", "demo_board_2"]);
    assert.ok(expected.length > 0 && expected.length < 10_000);
    const { body, link } = await get("/api/v1/posts?search=OKTA&boardId=demo_board_2&sortBy=top&limit=100");
    assert.deepEqual(ids(body), expected.slice(0, 100));
    assert.equal(body.pagination.total, expected.length);
    assert.equal(body.pagination.totalIsExact, true);
    assert.match(link, /rel="last"/);

    const all = await get("/api/v1/posts?limit=1");
    assert.deepEqual([all.body.pagination.total, all.body.pagination.totalIsExact], [POSTS, true], "no search, no bound");
  });
});

describe("a rare term with a common one", () => {
  it("gives exactly the rows of both, in either order, with a filter and without", async () => {
    for (const [sortBy, filter, where, params] of [
      ["latest", "", `"searchText" LIKE ? AND "searchText" LIKE ?`, ["%okta%", "%the%"]],
      ["top", "&boardId=demo_board_4", `"searchText" LIKE ? AND "searchText" LIKE ? AND "boardId" = ?`, ["%okta%", "%the%", "demo_board_4"]],
    ] as const) {
      const expected = await oracle(sortBy, where, [...params]);
      assert.ok(expected.length > 20 && expected.length < 2000, `a rare pair: ${expected.length}`);
      const { body } = await get(`/api/v1/posts?search=the%20Okta&sortBy=${sortBy}&limit=100${filter}`);
      assert.deepEqual(ids(body), expected.slice(0, 100));
      assert.equal(body.pagination.total, expected.length);
      const last = await get(`/api/v1/posts?search=the%20Okta&sortBy=${sortBy}&limit=20&page=${Math.ceil(expected.length / 20)}${filter}`);
      assert.deepEqual(ids(last.body), expected.slice(Math.floor((expected.length - 1) / 20) * 20));
      assert.equal(last.body.pagination.hasNextPage, false);
      // Past the last page: no rows, and the same total.
      const past = await get(`/api/v1/posts?search=the%20Okta&sortBy=${sortBy}&limit=20&page=${Math.ceil(expected.length / 20) + 1}${filter}`);
      assert.deepEqual([ids(past.body), past.body.pagination.total, past.body.pagination.hasNextPage], [[], expected.length, false]);
      // A cursor's page is read on its own, not gathered with the count.
      const first = await get(`/api/v1/posts?search=the%20Okta&sortBy=${sortBy}&limit=20${filter}`);
      const cursor = first.body.pagination.nextCursor ?? "";
      const next = await get(`/api/v1/posts?search=the%20Okta&sortBy=${sortBy}&limit=20&cursor=${encodeURIComponent(cursor)}${filter}`);
      assert.deepEqual([ids(next.body), next.body.pagination.total], [expected.slice(20, 40), expected.length]);
    }
  });
});

/** Whether the server holds the commonest words' bits and the posts' ranks of the version now (SQLite; PostgreSQL keeps neither). */
const bitsHeld = async (orders: string[]) =>
  testEngine() !== "sqlite" || ((await readAtVersion("read the commonest words' rows", "Post")) && (await ranksHeld("Post", orders)));

describe("a rare term narrowed by the commonest words' bits", () => {
  // On SQLite a rare term with common ones is listed by the rare term alone once the readers
  // hold the commonest words' rows as bits at the table's version (lib/sqlite/word-bits.ts), and
  // each of its rows is tested against the other terms' words there. "137" is in 16 of the
  // seed's 12,000 posts, too few for bits of its own; "this", "people" and "team" are among its
  // commonest words, and so is every word holding them. Before the bits are read, while they
  // are, with them, and after a write leaves them out of date, the answers must be the oracle's.
  const SEARCHES = ["137 this", "137 people", "137 team people"];
  const ORDERS = ["latest", "top"];
  const checkAll = async (label: string) => {
    for (const search of SEARCHES) assert.ok((await checkSearch(search, label)) > 0, `${label}: ${search} is not empty`);
  };
  const searchUntilHeld = (label: string, what: string) =>
    eventually(async () => {
      await checkAll(label);
      return bitsHeld(ORDERS);
    }, what);

  it("gives the oracle's rows and totals before the bits are read, with them, and after a write", async () => {
    await searchUntilHeld("until the bits are read", "the commonest words' bits and the ranks to be read");
    await checkAll("with the bits");
    const [post] = await oracle("latest", `"searchText" NOT LIKE ?`, ["%137%"]);
    assert.ok(post);
    await sql(app.databaseUrl, `UPDATE "Post" SET "content" = "content" || ?, "searchText" = "searchText" || ? WHERE "id" = ?`, [
      " 137 this team people",
      " 137 this team people",
      post,
    ]);
    if (testEngine() === "sqlite") assert.equal(await bitsHeld(ORDERS), false, "the bits are of the version before the write");
    await checkAll("after the write");
    await searchUntilHeld("until the bits are read again", "the bits of the new version to be read");
    await checkAll("with the bits read again");
  });
});

describe("a search found by the commonest words' bits alone", () => {
  // On SQLite a search whose every term lies only in words held as bits (lib/sqlite/word-bits.ts),
  // with no filter beside it but a board and a status, is counted and paged by the bits and the order's ranks alone: a
  // page of at most 10,000 matches sorted by their ranks, past that a walk of the order testing
  // each row's bits. "okta" is in about 500 of the seed's 12,000 posts, enough for bits of its
  // own; "the" (as a part of words too) in 10,041, past the bound, and its deep pages are walked.
  // With a board and a status, whose keys are held as bits too.
  type Search = [string, ...[string, string][]];
  const BOARD: [string, string] = ["boardId", "demo_board_2"];
  const STATUS: [string, string] = ["statusId", "demo_status_3"];
  const SEARCHES: Search[] = [["okta this"], ["okta customers"], ["the customers"], ["ustom"], ["the"], ["the", BOARD], ["ustom this", STATUS], ["the", BOARD, STATUS]];
  // Searches first made once the bits are held, so that their totals are the bits' (the first
  // search at a version keeps its total for the searches after it).
  const FRESH: Search[][] = [
    [["okta reports"], ["ustomers this"], ["hand", STATUS], ["team", BOARD, STATUS]],
    [["okta hand"], ["work week"], ["week", BOARD], ["people", BOARD, STATUS]],
  ];
  const checkEach = async (label: string, searches: Search[]) => {
    for (const [search, ...filters] of searches) assert.ok((await checkSearch(search, label, ...filters)) > 50, `${label}: ${search} ${filters} has more than a page`);
  };
  const ORDERS = ["latest", "top"] as const;
  const DEEP = [2, 37, 150, 200, 201];
  const checkAll = async (label: string) => {
    await checkEach(label, SEARCHES);
    for (const sortBy of ORDERS) {
      const expected = await oracle(sortBy, `"searchText" LIKE ?`, ["%the%"]);
      assert.ok(expected.length > 10_000, "the common search is past the bound");
      for (const page of DEEP) {
        const path = `/api/v1/posts?search=the&sortBy=${sortBy}&limit=50&page=${page}`;
        const { body } = await get(path);
        assert.deepEqual(ids(body), expected.slice((page - 1) * 50, page * 50), `${label}: ${path}`);
        assert.equal(body.pagination.hasNextPage, expected.length > page * 50, `${label}: ${path}`);
      }
    }
  };
  const searchUntilHeld = (label: string, what: string) =>
    eventually(async () => {
      await checkAll(label);
      return bitsHeld([...ORDERS]);
    }, what);

  it("gives the oracle's rows, totals and deep pages before the bits are read, with them, and after a write", async () => {
    await searchUntilHeld("until the bits are read", "the commonest words' bits and the ranks to be read");
    await checkAll("with the bits");
    await checkEach("first made with the bits", FRESH[0] ?? []);
    // A post without "okta" gains it, and goes to the top of both orders.
    const [newest] = await oracle("latest");
    const [post] = await oracle("latest", `"searchText" NOT LIKE ? AND "searchText" LIKE ?`, ["%okta%", "%customers%"]);
    assert.ok(newest && post);
    await sql(
      app.databaseUrl,
      `UPDATE "Post" SET "content" = "content" || ?, "searchText" = "searchText" || ?, "upvotes" = 1000000,
         "createdAt" = (SELECT p."createdAt" FROM "Post" p WHERE p."id" = ?) WHERE "id" = ?`,
      [" okta", " okta", newest, post],
    );
    if (testEngine() === "sqlite") assert.equal(await bitsHeld([...ORDERS]), false, "the bits are of the version before the write");
    await checkAll("after the write");
    await searchUntilHeld("until the bits are read again", "the bits of the new version to be read");
    await checkAll("with the bits read again");
    await checkEach("first made with the bits read again", FRESH[1] ?? []);
    const { body } = await get("/api/v1/posts?search=okta%20customers&sortBy=top&limit=1");
    assert.deepEqual(ids(body), [post], "the written post is first");
  });
});

describe("a sort order's ranks", () => {
  // On SQLite a search with no other filter that the index answers by itself is counted and
  // paged by its order's ranks (lib/sqlite/ranks.ts) once the readers hold them at the table's
  // version; the first such search at a version reads them in the background. The answers must
  // be the oracle's before they are read, with them, after a write moves posts in both orders
  // (which leaves them out of date), and with them read again; and those of the searches with a
  // board or status beside them, which are read as before. On PostgreSQL, which has no ranks,
  // the same searches simply run.
  // Searches of more matches than a page holds, so that the ranks choose which are shown (a
  // whole word, a part of one, a pair, a rare number alone and with a word), and a few with filters.
  const SEARCHES: [string, ...[string, string][]][] = [
    ["okta"],
    ["kta"],
    ["export reports"],
    ["people"],
    ["137"],
    ["137 people"],
    ["export", ["boardId", "demo_board_2"]],
    ["port", ["statusId", "demo_status_1"]],
    ["okta", ["boardId", "demo_board_1"], ["statusId", "demo_status_1"]],
  ];
  const checkAll = async (label: string) => {
    for (const [search, ...filters] of SEARCHES) {
      const matches = await checkSearch(search, label, ...filters);
      if (!filters.length && search !== "137" && search !== "137 people") assert.ok(matches > 50, `${search}: ${matches} matches, more than a page`);
    }
  };
  const ORDERS = ["latest", "top"];
  const searchUntilHeld = searchUntilRanksHeld(checkAll, "Post", ORDERS);

  it("give the oracle's rows and totals before they are read, with them, and after a write moves posts in both orders", async () => {
    await checkAll("before the ranks");
    await searchUntilHeld("while the ranks are read", "the ranks of this version");
    await checkAll("with the ranks");

    // The last match of "137" in either order goes to the top of both: the most votes, and the newest post's time (a tie the id breaks).
    const [newest] = await oracle("latest");
    const moved = (await oracle("latest", `"searchText" LIKE ?`, ["%137%"])).at(-1);
    assert.ok(newest && moved);
    await sql(app.databaseUrl, `UPDATE "Post" SET "upvotes" = 1000000, "createdAt" = (SELECT p."createdAt" FROM "Post" p WHERE p."id" = ?) WHERE "id" = ?`, [newest, moved]);
    const top = await oracle("top", `"searchText" LIKE ?`, ["%137%"]);
    assert.equal(top[0], moved, "the write moved the post to the top");
    if (testEngine() === "sqlite") assert.equal(await ranksHeld("Post", ORDERS), false, "the ranks are of the version before the write");
    await checkAll("after the write, the ranks out of date");
    await searchUntilHeld("while the ranks are read again", "the ranks of the new version");
    await checkAll("with the ranks read again");
  });
});

/** Every changelog id holding `search` with `filter` (the list's query string: status, labels), in the list's order, by plain SQL. */
async function changelogOracle(search: string, filter: string): Promise<string[]> {
  const status = filter.match(/status=(\w+)/)?.[1];
  const labels = filter.match(/labels=([\w,]+)/)?.[1]?.toLowerCase().split(",") ?? [];
  const terms = search.split(" ");
  const rows = await sql<{ id: string }>(
    app.databaseUrl,
    `SELECT "id" FROM "Changelog" c WHERE ${terms.map(() => `"searchText" LIKE ?`).join(" AND ")}${status ? ` AND "status" = ?` : ""}
     ${labels.length ? `AND EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = c."id" AND l."nameKey" IN (${labels.map(() => "?").join(",")}))` : ""}
     ORDER BY "status" ASC, "sortAt" DESC, "id" DESC`,
    [...terms.map((term) => `%${term}%`), ...(status ? [status] : []), ...labels],
  );
  return rows.map((r) => r.id);
}

/**
 * Checks changelog searches (each a search and the rest of its query string) against the
 * oracle: pages 1 and 2 of 20, 1 of 100, and the last page of 20, with their totals. Those
 * without a filter must have more than two pages.
 */
async function checkChangelogs(label: string, searches: [string, string][]): Promise<void> {
  for (const [search, filter] of searches) {
    const all = await changelogOracle(search, filter);
    if (!filter) assert.ok(all.length > 40, `${search}: ${all.length} matches, more than two pages`);
    const last = Math.max(1, Math.ceil(all.length / 20));
    for (const [page, limit] of [[1, 20], [2, 20], [1, 100], [last, 20]] as const) {
      const path = `/api/v1/changelogs?search=${encodeURIComponent(search.toUpperCase())}&limit=${limit}&page=${page}${filter}`;
      const { body } = await get(path);
      assert.deepEqual(ids(body), all.slice((page - 1) * limit, page * limit), `${label}: ${path}`);
      assert.equal(body.pagination.total, all.length, `${label}: ${path}`);
    }
  }
}

describe("the changelog order's ranks", () => {
  // The changelog list's one order has ranks too (lib/changelogs/queries.ts), used with status
  // and labels as well. The answers must be the oracle's before the ranks are read, with them,
  // after a write that moves a changelog by its sort time alone (the changelog_order_version
  // migration makes that move the table's version, so the ranks are out of date), and with them
  // read again. On PostgreSQL, which has no ranks, the same searches simply run.
  const SEARCHES: [string, string][] = [
    ["the", ""],
    ["available", ""],
    ["the", "&status=Draft"],
    ["the", "&labels=API,Mobile"],
    ["the", "&status=Published&labels=api"],
    ["available", "&status=Draft&labels=Fixed,Improved"],
  ];
  const expected = changelogOracle;
  const checkAll = (label: string) => checkChangelogs(label, SEARCHES);
  const ORDERS = ["drafts-then-newest"];
  const searchUntilHeld = searchUntilRanksHeld(checkAll, "Changelog", ORDERS);

  it("give the oracle's changelogs and totals before they are read, with them, and after a changelog's sort time changes", async () => {
    await checkAll("before the ranks");
    await searchUntilHeld("while the ranks are read", "the changelogs' ranks of this version");
    await checkAll("with the ranks");

    // The last Draft holding "the" takes the newest Draft's sort time: from the end of the
    // Drafts to the first page, and nothing but its sortAt changes.
    const drafts = await expected("the", "&status=Draft");
    const moved = drafts.at(-1);
    assert.ok(drafts.length > 40 && moved);
    await sql(app.databaseUrl, `UPDATE "Changelog" SET "sortAt" = (SELECT max(d."sortAt") FROM "Changelog" d WHERE d."status" = 'Draft') WHERE "id" = ?`, [moved]);
    assert.ok((await expected("the", "&status=Draft")).indexOf(moved) < 2, "the write moved the changelog to the top of the Drafts");
    if (testEngine() === "sqlite") assert.equal(await ranksHeld("Changelog", ORDERS), false, "the ranks are of the version before the write");
    await checkAll("after the write, the ranks out of date");
    await searchUntilHeld("while the ranks are read again", "the changelogs' ranks of the new version");
    await checkAll("with the ranks read again");
  });
});

describe("a changelog search found by the commonest words' bits alone", () => {
  // On SQLite the changelogs' commonest words and their status's and labels' keys are held as
  // bits too (lib/sqlite/word-bits.ts), and a search whose terms all lie in held words, with
  // status and/or labels or no filter, is counted and paged by them and the order's ranks alone
  // (lib/changelogs/queries.ts's foundByBits). The seed's 600 changelogs share one template, so
  // its words and every label are in more than one changelog in 64. A label filter is any one of
  // its labels; status and labels together, both. The answers must be the oracle's before the
  // bits are read, with them, after a write gives a changelog a label (which moves a label key's
  // rows, and the version), and with them read again; the searches in FRESH are first made with
  // bits held, so that their totals are the bits' (a total is kept for the searches after it).
  const SEARCHES: [string, string][] = [
    ["available", ""],
    ["thanks voted", ""],
    ["ship", ""],
    ["here", "&status=Draft"],
    ["plan", "&labels=API,Mobile"],
    ["every", "&status=Published&labels=fixed"],
  ];
  const FRESH: [string, string][][] = [
    [
      ["everyone", "&labels=Security"],
      ["voted here", "&status=Published"],
    ],
    [
      ["asked", "&status=Draft&labels=New,Improved"],
      ["works plan", ""],
      ["who", "&labels=Security"],
    ],
  ];
  const bitsHeld = async () =>
    testEngine() !== "sqlite" ||
    ((await readAtVersion("read the commonest words' rows", "Changelog")) && (await ranksHeld("Changelog", ["drafts-then-newest"])));
  const searchUntilHeld = (label: string, what: string) =>
    eventually(async () => {
      await checkChangelogs(label, SEARCHES);
      return bitsHeld();
    }, what);

  it("gives the oracle's changelogs and totals before the bits are read, with them, and after a label is added", async () => {
    await searchUntilHeld("until the bits are read", "the changelogs' commonest words' bits and ranks to be read");
    await checkChangelogs("with the bits", SEARCHES);
    await checkChangelogs("first made with the bits", FRESH[0] ?? []);
    // The newest Published changelog without the Security label gains it: "who" with Security finds it first.
    const [gains] = await sql<{ id: string }>(
      app.databaseUrl,
      `SELECT "id" FROM "Changelog" c WHERE "status" = 'Published'
         AND NOT EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = c."id" AND l."nameKey" = 'security')
       ORDER BY "sortAt" DESC, "id" DESC LIMIT 1`,
    );
    assert.ok(gains);
    const before = await changelogOracle("who", "&labels=Security");
    await sql(app.databaseUrl, `INSERT INTO "ChangelogLabel" ("changelogId", "name", "nameKey") VALUES (?, 'Security', 'security')`, [gains.id]);
    assert.equal((await changelogOracle("who", "&labels=Security")).length, before.length + 1, "the changelog gained the label");
    if (testEngine() === "sqlite") assert.equal(await bitsHeld(), false, "the bits are of the version before the write");
    await checkChangelogs("after the write", SEARCHES);
    await searchUntilHeld("until the bits are read again", "the bits of the new version to be read");
    await checkChangelogs("with the bits read again", SEARCHES);
    await checkChangelogs("first made with the bits read again", FRESH[1] ?? []);
  });
});

describe("cursors", () => {
  it("walk a whole filtered list, page after page, to exactly the rows pages give", async () => {
    const expected = await oracle("top", `"boardId" = ? AND "statusId" = ?`, ["demo_board_3", "demo_status_2"]);
    assert.ok(expected.length > 250, "the walk should take several pages");
    const seen: string[] = [];
    let path = "/api/v1/posts?boardId=demo_board_3&statusId=demo_status_2&sortBy=top&limit=100";
    for (let pages = 0; pages < 50; pages++) {
      const { body, link } = await get(path);
      seen.push(...ids(body));
      assert.equal(body.pagination.total, expected.length);
      if (!body.pagination.nextCursor) {
        assert.equal(body.pagination.hasNextPage, false);
        assert.doesNotMatch(link, /rel="next"/);
        break;
      }
      // The Link header's next page carries the cursor, and every other parameter.
      const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
      assert.ok(next, link);
      const target = new URL(next, app.url);
      assert.equal(target.searchParams.get("cursor"), body.pagination.nextCursor);
      assert.equal(target.searchParams.get("boardId"), "demo_board_3");
      path = `${target.pathname}${target.search}`;
    }
    assert.deepEqual(seen, expected);
  });

  it("continue a search past its bounded total", async () => {
    const expected = await oracle("latest", `"searchText" LIKE ?`, ["%the%"]);
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const { body } = await get(`/api/v1/posts?search=the&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...ids(body));
      cursor = body.pagination.nextCursor;
    }
    assert.deepEqual(seen, expected);
  });

  it("walk the changelogs, whose order mixes directions (drafts first, newest first)", async () => {
    const expected = (
      await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "Changelog" ORDER BY "status" ASC, "sortAt" DESC, "id" DESC`)
    ).map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const { body } = await get(`/api/v1/changelogs?limit=45${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...ids(body));
      cursor = body.pagination.nextCursor;
    }
    assert.deepEqual(seen, expected);
  });

  it("refuse a cursor of another order or one the API did not give, naming the parameter", async () => {
    const { body } = await get("/api/v1/posts?limit=5");
    const latestCursor = body.pagination.nextCursor;
    assert.ok(latestCursor);
    for (const path of [
      `/api/v1/posts?sortBy=top&cursor=${latestCursor}`,
      "/api/v1/posts?cursor=not-a-cursor",
      `/api/v1/changelogs?cursor=${latestCursor}`,
      `/api/v1/posts?cursor=${Buffer.from('{"o":"latest","k":["soon","x"]}').toString("base64url")}`,
      `/api/v1/posts?cursor=${"a".repeat(1001)}`,
      `/api/v1/changelogs?cursor=${latestCursor}%00`,
    ]) {
      const refused = await app.json(path);
      assert.equal(refused.status, 400, path);
      assert.equal(refused.body.error.code, "invalid_request");
      assert.equal(refused.body.error.details[0].field, "cursor");
    }
  });
});

describe("deep pages", () => {
  it("give exactly the rows OFFSET would, before and after positions are remembered, and after the order changes", async () => {
    const check = async (order: keyof typeof ORDER, filter: string, where: string, params: unknown[]) => {
      const expected = await oracle(order, where, params);
      for (const page of [60, 111, Math.ceil(expected.length / 20)]) {
        const { body } = await get(`/api/v1/posts?sortBy=${order}&limit=20&page=${page}${filter}`);
        assert.deepEqual(ids(body), expected.slice((page - 1) * 20, page * 20), `${order}${filter} page ${page}`);
      }
    };
    // The first deep request starts remembering positions in the background; ask until they
    // are used (the answers must be right either way).
    for (let round = 0; round < 5; round++) {
      await check("latest", "", "1 = 1", []);
      await check("top", "&boardId=demo_board_1", `"boardId" = ?`, ["demo_board_1"]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const built = () => app.output().match(/remembered positions in a sort order/g)?.length ?? 0;
    assert.ok(built() >= 2, "positions were remembered for both lists (the pages above used them)");
    const before = built();
    // A change to a sort column moves the data version: remembered positions are not used
    // for it, and the pages stay exact.
    const [moved] = await oracle("top", `"boardId" = ?`, ["demo_board_1"]).then((all) => all.slice(-1));
    await sql(app.databaseUrl, `UPDATE "Post" SET "upvotes" = 100000 WHERE "id" = ?`, [moved]);
    const expected = await oracle("top", `"boardId" = ?`, ["demo_board_1"]);
    assert.equal(expected[0], moved);
    const { body } = await get("/api/v1/posts?sortBy=top&limit=20&page=111&boardId=demo_board_1");
    assert.deepEqual(ids(body), expected.slice(2200, 2220));
    for (let i = 0; i < 50 && built() === before; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(built() > before, "the stale positions were built again");
  });

  it("does not remember positions for a page past the end", async () => {
    const before = app.output().match(/remembered positions/g)?.length ?? 0;
    for (let i = 0; i < 3; i++) {
      const { body } = await get("/api/v1/posts?limit=20&page=900&boardId=demo_board_5&statusId=demo_status_1");
      assert.deepEqual(body.data, []);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(app.output().match(/remembered positions/g)?.length ?? 0, before);
  });
});

/** How often the server read a table's search index vocabulary (SQLite). */
const vocabularyReads = (table = "Post") => logLines(app, "read the search index's vocabulary").filter((line) => line.table === table).length;

describe("one- and two-character terms", () => {
  // Such terms are found through the trigrams that contain them once the index's vocabulary is
  // read (lib/vocabulary.ts, SQLite), and by testing rows before that, or on PostgreSQL. The
  // answers must be the oracle's either way, through writes that move the table's version.
  // Absent from the seed ("q"), found in a few hundred posts ("x", "yb"), in none together
  // ("x yb"), common ("e", "th ok"), and with a long term ("ok zapier").
  // Characters of FTS5's query syntax as terms, which the index's query must quote.
  const SEARCHES = ["q", "x", "yb", "x yb", "e", "th ok", "ok zapier", "zy", '"', "(", "*", ":", "'", "-a", 'x"'];

  it("gives the oracle's rows and totals before and after the index's vocabulary is read", async () => {
    const before = vocabularyReads();
    const counts = new Map<string, number>();
    for (let round = 0; round < 4; round++) {
      for (const search of SEARCHES) counts.set(search, await checkSearch(search, `round ${round}`));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(counts.get("q"), 0, "the seed has no q");
    assert.equal(counts.get("x yb"), 0, "x and yb never meet");
    assert.ok((counts.get("x") ?? 0) > 50 && (counts.get("x") ?? 0) < 10_000, `x: ${counts.get("x")}`);
    assert.ok((counts.get("e") ?? 0) > 10_000);
    if (testEngine() === "sqlite") {
      // Read in the background once searches ask for it: on a busy machine it can come after the
      // rounds above, so they go on (exact each time) until it has been read.
      await eventually(async () => {
        for (const search of SEARCHES) assert.equal(await checkSearch(search, "until the vocabulary is read"), counts.get(search));
        return vocabularyReads() > before;
      }, "the vocabulary to be read");
      for (const search of SEARCHES) assert.equal(await checkSearch(search, "with the vocabulary"), counts.get(search));
    }
  });

  it("stays exact when a write adds a term, and for a text too short to have a trigram", async () => {
    const [first, second] = await oracle("latest");
    assert.ok(first && second);
    const setText = (id: string, title: string, content: string) =>
      sql(app.databaseUrl, `UPDATE "Post" SET "title" = ?, "content" = ?, "searchText" = ? WHERE "id" = ?`, [title, content, `${title}\n${content}`, id]);
    // Known absent, then read once so a vocabulary of this version is remembered.
    await checkSearch("q", "before the write");
    await new Promise((resolve) => setTimeout(resolve, 300));
    await checkSearch("q", "before the write, again");
    // A write moves the version: the remembered vocabulary (no "q") must not be used.
    await setText(first, "a quiet request", "");
    assert.equal(await checkSearch("q", "right after the write"), 1);
    // A title of one letter and no content: a text of two characters, in no trigram.
    await setText(second, "q", "");
    const before = vocabularyReads();
    for (let round = 0; round < 4; round++) {
      assert.equal(await checkSearch("q", `after the writes, round ${round}`), 2);
      assert.equal(await checkSearch("qu", `after the writes, round ${round}`), 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (testEngine() === "sqlite") {
      // Read in the background once searches ask for it: on a busy machine it can come after the
      // rounds above, so they go on (exact each time) until it has been read.
      await eventually(async () => {
        assert.equal(await checkSearch("q", "until the new version's vocabulary is read"), 2);
        assert.equal(await checkSearch("qu", "until the new version's vocabulary is read"), 1);
        return vocabularyReads() > before;
      }, "a vocabulary of the new version to be read");
      assert.equal(await checkSearch("q", "with the new version's vocabulary"), 2);
      assert.equal(await checkSearch("qu", "with the new version's vocabulary"), 1);
    }
  });

  it("finds rare characters through the index: its vocabulary on SQLite, its short substrings on PostgreSQL", async () => {
    // Sixty posts whose whole text is drawn from an alphabet the seed never uses, so every one-
    // and two-character term of it is rare: not in PostgreSQL's statistics, so found through
    // the index of short substrings (search_short_grams), and on SQLite through the trigrams
    // that contain it once the vocabulary of this version is read.
    const alphabet = ["é", "ø", "ñ", '"', " ", "\n"];
    const random = seededRandom(7);
    for (const id of (await oracle("latest")).slice(100, 160)) {
      // "ñø" never occurs: a pair of the alphabet in no post.
      const title = Array.from({ length: 1 + Math.floor(random() * 10) }, () => alphabet[Math.floor(random() * alphabet.length)])
        .join("")
        .replaceAll("ñø", "ñ ø");
      await sql(app.databaseUrl, `UPDATE "Post" SET "title" = ?, "content" = '', "searchText" = ? WHERE "id" = ?`, [title, `${title}\n`, id]);
    }
    const letters = alphabet.filter((c) => c.trim());
    const terms = [...letters, ...letters.flatMap((a) => letters.map((b) => a + b))];
    const statisticsReads = () => logLines(app, "read the planner's statistics of short terms").length;
    const vocabularies = vocabularyReads();
    const counts = new Map<string, number>();
    for (let round = 0; round < 3; round++) {
      for (const term of terms) counts.set(term, await checkSearch(term, `round ${round}`));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    assert.ok(letters.every((c) => (counts.get(c) ?? 0) > 0), JSON.stringify([...counts]));
    assert.equal(counts.get("ñø"), 0);
    assert.ok(terms.filter((t) => (counts.get(t) ?? 0) > 0).length > terms.length / 2, JSON.stringify([...counts]));
    if (testEngine() === "sqlite") assert.ok(vocabularyReads() > vocabularies, "a vocabulary of the new version was read, and used");
    else assert.ok(statisticsReads() > 0, "the planner's statistics of short terms were read");
  });

  it("gives the oracle's changelogs, with status and label filters and without", async () => {
    for (let round = 0; round < 4; round++) {
      const searches: [string, string][] = [["q", ""], ["x", ""], ["x", "&status=Draft"], ["e", ""], ["ok zy", ""], ["the", ""], ["ship", ""], ["ship", "&status=Draft"]];
      const labelled: [string, string][] = [["the", "&labels=API,Mobile"], ["the", "&status=Published&labels=api"], ["e", "&status=Draft&labels=Fixed"]];
      for (const [search, filter] of [...searches, ...labelled]) {
        const terms = search.split(" ");
        const status = filter.match(/status=(\w+)/)?.[1];
        const labels = filter.match(/labels=([\w,]+)/)?.[1]?.toLowerCase().split(",") ?? [];
        const expected = (
          await sql<{ id: string }>(
            app.databaseUrl,
            `SELECT "id" FROM "Changelog" c WHERE ${terms.map(() => `"searchText" LIKE ?`).join(" AND ")}${status ? ` AND "status" = ?` : ""}
             ${labels.length ? `AND EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = c."id" AND l."nameKey" IN (${labels.map(() => "?").join(",")}))` : ""}
             ORDER BY "status" ASC, "sortAt" DESC, "id" DESC`,
            [...terms.map((t) => `%${t}%`), ...(status ? [status] : []), ...labels],
          )
        ).map((r) => r.id);
        // Page 2 too: a common search walks the sort order (lib/changelogs/queries.ts's walkFinds),
        // and for a short page of a word in many changelogs, tests each one's text (scanFinds).
        for (const [page, limit] of [[1, 100], [2, 100], [1, 20], [2, 20], [1, 1], [2, 1]] as const) {
          const path = `/api/v1/changelogs?search=${encodeURIComponent(search)}&limit=${limit}&page=${page}${filter}`;
          const { body } = await get(path);
          assert.deepEqual(ids(body), expected.slice((page - 1) * limit, page * limit), path);
          assert.equal(body.pagination.total, Math.min(expected.length, 10_000), path);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Read during these searches, or by the searches of an earlier test at the same version.
    if (testEngine() === "sqlite") assert.ok(await readAtVersion("read the search index's vocabulary", "Changelog"), "the changelogs' vocabulary of this version was read, and used");
    // PostgreSQL's statistics of short terms are each table's own, not the posts' read before.
    else assert.ok(statisticsRead("short terms", "Changelog"), "the changelogs' statistics of short terms were read");
  });
});

/** Whether the server read the planner's statistics of a table's short terms or words (PostgreSQL). */
const statisticsRead = (what: "short terms" | "words", table: string) =>
  logLines(app, `read the planner's statistics of ${what}`).some((line) => line.table === table);

describe("longer terms through the word index", () => {
  // A term of word characters is found through the words of the word index that contain it
  // (lib/vocabulary.ts): on SQLite once the index's vocabulary is read, and through the trigram
  // index before that; on PostgreSQL through the words its writes keep, at every search. A term
  // with a character that splits words goes through the trigram index. The answers must be the
  // oracle's every way, with filters, and through a write that adds a word the words known
  // before it do not have.
  const vocabularies = () => logLines(app, "read the search index's vocabulary").filter((line) => line.table === "Post");
  // Whole words, parts of words, pairs, a word past ASCII, a term in no word, terms with a
  // character that splits words (left to the trigram index), and a short term beside a word.
  const SEARCHES: [string, [string, string] | null][] = [
    ["okta", null],
    ["kta", null],
    ["export reports", null],
    ["café", null],
    ["très important", null],
    ["zquork", null],
    ["okta zquork", null],
    ["the", null],
    ["e-mail", null],
    ["okta.", null],
    ["ok zapier", null],
    ["export", ["boardId", "demo_board_2"]],
    ["port", ["statusId", "demo_status_1"]],
    ["okta zapier", ["boardId", "demo_board_1"]],
  ];

  /** How often PostgreSQL's planner has read the word index's GIN index (its statistics lag the scans by up to a second or so). */
  const wordIndexScans = async () =>
    Number(
      (await sql<{ n: string }>(app.databaseUrl, `SELECT "idx_scan" AS "n" FROM pg_stat_user_indexes WHERE "indexrelname" = 'Post_searchText_words_idx'`))[0]?.n ?? -1,
    );

  it("gives the oracle's rows and totals before and after the vocabulary is read, with filters", async () => {
    const scans = testEngine() === "postgres" ? await wordIndexScans() : 0;
    assert.ok(scans >= 0, "PostgreSQL has the word index");
    const counts = new Map<string, number>();
    for (let round = 0; round < 4; round++) {
      for (const [search, filter] of SEARCHES) counts.set(`${search} ${filter ?? ""}`, await checkSearch(search, `round ${round}`, ...(filter ? [filter] : [])));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(counts.get("zquork "), 0, "the seed has no zquork");
    assert.ok((counts.get("okta ") ?? 0) > 50, `okta: ${counts.get("okta ")}`);
    assert.ok((counts.get("café ") ?? 0) > 0, `café: ${counts.get("café ")}`);
    // Read by now (here or by an earlier search at this version), with its words: the last rounds used it.
    if (testEngine() === "sqlite") assert.ok(Number(vocabularies().at(-1)?.words) > 100, `the words were read: ${JSON.stringify(vocabularies().at(-1))}`);
    // PostgreSQL looks the words up at each search; its planner then reads the word index.
    else {
      await eventually(async () => (await wordIndexScans()) > scans, "the word index to be scanned");
      // It holds board and status too (the word_filters_index migration): a count with them finds its rows there alone.
      const plan = await sql<{ "QUERY PLAN": string }>(
        app.databaseUrl,
        `EXPLAIN SELECT count(*) FROM "Post" t WHERE t."boardId" = ? AND t."statusId" = ? AND "search_words"(t."searchText") && ARRAY['okta']::text[]`,
        ["demo_board_1", "demo_status_1"],
      );
      const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
      assert.match(text, /Index Cond: \(\("boardId" = .*\) AND \("statusId" = .*\) AND \(search_words/, text);
    }

    // A word of every changelog, whose share in the changelogs' own statistics keeps it from
    // the word index (lib/vocabulary.ts): found as any other search.
    const expected = (await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "Changelog" WHERE "searchText" LIKE '%thanks%'`)).length;
    assert.ok(expected > 0);
    const { body } = await get("/api/v1/changelogs?search=thanks");
    assert.equal(body.pagination.total, Math.min(expected, 10_000));
    if (testEngine() === "postgres") assert.ok(statisticsRead("words", "Post") && statisticsRead("words", "Changelog"), "each table's statistics of words were read");
  });

  it("stays exact when a write adds a word the remembered vocabulary does not have", async () => {
    const [first] = await oracle("latest");
    assert.ok(first);
    await checkSearch("zquork", "before the write");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await checkSearch("zquork", "before the write, again"), 0);
    await sql(app.databaseUrl, `UPDATE "Post" SET "title" = ?, "content" = ?, "searchText" = ? WHERE "id" = ?`, [
      "zquork flow",
      "",
      "zquork flow\n",
      first,
    ]);
    const before = vocabularies().length;
    const outOfDate = () => logLines(app, REMEMBERED_OUT_OF_DATE).filter((line) => line.table === "Post").length;
    const doubtedBefore = outOfDate();
    for (let round = 0; round < 4; round++) {
      assert.equal(await checkSearch("zquork", `after the write, round ${round}`), 1);
      assert.equal(await checkSearch("quor flow", `after the write, round ${round}`), 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (testEngine() === "sqlite") assert.ok(vocabularies().length > before, "a vocabulary of the new version was read, and used");
    // PostgreSQL remembered the words of "zquork" (none) from the searches before the write, used
    // them for the first search after it, and found them out of date by the table's version.
    else assert.ok(outOfDate() > doubtedBefore, "the words remembered before the write were found out of date");
  });

  it("answers searches never made before from the words read at this version (PostgreSQL reads each table's words whole)", async () => {
    // A write moves the version: nothing remembered before it holds.
    const [top] = await oracle("top");
    assert.ok(top);
    await sql(app.databaseUrl, `UPDATE "Post" SET "upvotes" = "upvotes" + 1 WHERE "id" = ?`, [top]);
    const postgres = testEngine() === "postgres";
    if (postgres) {
      // The first search after the write finds its remembered words out of date and reads its
      // own for a second (DOUBT_MS); it also has the table's words read again.
      await eventually(async () => {
        await checkSearch("okta", "while the words are read");
        return readAtVersion(WORDS_READ, "Post");
      }, "the posts' words of this version");
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // Taken out of the words behind the server's back (no write moves the version): only
      // words read before can find "digests" now, a lookup of the term's words would find none.
      const taken = await sql(app.databaseUrl, `DELETE FROM "SearchWord" WHERE "table" = 'Post' AND "word" = 'digests' RETURNING "word"`);
      assert.equal(taken.length, 1);
    }
    try {
      assert.ok((await checkSearch("igests", "a part of a word")) > 50);
      assert.ok((await checkSearch("igests", "a part of a word, on a board", ["boardId", "demo_board_1"])) > 0);
      assert.ok((await checkSearch("igests", "a part of a word, with a status", ["statusId", "demo_status_2"])) > 0);
      assert.ok((await checkSearch("igest idget", "two parts of words")) > 0);
    } finally {
      if (postgres) await sql(app.databaseUrl, `INSERT INTO "SearchWord" ("table", "word") VALUES ('Post', 'digests')`);
    }
    if (!postgres) return;
    // A table with more words than a search may look through on the event loop (MAX_WORDS,
    // 20,000) is not held: after the next write, each search reads its own words again.
    const tooMany = () => logLines(app, "a table has too many words to remember; each search reads its own words").filter((line) => line.table === "Post").length;
    await sql(app.databaseUrl, `INSERT INTO "SearchWord" ("table", "word") SELECT 'Post', 'zzfill' || n FROM generate_series(1, 20001) AS n`);
    try {
      await sql(app.databaseUrl, `UPDATE "Post" SET "upvotes" = "upvotes" + 1 WHERE "id" = ?`, [top]);
      await eventually(async () => {
        await checkSearch("digests", "while the words are read again");
        return tooMany() > 0;
      }, "the posts' words found too many to hold");
      assert.ok((await checkSearch("igests", "a part of a word, its words read for it")) > 50);
    } finally {
      await sql(app.databaseUrl, `DELETE FROM "SearchWord" WHERE "table" = 'Post' AND "word" LIKE 'zzfill%'`);
    }
  });

  it("stays exact when a write adds a word to a term's words that searches before it remembered (PostgreSQL remembers them)", async () => {
    // "zplinth" is in one post; the same search again finds it through the words remembered at
    // this version. Then a post with "zplinthic", a second word holding the term, is imported:
    // remembered words would count one post (the kept count of "zplinth" alone) beside a page of two.
    const base = Date.parse("2019-07-01T00:00:00.000Z");
    const post = (i: number, content: string) => ({
      id: `rw-post-${i}`,
      title: `Remembered words ${i}`,
      content,
      boardId: "rw-board",
      statusId: null,
      postedById: "rw-user",
      upvotes: i,
      createdAt: new Date(base + i * 60_000).toISOString(),
    });
    const importPosts = (posts: ReturnType<typeof post>[]) =>
      importData(app.cli, { version: 1, boards: [{ id: "rw-board", name: "Remembered words" }], users: [{ id: "rw-user", name: "Remembered Words", email: null }], posts });
    try {
      await importPosts([post(1, "a zplinth here")]);
      for (let round = 0; round < 3; round++) {
        assert.equal(await checkSearch("zplinth", `one post, round ${round}`), 1);
        assert.equal(await checkSearch("zplinth", `one post on its board, round ${round}`, ["boardId", "rw-board"]), 1);
      }
      await importPosts([post(2, "zplinthic words")]);
      assert.equal(await checkSearch("zplinth", "a second word"), 2);
      assert.equal(await checkSearch("zplinth", "a second word, on its board", ["boardId", "rw-board"]), 2);
      assert.equal(await checkSearch("zplinthic", "the new word alone"), 1);
    } finally {
      await sql(app.databaseUrl, `DELETE FROM "Post" WHERE "id" LIKE 'rw-post-%'`);
    }
  });

  it("stays exact when a post moves to another board and status, and when its status goes", async () => {
    // On SQLite the word index holds each post's board and status as keys, which count a search
    // by words with those filters (lib/dialect.ts, filterKey): triggers must move them too.
    const [moved] = await oracle("latest", `"searchText" LIKE ? AND "boardId" = ?`, ["%okta%", "demo_board_1"]);
    assert.ok(moved);
    // The board's key, the status's, and the pair's (the word_index_board_status_keys migration).
    const searches = (label: string) =>
      withAndWithoutKeys("Post", label, async (label) => {
        for (const board of ["demo_board_1", "demo_board_2"]) {
          await checkSearch("okta", label, ["boardId", board]);
          await checkSearch("okta", label, ["boardId", board], ["statusId", "demo_status_1"]);
        }
        await checkSearch("okta", label, ["statusId", "demo_status_1"]);
      });
    await searches("before the move");
    await sql(app.databaseUrl, `UPDATE "Post" SET "boardId" = ?, "statusId" = ? WHERE "id" = ?`, ["demo_board_2", "demo_status_1", moved]);
    await searches("after the move");
    await sql(app.databaseUrl, `UPDATE "Post" SET "statusId" = NULL WHERE "id" = ?`, [moved]);
    await searches("after its status went");
  });

  it("counts a term inside one word by board and status exactly as posts are imported, changed, moved and deleted", async () => {
    // A term that lies inside one word only has that word's count, which SQLite's vocabulary
    // lists and PostgreSQL keeps by board and status as posts are written (countFromWords; the
    // word_rows migration's triggers). 60 posts of their own, on two boards of their own, on
    // two statuses or none; their words are "wrenwhistle" and "wrenwhisper".
    const base = Date.parse("2019-03-01T00:00:00.000Z");
    const post = (i: number, text: string, boardId: string, statusId: string | null) => ({
      id: `wr-post-${String(i).padStart(2, "0")}`,
      title: `Word rows ${i}`,
      content: text,
      boardId,
      statusId,
      postedById: "wr-user",
      upvotes: i % 4,
      createdAt: new Date(base + i * 60_000).toISOString(),
    });
    const statusOf = (i: number) => [null, "wr-open", "wr-done"][i % 3] ?? null;
    const importPosts = (posts: ReturnType<typeof post>[]) =>
      importData(app.cli, {
        version: 1,
        boards: [
          { id: "wr-board-a", name: "Word rows A" },
          { id: "wr-board-b", name: "Word rows B" },
        ],
        statuses: [
          { id: "wr-open", name: "Word rows open", color: "#64748b" },
          { id: "wr-done", name: "Word rows done", color: "#22c55e" },
        ],
        users: [{ id: "wr-user", name: "Word Rows", email: null }],
        posts,
      });
    const FILTERS: [string, string][][] = [
      [],
      [["boardId", "wr-board-a"]],
      [["boardId", "wr-board-b"]],
      [["statusId", "wr-open"]],
      [["boardId", "wr-board-a"], ["statusId", "wr-done"]],
      [["boardId", "wr-board-b"], ["statusId", "wr-open"]],
    ];
    const checkAll = async (label: string) => {
      const found: number[] = [];
      // One word each ("wrenwhistle", "histl", "whisper"), a term in both words, and pairs of terms.
      for (const term of ["wrenwhistle", "histl", "whisper", "wrenwhis", "wrenwhistle wrenwhisper", "histl whisp", "wrenwhis here"]) {
        for (const filters of FILTERS) found.push(await checkSearch(term, `${label}, ${term}`, ...filters));
      }
      return found;
    };
    // Two thirds hold "wrenwhistle", every fifth "wrenwhisper" too, on boards A and B alternately.
    const text = (i: number) => `${i % 3 === 0 ? "nothing" : "wrenwhistle"} here${i % 5 === 0 ? " wrenwhisper" : ""}`;
    await importPosts(Array.from({ length: 60 }, (_, i) => post(i, text(i), i % 2 ? "wr-board-b" : "wr-board-a", statusOf(i))));
    const first = await checkAll("imported");
    assert.ok(first.every((n, i) => n > 0 || i % FILTERS.length !== 0), `every term matches some posts: ${first}`);

    // Imported again: every third post another board, every fourth another status or none, every
    // seventh a new text (its words go, others come), the rest as they were.
    await importPosts(
      Array.from({ length: 60 }, (_, i) =>
        post(
          i,
          i % 7 === 0 ? `${i % 2 ? "wrenwhisper" : "quiet"} now` : text(i),
          (i % 3 === 0) !== (i % 2 === 1) ? "wr-board-b" : "wr-board-a",
          i % 4 === 0 ? statusOf(i + 1) : statusOf(i),
        ),
      ),
    );
    await wordBitsKept("imported");
    const again = await checkAll("changed and moved by an import");
    await wordBitsKept("changed and moved by an import");
    assert.notDeepEqual(again, first, "the import changed what the searches find");
    await sql(app.databaseUrl, `UPDATE "Post" SET "statusId" = NULL, "boardId" = 'wr-board-a' WHERE "id" IN ('wr-post-01', 'wr-post-02', 'wr-post-05')`);
    await checkAll("moved by hand");
    await wordBitsKept("moved by hand");
    await sql(app.databaseUrl, `DELETE FROM "Post" WHERE "id" LIKE 'wr-post-1%'`);
    const deleted = await checkAll("ten deleted");
    await wordRowsKept("Post", "ten deleted");
    await wordBitsKept("ten deleted");
    await truncateForgetsWordRows("Post");
    await sql(app.databaseUrl, `DELETE FROM "Post" WHERE "id" LIKE 'wr-post-%'`);
    assert.deepEqual(await checkAll("all deleted"), deleted.map(() => 0));
  });

  it("counts by a board and a status apart from another pair whose ids join to the same text", async () => {
    // PostgreSQL counts a search by words with both filters through one key of the pair
    // (post_board_status, the word_index_board_status migration): "pk-x" with "y-open" and
    // "pk-xy" with "-open" join to one text, which the board id's length in the key tells apart.
    // "pairkey" lies in two words, so its count is not settled by the words' kept counts.
    const base = Date.parse("2019-05-01T00:00:00.000Z");
    const post = (i: number, boardId: string, statusId: string) => ({
      id: `pk-post-${String(i).padStart(2, "0")}`,
      title: `Pair key ${i}`,
      content: i % 3 === 0 ? "pairkeyalpha pairkeybeta" : i % 2 ? "pairkeyalpha" : "pairkeybeta",
      boardId,
      statusId,
      postedById: "pk-user",
      upvotes: i % 5,
      createdAt: new Date(base + i * 60_000).toISOString(),
    });
    await importData(app.cli, {
      version: 1,
      boards: [
        { id: "pk-x", name: "Pair key X" },
        { id: "pk-xy", name: "Pair key XY" },
      ],
      statuses: [
        { id: "y-open", name: "Pair key Y open", color: "#64748b" },
        { id: "-open", name: "Pair key open", color: "#22c55e" },
      ],
      users: [{ id: "pk-user", name: "Pair Key", email: null }],
      posts: [...Array.from({ length: 12 }, (_, i) => post(i, "pk-x", "y-open")), ...Array.from({ length: 7 }, (_, i) => post(12 + i, "pk-xy", "-open"))],
    });
    try {
      assert.equal(await checkSearch("pairkey", "the first pair", ["boardId", "pk-x"], ["statusId", "y-open"]), 12);
      assert.equal(await checkSearch("pairkey", "the second pair", ["boardId", "pk-xy"], ["statusId", "-open"]), 7);
      assert.equal(await checkSearch("pairkey", "crossed", ["boardId", "pk-x"], ["statusId", "-open"]), 0);
    } finally {
      await sql(app.databaseUrl, `DELETE FROM "Post" WHERE "id" LIKE 'pk-post-%'`);
    }
  });

  it("gives the oracle's changelogs by words with status and labels, as a changelog's status, labels and text change, and when one is deleted", async () => {
    // On SQLite the changelogs' word index holds each changelog's status and labels as keys,
    // which count a search by words with those filters (lib/dialect.ts, filterKey): triggers
    // on both tables must keep them. On PostgreSQL its word index holds them beside the words.
    const check = async (label: string, search: string, status?: string, labels?: string[]) => {
      const conditions = [`"searchText" LIKE ?`, ...(status ? [`"status" = ?`] : [])];
      if (labels) conditions.push(`EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = "Changelog"."id" AND l."nameKey" IN (${labels.map(() => "?").join(", ")}))`);
      const params = [`%${search}%`, ...(status ? [status] : []), ...(labels ?? []).map((l) => l.toLowerCase())];
      const expected = (
        await sql<{ id: string }>(
          app.databaseUrl,
          `SELECT "id" FROM "Changelog" WHERE ${conditions.join(" AND ")} ORDER BY "status" ASC, "sortAt" DESC, "id" DESC`,
          params,
        )
      ).map((r) => r.id);
      const path = `/api/v1/changelogs?search=${encodeURIComponent(search)}&limit=100${status ? `&status=${status}` : ""}${labels ? `&labels=${labels.join(",")}` : ""}`;
      const { body } = await get(path);
      assert.deepEqual(ids(body), expected.slice(0, 100), `${label}: ${path}`);
      assert.equal(body.pagination.total, expected.length, `${label}: ${path}`);
      return expected.length;
    };
    const searches = async (label: string, word: string) => {
      let found = 0;
      for (const status of [undefined, "Draft", "Published"]) {
        for (const labels of [undefined, ["API"], ["Fixed", "Mobile", "FIXED"], ["Zeta"]]) found += await check(label, word, status, labels);
      }
      return found;
    };
    // On PostgreSQL each changelog keeps its folded label names on its row, which the word index
    // holds beside the words (the changelog_label_keys migration): triggers on the labels keep them.
    const labelKeysKept = async (label: string) => {
      if (testEngine() !== "postgres") return;
      const wrong = await sql<{ id: string }>(
        app.databaseUrl,
        `SELECT c."id" FROM "Changelog" c
           WHERE c."labelKeys" IS DISTINCT FROM ARRAY(SELECT l."nameKey" FROM "ChangelogLabel" l WHERE l."changelogId" = c."id" ORDER BY l."nameKey")`,
      );
      assert.deepEqual(wrong, [], `${label}: every changelog's label keys are its labels'`);
    };
    await labelKeysKept("before the writes");
    await wordRowsKept("Changelog", "before the writes");
    await wordBitsKept("before the writes", "Changelog");
    await withAndWithoutKeys("Changelog", "before the writes", async (label) => assert.ok((await searches(label, "available")) > 0));

    // A Published changelog with "available", labelled API, becomes a Draft labelled Zeta and
    // Mobile, through the import as a team would; then gains a label, and its text changes.
    const [changed] = await sql<{ id: string; createdAt: string }>(
      app.databaseUrl,
      `SELECT c."id", c."createdAt" FROM "Changelog" c WHERE c."searchText" LIKE '%available%' AND c."status" = 'Published'
         AND EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = c."id" AND l."nameKey" = 'api') ORDER BY c."id" LIMIT 1`,
    );
    assert.ok(changed);
    const createdAt = new Date(changed.createdAt).toISOString();
    await importData(app.cli, {
      version: 1,
      changelogs: [{ id: changed.id, title: "Now available: zquorkz", content: "", status: "Draft", labels: ["Zeta", "Mobile"], createdAt }],
    });
    // A word in one word only, with each status and none: PostgreSQL settles these totals by
    // the changelogs' kept word counts (the changelog_word_rows migration), which must follow.
    const after = async (label: string) => {
      await withAndWithoutKeys("Changelog", label, async (label) => {
        await searches(label, "available");
        await check(label, "zquorkz", "Draft", ["Zeta"]);
        for (const status of [undefined, "Draft", "Published"]) await check(label, "zquorkz", status);
      });
      await wordRowsKept("Changelog", label);
      await wordBitsKept(label, "Changelog");
    };
    await after("after the import");
    await labelKeysKept("after the import");
    assert.equal(await check("after the import", "zquorkz", "Draft", ["zeta"]), 1);
    await sql(app.databaseUrl, `INSERT INTO "ChangelogLabel" ("changelogId", "name", "nameKey") VALUES (?, 'API', 'api')`, [changed.id]);
    await after("after a label was added");
    await labelKeysKept("after a label was added");
    assert.equal(await check("after a label was added", "zquorkz", undefined, ["API"]), 1);
    await sql(app.databaseUrl, `DELETE FROM "ChangelogLabel" WHERE "changelogId" = ? AND "nameKey" = 'zeta'`, [changed.id]);
    await after("after a label was taken off");
    await labelKeysKept("after a label was taken off");
    assert.equal(await check("after a label was taken off", "zquorkz", undefined, ["Zeta"]), 0);
    await sql(app.databaseUrl, `UPDATE "Changelog" SET "status" = 'Published', "publishedAt" = "createdAt", "sortAt" = "createdAt" WHERE "id" = ?`, [changed.id]);
    await after("after it was published");
    assert.equal(await check("after it was published", "zquorkz", "Published", ["Mobile"]), 1);
    await sql(app.databaseUrl, `UPDATE "ChangelogLabel" SET "name" = 'Omega', "nameKey" = 'omega' WHERE "changelogId" = ? AND "nameKey" = 'api'`, [changed.id]);
    await after("after a label was renamed");
    assert.equal(await check("after a label was renamed", "zquorkz", "Published", ["Omega"]), 1);
    assert.equal(await check("after a label was renamed", "zquorkz", undefined, ["API"]), 0);
    await labelKeysKept("after a label was renamed");
    // Deleted, its labels with it (the foreign key's cascade).
    await sql(app.databaseUrl, `DELETE FROM "Changelog" WHERE "id" = ?`, [changed.id]);
    await labelKeysKept("after it was deleted");
    await after("after it was deleted");
    assert.equal(await check("after it was deleted", "zquorkz", undefined, ["Mobile"]), 0);
    assert.equal(await check("after it was deleted", "zquorkz", "Published"), 0);
    await truncateForgetsWordRows("Changelog");
  });

  it("counts a term in two words, some rows holding both, and answers one in no row of the list's board or status with nothing", async () => {
    // "quillwhistl" lies in two words of its own, "quillwhistle" and "quillwhistles": on
    // PostgreSQL its count is each word's kept count less the rows holding both, so some rows
    // hold both. Three posts on one board, one on another; two draft changelogs. Nothing on a
    // third board and no published changelog holds it: the kept counts say so, and those lists
    // answer without reading the table.
    const boards = ["demo_board_1", "demo_board_2", "demo_board_3"];
    const posts = await sql<{ id: string; boardId: string }>(
      app.databaseUrl,
      `SELECT "id", "boardId" FROM "Post" WHERE "boardId" IN (?, ?) ORDER BY "boardId", "id" LIMIT 4`,
      boards.slice(0, 2),
    );
    const placed = posts.map((post, i) => ({ ...post, boardId: i < 3 ? boards[0] : boards[1] }));
    const words = [" quillwhistle", " quillwhistles", " quillwhistle quillwhistles", " quillwhistles"];
    for (const [i, post] of placed.entries()) {
      await sql(app.databaseUrl, `UPDATE "Post" SET "boardId" = ?, "searchText" = "searchText" || ? WHERE "id" = ?`, [post.boardId, words[i], post.id]);
    }
    await importData(app.cli, {
      version: 1,
      changelogs: [
        { id: "quillwhistle-draft-1", title: "Coming soon: Quillwhistle", content: "", status: "Draft", labels: ["API"], createdAt: "2026-01-02T00:00:00.000Z" },
        { id: "quillwhistle-draft-2", title: "Quillwhistles", content: "and a quillwhistle", status: "Draft", labels: [], createdAt: "2026-01-03T00:00:00.000Z" },
      ],
    });
    const original = new Map(posts.map((post) => [post.id, post.boardId]));
    try {
      for (const term of ["quillwhistl", "uillwhistle", "quillwhistles"]) {
        await checkSearch(term, "two words, some rows holding both");
        await checkSearch(term, "two words, on a board", ["boardId", boards[0] as string]);
        await checkSearch(term, "two words, on the other board", ["boardId", boards[1] as string]);
        const statuses = await sql<{ statusId: string | null }>(
          app.databaseUrl,
          `SELECT DISTINCT "statusId" FROM "Post" WHERE "id" IN (${posts.map(() => "?").join(", ")})`,
          posts.map((post) => post.id),
        );
        for (const { statusId: status } of statuses.filter((row) => row.statusId !== null) as { statusId: string }[]) {
          await checkSearch(term, "two words, a board and a status", ["boardId", boards[0] as string], ["statusId", status]);
        }
      }
      for (const [path, total] of [
        ["/api/v1/changelogs?search=QUILLWHISTL", 2],
        ["/api/v1/changelogs?search=quillwhistl&status=Draft", 2],
        ["/api/v1/changelogs?search=quillwhistles&status=Draft", 1],
        ["/api/v1/changelogs?search=uillwhistl&status=Draft&labels=API", 1],
      ] as const) {
        const { body } = await get(path);
        assert.equal(body.pagination.total, total, path);
        assert.equal(ids(body).length, total, path);
      }
      const none = async (label: string) => {
        for (const path of [
          "/api/v1/changelogs?search=quillwhistl&status=Published",
          "/api/v1/changelogs?search=illwhis&status=Published",
          `/api/v1/posts?search=quillwhistl&boardId=${boards[2]}`,
        ]) {
          const { body } = await get(path);
          assert.deepEqual(ids(body), [], `${label}: ${path}`);
          assert.deepEqual([body.pagination.total, body.pagination.totalIsExact, body.pagination.hasNextPage], [0, true, false], `${label}: ${path}`);
        }
      };
      await none("the tables readable");
      if (testEngine() === "postgres") {
        // Any read of either table would wait for this lock (and fail at the statement timeout).
        const locker = new pg.Client({ connectionString: app.databaseUrl });
        await locker.connect();
        try {
          await locker.query("BEGIN");
          await locker.query(`LOCK TABLE "Changelog", "Post" IN ACCESS EXCLUSIVE MODE`);
          await none("both tables locked against every read");
        } finally {
          await locker.query("ROLLBACK");
          await locker.end();
        }
      }
      await wordRowsKept("Post", "with the two words");
    } finally {
      await sql(app.databaseUrl, `DELETE FROM "Changelog" WHERE "id" LIKE 'quillwhistle-draft-%'`);
      for (const [i, post] of placed.entries()) {
        await sql(app.databaseUrl, `UPDATE "Post" SET "boardId" = ?, "searchText" = replace("searchText", ?, '') WHERE "id" = ?`, [original.get(post.id), words[i], post.id]);
      }
    }
    await wordRowsKept("Post", "after the words came and went");
    await wordBitsKept("after the words came and went");
    await wordRowsKept("Changelog", "after the words came and went");
  });

  it("gives a word in more posts than the bound the bound's total, and the exact total with a filter beside it", async () => {
    // On SQLite such a word alone is not counted once the vocabulary of this version is read
    // (countFromWords); with a board or a status it is counted as any search. A word of its own,
    // added to the text of 10,050 posts, moves the version.
    const marked = 10_050;
    await sql(
      app.databaseUrl,
      `UPDATE "Post" SET "searchText" = "searchText" || ' glimmerwort' WHERE "id" IN (SELECT "id" FROM "Post" ORDER BY "createdAt" DESC, "id" DESC LIMIT ${marked})`,
    );
    const before = vocabularies().length;
    for (let round = 0; round < 4; round++) {
      assert.equal(await checkSearch("glimmerwort", `round ${round}`), marked);
      const onBoard = await checkSearch("glimmerwort", `round ${round}, one board`, ["boardId", "demo_board_2"]);
      assert.ok(onBoard > 0 && onBoard <= 10_000, `on one board: ${onBoard}`);
      await checkSearch("glimmerwort", `round ${round}, one status`, ["statusId", "demo_status_1"]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (testEngine() === "sqlite") assert.ok(vocabularies().length > before, "a vocabulary of the new version was read, and the last rounds used it");
  });

  it("gives a word in more changelogs than the bound the bound's total, and the exact total with a status or label beside it", async () => {
    // The changelogs' list takes the same shortcut as the posts' (countFromWords, SQLite): a
    // word alone in more than 10,000 changelogs is not counted. 10,050 changelogs, imported as a
    // team would, hold a word of their own; every third is a Draft, every fifth labelled Zeta.
    const marked = 10_050;
    const base = Date.parse("2025-06-01T00:00:00.000Z");
    const changelogs = Array.from({ length: marked }, (_, i) => {
      const createdAt = new Date(base + i * 60_000).toISOString();
      const draft = i % 3 === 0;
      return {
        id: `cl-bound-${String(i).padStart(5, "0")}`,
        title: `Release ${i}: glimmerwort`,
        content: "",
        status: draft ? "Draft" : "Published",
        labels: i % 5 === 0 ? ["Zeta"] : ["New"],
        ...(draft ? {} : { publishedAt: createdAt }),
        createdAt,
      };
    });
    await importData(app.cli, { version: 1, changelogs });

    const check = async (label: string, filter: "" | "&status=Draft" | "&labels=Zeta") => {
      const where = {
        "": "",
        "&status=Draft": ` AND "status" = 'Draft'`,
        "&labels=Zeta": ` AND EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = "Changelog"."id" AND l."nameKey" = 'zeta')`,
      }[filter];
      const expected = (
        await sql<{ id: string }>(
          app.databaseUrl,
          `SELECT "id" FROM "Changelog" WHERE "searchText" LIKE '%glimmerwort%'${where} ORDER BY "status" ASC, "sortAt" DESC, "id" DESC`,
        )
      ).map((r) => r.id);
      const url = `/api/v1/changelogs?search=GLIMMERWORT&limit=100${filter}`;
      const { body } = await get(url);
      assert.deepEqual(ids(body), expected.slice(0, 100), `${label}: ${url}`);
      assert.deepEqual(
        [body.pagination.total, body.pagination.totalIsExact],
        expected.length > 10_000 ? [10_000, false] : [expected.length, true],
        `${label}: ${url}`,
      );
      return expected.length;
    };
    const before = vocabularyReads("Changelog");
    for (let round = 0; round < 4; round++) {
      assert.equal(await check(`round ${round}`, ""), marked);
      assert.equal(await check(`round ${round}, Drafts`, "&status=Draft"), Math.ceil(marked / 3));
      assert.equal(await check(`round ${round}, labelled Zeta`, "&labels=Zeta"), Math.ceil(marked / 5));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (testEngine() === "sqlite") assert.ok(vocabularyReads("Changelog") > before, "a vocabulary of the new version was read, and the last rounds used it");
  });

  // Last: on PostgreSQL, a word too long for the word index turns the table's words off.
  it("takes a post whose word is too long for an index key, and finds a term inside that word", async () => {
    // 4,800 hex digits: a word no index key can hold whole (PostgreSQL's limit is 2,712 bytes).
    const hex = Array.from({ length: 150 }, (_, i) => createHash("md5").update(String(i)).digest("hex")).join("");
    const post = { id: "p-long-word", title: "A pasted hash", content: `see ${hex} zquorx`, boardId: "demo_board_1", statusId: null };
    await importData(app.cli, { version: 1, posts: [{ ...post, postedById: "demo_user_0000001", upvotes: 0, createdAt: "2026-01-02T03:04:05.000Z" }] });
    // A term from the middle of the long word, the long word's neighbour, and one in no text.
    assert.equal(await checkSearch(hex.slice(2_000, 2_040), "inside the long word"), 1);
    assert.equal(await checkSearch("zquorx", "beside the long word"), 1);
    assert.equal(await checkSearch("okta zquorx", "beside the long word, with a common word"), 0);
    assert.equal(await checkSearch("zquorxy", "in no text"), 0);
  });
});
