import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";

// The reads the dashboard needs: boards, statuses, users, labels, one post, a post's comments.

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});

const LISTS = ["/api/v1/boards", "/api/v1/statuses", "/api/v1/users", "/api/v1/labels", "/api/v1/posts/p-dark/comments"];
const ENDPOINTS = [...LISTS, "/api/v1/posts/p-dark"];

describe("dashboard reads: refusals", () => {
  for (const path of ENDPOINTS) {
    it(`GET ${path} without a key: 401 with a Bearer challenge`, async () => {
      const { status, body, headers } = await app.json(path, { key: null });
      assert.equal(status, 401);
      assert.equal(body.error.code, "unauthorized");
      assert.equal(headers.get("www-authenticate"), 'Bearer realm="feedback"');
    });

    it(`GET ${path} with a read-only key: 200`, async () => {
      assert.equal((await app.json(path, { key: app.keys.read })).status, 200);
    });

    it(`POST ${path}: 405 with Allow`, async () => {
      const { status, body, headers } = await app.json(path, { method: "POST" });
      assert.equal(status, 405);
      assert.equal(body.error.code, "method_not_allowed");
      assert.match(headers.get("allow") ?? "", /GET/);
    });
  }

  const badQueries: [string, string][] = [
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["page=0", "page"],
    ["page=", "page"],
    ["page=1&page=2", "page"],
  ];
  for (const path of LISTS) {
    for (const [query, field] of badQueries) {
      it(`GET ${path}?${query}: 400 naming ${field}`, async () => {
        const { status, body } = await app.json(`${path}?${query}`);
        assert.equal(status, 400);
        assert.equal(body.error.code, "invalid_request");
        assert.ok(body.error.details.some((d: { field: string }) => d.field === field), JSON.stringify(body));
      });
    }
  }

  it("an unauthenticated bad parameter or unknown post is still a 401", async () => {
    for (const path of ["/api/v1/boards?limit=0", "/api/v1/posts/p-nope", "/api/v1/posts/p-nope/comments"]) {
      assert.equal((await app.json(path, { key: null })).status, 401, path);
    }
  });

  for (const path of ["/api/v1/posts/p-nope", "/api/v1/posts/p-nope/comments"]) {
    it(`GET ${path}: 404 not_found`, async () => {
      const { status, body } = await app.json(path);
      assert.equal(status, 404);
      assert.equal(body.error.code, "not_found");
      assert.match(body.error.message, /p-nope/);
    });
  }
});

describe("GET /api/v1/posts/:postId", () => {
  it("answers the post record, as the list does", async () => {
    const one = await app.json("/api/v1/posts/p-dark");
    const listed = await app.json("/api/v1/posts?id=p-dark");
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, { data: listed.body.data[0] });
    assert.equal(one.body.data.commentCount, 3);
  });

  it("gives null status for a post without one", async () => {
    const { body } = await app.json("/api/v1/posts/p-backslash");
    assert.equal(body.data.status, null);
  });
});

