import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset, latestOrder, posts, topOrder } from "../support/dataset";

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});

const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id);

async function all(query: string): Promise<string[]> {
  const { status, body } = await app.json(`/api/v1/posts?limit=100&${query}`);
  assert.equal(status, 200, JSON.stringify(body));
  return ids(body);
}

describe("GET /api/v1/posts", () => {
  it("answers the first page of 10, newest first, with the post record and pagination", async () => {
    const { status, body, headers } = await app.json("/api/v1/posts");
    assert.equal(status, 200);
    assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
    assert.ok(headers.get("x-request-id"));
    assert.deepEqual(ids(body), latestOrder().slice(0, 10));
    const { nextCursor, ...rest } = body.pagination;
    assert.deepEqual(rest, { page: 1, limit: 10, total: 26, totalPages: 3, hasNextPage: true, totalIsExact: true });
    assert.equal(typeof nextCursor, "string");
  });

  it("serializes a post exactly as the contract shows", async () => {
    const { body } = await app.json("/api/v1/posts?id=p-dark");
    assert.deepEqual(body.data, [
      {
        id: "p-dark",
        title: "Dark mode",
        content: "Please add a dark theme for night owls.",
        boardId: "b-features",
        board: { id: "b-features", name: "Feature requests" },
        statusId: "s-planned",
        status: { id: "s-planned", name: "Planned", color: "#3b82f6" },
        postedById: "u-ada",
        postedBy: { id: "u-ada", name: "Ada Lovelace" },
        upvotes: 40,
        commentCount: 3,
        createdAt: "2026-01-10T00:00:00.000Z",
        updatedAt: "2026-01-10T00:00:00.000Z",
      },
    ]);
  });

  it("gives null statusId and status for a post without a status", async () => {
    const { body } = await app.json("/api/v1/posts?id=p-backslash");
    assert.equal(body.data[0].statusId, null);
    assert.equal(body.data[0].status, null);
  });

  it("breaks createdAt ties by id, descending", async () => {
    const order = await all("");
    assert.ok(order.indexOf("p-percent") < order.indexOf("p-dark"));
    assert.ok(order.indexOf("p-underscore") < order.indexOf("p-backslash"));
    assert.deepEqual(order, latestOrder());
  });

  it("sorts by top: upvotes, then createdAt, then id", async () => {
    assert.deepEqual(await all("sortBy=top"), topOrder());
    assert.deepEqual(await all("sortBy=latest"), latestOrder());
  });

  it("pages through the whole list without gaps or repeats, with Link headers", async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 6; page++) {
      const { body, headers } = await app.json(`/api/v1/posts?limit=5&page=${page}&sortBy=top`);
      assert.equal(body.pagination.page, page);
      assert.equal(body.pagination.totalPages, 6);
      assert.equal(body.pagination.hasNextPage, page < 6);
      const link = headers.get("link") ?? "";
      assert.match(link, /rel="first"/);
      assert.match(link, /rel="last"/);
      assert.equal(/rel="prev"/.test(link), page > 1);
      assert.equal(/rel="next"/.test(link), page < 6);
      if (page < 6) {
        const next = `page=${page + 1}&sortBy=top&cursor=${body.pagination.nextCursor}>; rel="next"`;
        assert.ok(link.includes(next), `next carries the page and the cursor: ${link}`);
      }
      assert.ok(link.includes("sortBy=top"), "links keep the other parameters");
      seen.push(...ids(body));
    }
    assert.deepEqual(seen, topOrder());
  });

  it("answers a page past the end with no data and the true total", async () => {
    const { status, body } = await app.json("/api/v1/posts?page=99");
    assert.equal(status, 200);
    assert.deepEqual(body.data, []);
    assert.deepEqual(body.pagination, {
      page: 99,
      limit: 10,
      total: 26,
      totalPages: 3,
      hasNextPage: false,
      totalIsExact: true,
      nextCursor: null,
    });
  });

  it("filters by board, status and author, combined with AND", async () => {
    const expect = (pred: (p: (typeof posts)[number]) => boolean) => latestOrder(posts.filter(pred));
    assert.deepEqual(await all("boardId=b-features"), expect((p) => p.boardId === "b-features"));
    assert.deepEqual(await all("statusId=s-open"), expect((p) => p.statusId === "s-open"));
    assert.deepEqual(await all("postedById=u-zoe"), expect((p) => p.postedById === "u-zoe"));
    assert.deepEqual(
      await all("boardId=b-bugs&statusId=s-open&postedById=u-grace"),
      expect((p) => p.boardId === "b-bugs" && p.statusId === "s-open" && p.postedById === "u-grace"),
    );
  });

  it("gives an empty list, not a 404, for ids that do not exist", async () => {
    for (const query of ["boardId=b-nope", "statusId=s-nope", "postedById=u-nope", "id=p-nope", "boardId=b-empty"]) {
      const { status, body } = await app.json(`/api/v1/posts?${query}`);
      assert.equal(status, 200, query);
      assert.deepEqual(body.data, [], query);
      assert.equal(body.pagination.total, 0, query);
      assert.equal(body.pagination.totalPages, 0, query);
    }
  });

  it("takes ids comma-separated and repeated", async () => {
    assert.deepEqual(await all("id=p-dark,p-csv&id=p-creme"), ["p-dark", "p-creme", "p-csv"]);
    assert.deepEqual(await all("id=p-dark,p-nope"), ["p-dark"]);
  });

  describe("search", () => {
    const cases: [string, string[]][] = [
      ["dark", ["p-dark"]],
      ["DARK THEME", ["p-dark"]],
      ["dark owls", ["p-dark"]],
      ["dark csv", []],
      ["100%", ["p-percent"]],
      ["%", ["p-percent"]],
      ["snake_case", ["p-underscore"]],
      ["_", ["p-underscore"]],
      ["e_c", ["p-underscore"]],
      ["C:\\Users", ["p-backslash"]],
      ["\\", ["p-backslash"]],
      ["crème", ["p-creme"]],
      ["brûlée", ["p-creme"]],
      ["STRASSE", ["p-creme"]],
      ["οδος", ["p-creme"]],
      ["ad", ["p-dark", "p-backslash"]],
      ["x", ["p-underscore", "p-csv"]],
      ["zz", []],
      ["report", latestOrder(posts.filter((p) => /report/i.test(`${p.title}\n${p.content}`)))],
      ["  csv  ", ["p-csv"]],
      // A term must sit inside the title or inside the content, not across the two.
      ["mode please", ["p-dark"]],
      ["modeplease", []],
    ];
    for (const [term, expected] of cases) {
      it(`finds ${JSON.stringify(term)}`, async () => {
        assert.deepEqual(await all(`search=${encodeURIComponent(term)}`), expected);
      });
    }

    it("accepts q as the alias of search, and ignores an empty search", async () => {
      assert.deepEqual(await all("q=csv"), ["p-csv"]);
      assert.deepEqual(await all("search="), latestOrder());
      assert.deepEqual(await all("search=%20%20"), latestOrder());
    });

    it("combines search with filters and sorting", async () => {
      assert.deepEqual(await all("search=filler&boardId=b-bugs&statusId=s-done&sortBy=top"), topOrder(posts.filter((p) => p.id.startsWith("p-filler") && p.statusId === "s-done")));
    });
  });

  describe("refuses bad parameters with 400 naming the field", () => {
    const cases: [string, string][] = [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=abc", "limit"],
      ["limit=1.5", "limit"],
      ["limit=", "limit"],
      ["limit=-1", "limit"],
      ["limit=1e1", "limit"],
      ["page=0", "page"],
      ["page=abc", "page"],
      ["page=1.5", "page"],
      ["page=", "page"],
      ["page=-2", "page"],
      ["page=99999999999999999999", "page"],
      ["sortBy=oldest", "sortBy"],
      ["sortBy=", "sortBy"],
      ["sortBy=TOP", "sortBy"],
      ["limit=5&limit=6", "limit"],
      ["page=1&page=2", "page"],
      ["boardId=a&boardId=b", "boardId"],
      ["search=a&search=b", "search"],
      ["search=a&q=b", "search"],
      [`search=${"a".repeat(201)}`, "search"],
      [`id=${Array.from({ length: 101 }, (_, i) => `p${i}`).join(",")}`, "id"],
    ];
    for (const [query, field] of cases) {
      it(query.length > 40 ? `${query.slice(0, 40)}…` : query, async () => {
        const { status, body } = await app.json(`/api/v1/posts?${query}`);
        assert.equal(status, 400);
        assert.equal(body.error.code, "invalid_request");
        assert.ok(body.error.details.some((d: { field: string }) => d.field === field), JSON.stringify(body.error.details));
        assert.equal(typeof body.error.requestId, "string");
      });
    }
  });

  it("ignores unknown parameters", async () => {
    const { status, body } = await app.json("/api/v1/posts?color=blue&limit=3");
    assert.equal(status, 200);
    assert.equal(body.data.length, 3);
  });

  it("accepts search of exactly 200 characters and limit 100", async () => {
    assert.equal((await app.json(`/api/v1/posts?search=${"a".repeat(200)}`)).status, 200);
    assert.equal((await app.json("/api/v1/posts?limit=100")).body.pagination.limit, 100);
  });
});