describe("GET /api/v1/posts/:postId/comments", () => {
  it("lists pinned comments first, then oldest first, with authors", async () => {
    const { status, body } = await app.json("/api/v1/posts/p-dark/comments");
    assert.equal(status, 200);
    assert.deepEqual(
      body.data.map((c: { id: string }) => c.id),
      ["c-pinned", "c-first", "c-later"],
    );
    assert.deepEqual(body.data[0], {
      id: "c-pinned",
      postId: "p-dark",
      commentDescription: "This is planned for Q2.",
      pinned: true,
      pinnedAt: "2026-01-12T06:00:00.000Z",
      postedById: "u-ada",
      postedBy: { id: "u-ada", name: "Ada Lovelace" },
      createdAt: "2026-01-12T00:00:00.000Z",
      updatedAt: "2026-01-12T06:00:00.000Z",
    });
    assert.deepEqual(body.pagination, { page: 1, limit: 10, total: 3, totalPages: 1, hasNextPage: false });
  });

  it("pages like the other lists, with a Link header", async () => {
    const first = await app.json("/api/v1/posts/p-dark/comments?limit=2");
    assert.deepEqual(
      first.body.data.map((c: { id: string }) => c.id),
      ["c-pinned", "c-first"],
    );
    assert.deepEqual(first.body.pagination, { page: 1, limit: 2, total: 3, totalPages: 2, hasNextPage: true });
    assert.match(first.headers.get("link") ?? "", /page=2>; rel="next"/);
    const second = await app.json("/api/v1/posts/p-dark/comments?limit=2&page=2");
    assert.deepEqual(
      second.body.data.map((c: { id: string }) => c.id),
      ["c-later"],
    );
    const past = await app.json("/api/v1/posts/p-dark/comments?limit=2&page=9");
    assert.equal(past.status, 200);
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.pagination.total, 3);
  });

  it("follows a pin and an unpin: a newly pinned comment moves up, an unpinned one back", async () => {
    const order = async () => (await app.json("/api/v1/posts/p-dark/comments")).body.data.map((c: { id: string }) => c.id);
    const put = (id: string, pin: boolean) =>
      app.json(`/api/v1/comments/${id}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pinComment: pin }),
      });
    assert.equal((await put("c-later", true)).status, 200);
    assert.deepEqual(await order(), ["c-pinned", "c-later", "c-first"]);
    assert.equal((await put("c-later", false)).status, 200);
    assert.deepEqual(await order(), ["c-pinned", "c-first", "c-later"]);
  });

  it("answers an empty list for a post without comments", async () => {
    const { status, body } = await app.json("/api/v1/posts/p-percent/comments");
    assert.equal(status, 200);
    assert.deepEqual(body, { data: [], pagination: { page: 1, limit: 10, total: 0, totalPages: 0, hasNextPage: false } });
  });
});

describe("GET /api/v1/boards, /statuses, /labels", () => {
  it("lists boards by name, with post counts", async () => {
    const { body } = await app.json("/api/v1/boards");
    assert.deepEqual(body.data, [
      { id: "b-bugs", name: "Bugs", postCount: 22 },
      { id: "b-features", name: "Feature requests", postCount: 4 },
      { id: "b-empty", name: "Nothing here yet", postCount: 0 },
    ]);
    assert.deepEqual(body.pagination, { page: 1, limit: 10, total: 3, totalPages: 1, hasNextPage: false });
  });

  it("pages boards", async () => {
    const { body } = await app.json("/api/v1/boards?limit=2&page=2");
    assert.deepEqual(
      body.data.map((b: { id: string }) => b.id),
      ["b-empty"],
    );
    assert.deepEqual(body.pagination, { page: 2, limit: 2, total: 3, totalPages: 2, hasNextPage: false });
  });

  it("lists statuses in workflow order, with colours", async () => {
    const { body } = await app.json("/api/v1/statuses");
    assert.deepEqual(body.data, [
      { id: "s-open", name: "Open", color: "#64748b", position: 0 },
      { id: "s-planned", name: "Planned", color: "#3b82f6", position: 1 },
      { id: "s-done", name: "Complete", color: "#22c55e", position: 2 },
    ]);
  });

  it("lists each changelog label once, whatever its case, with counts", async () => {
    const { body } = await app.json("/api/v1/labels");
    assert.deepEqual(body.data, [
      { name: "API", changelogCount: 1 },
      { name: "Fixed", changelogCount: 1 },
      { name: "improved", changelogCount: 1 },
      { name: "New", changelogCount: 2 },
      { name: "UI", changelogCount: 1 },
    ]);
    assert.equal(body.pagination.total, 5);
  });
});

describe("GET /api/v1/users", () => {
  const cases: [string, string[]][] = [
    ["", ["u-ada", "u-grace", "u-zoe"]],
    ["search=ada", ["u-ada"]],
    ["search=ZOË", ["u-zoe"]],
    ["q=%C3%BCnal", ["u-zoe"]],
    ["search=example.com", []],
    ["search=grace%20hopper", ["u-grace"]],
    ["search=hopper%20ada", []],
    ["search=%25", []],
    ["search=_", []],
    ["search=%20%20", ["u-ada", "u-grace", "u-zoe"]],
    ["id=u-zoe,u-ada", ["u-ada", "u-zoe"]],
    ["id=u-nope", []],
  ];
  for (const [query, expected] of cases) {
    it(`?${query} finds ${expected.join(", ") || "nobody"}`, async () => {
      const { status, body } = await app.json(`/api/v1/users?${query}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(
        body.data.map((u: { id: string }) => u.id),
        expected,
      );
      assert.equal(body.pagination.total, expected.length);
    });
  }

  it("answers id and name only, never the email", async () => {
    const { body } = await app.json("/api/v1/users?search=ada");
    assert.deepEqual(body.data, [{ id: "u-ada", name: "Ada Lovelace" }]);
  });

  it("refuses a search over 200 characters", async () => {
    const { status, body } = await app.json(`/api/v1/users?search=${"a".repeat(201)}`);
    assert.equal(status, 400);
    assert.equal(body.error.details[0].field, "search");
  });
});

describe("OpenAPI document", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  let doc: any;
  before(async () => {
    doc = (await app.json("/api/v1/openapi.json", { key: null })).body;
    ajv.addSchema({ $id: "openapi", components: doc.components }, "openapi");
  });

  it("lists the dashboard's reads", () => {
    for (const path of ["/boards", "/statuses", "/users", "/labels", "/posts/{postId}", "/posts/{postId}/comments"]) {
      assert.ok(doc.paths[path]?.get, path);
    }
    assert.ok(doc.components.schemas.PostComment);
  });

  // Real answers, checked against what the document says each path answers.
  const cases: [string, string][] = [
    ["/boards", "/api/v1/boards"],
    ["/boards", "/api/v1/boards?limit=0"],
    ["/statuses", "/api/v1/statuses"],
    ["/labels", "/api/v1/labels"],
    ["/users", "/api/v1/users?search=a"],
    ["/users", "/api/v1/users?page=x"],
    ["/posts/{postId}", "/api/v1/posts/p-dark"],
    ["/posts/{postId}", "/api/v1/posts/p-backslash"],
    ["/posts/{postId}", "/api/v1/posts/p-nope"],
    ["/posts/{postId}/comments", "/api/v1/posts/p-dark/comments"],
    ["/posts/{postId}/comments", "/api/v1/posts/p-nope/comments"],
  ];
  for (const [path, url] of cases) {
    it(`describes ${url}`, async () => {
      const { status, body } = await app.json(url);
      const response = doc.paths[path]?.get?.responses?.[String(status)];
      assert.ok(response, `the document describes GET ${path} answering ${status}`);
      const schema = JSON.parse(JSON.stringify(response.content["application/json"].schema).replaceAll("#/components/", "openapi#/components/"));
      const validate = ajv.compile(schema);
      assert.ok(validate(body), `GET ${url} ${status}: ${ajv.errorsText(validate.errors)}`);
    });
  }
});
