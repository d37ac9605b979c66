import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});

async function list(query: string): Promise<string[]> {
  const { status, body } = await app.json(`/api/v1/changelogs?limit=100&${query}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body.data.map((c: { id: string }) => c.id);
}

// Drafts first, most recently updated first; then Published, most recently published first;
// ties by id descending (cl-tie and cl-dark share publishedAt).
const ORDER = ["cl-audit", "cl-sso", "cl-csv", "cl-tie", "cl-dark"];

describe("GET /api/v1/changelogs", () => {
  it("orders drafts first, then published, with ties by id", async () => {
    assert.deepEqual(await list(""), ORDER);
  });

  it("serializes a changelog as the contract shows, labels sorted", async () => {
    const { body } = await app.json("/api/v1/changelogs?id=cl-tie");
    assert.deepEqual(body.data, [
      {
        id: "cl-tie",
        title: "Faster search",
        content: "Search is twice as fast.",
        status: "Published",
        labels: ["API", "improved"],
        publishedAt: "2026-01-20T00:00:00.000Z",
        createdAt: "2026-01-16T00:00:00.000Z",
        updatedAt: "2026-01-16T00:00:00.000Z",
      },
    ]);
    const draft = (await app.json("/api/v1/changelogs?id=cl-sso")).body.data[0];
    assert.equal(draft.status, "Draft");
    assert.equal(draft.publishedAt, null);
    assert.equal(draft.updatedAt, "2026-01-27T00:00:00.000Z");
  });

  it("gives every changelog of a page its own labels, none where it has none", async () => {
    const { body } = await app.json("/api/v1/changelogs?limit=100");
    const labels = Object.fromEntries(body.data.map((c: { id: string; labels: string[] }) => [c.id, c.labels]));
    assert.deepEqual(labels, { "cl-audit": [], "cl-sso": ["new"], "cl-csv": ["Fixed"], "cl-tie": ["API", "improved"], "cl-dark": ["New", "UI"] });
    assert.deepEqual((await app.json("/api/v1/changelogs/cl-audit")).body.data.labels, []);
  });

  it("filters by status in any case, writing it back in the contract's spelling", async () => {
    assert.deepEqual(await list("status=Draft"), ["cl-audit", "cl-sso"]);
    assert.deepEqual(await list("status=published"), ["cl-csv", "cl-tie", "cl-dark"]);
    const { body } = await app.json("/api/v1/changelogs?status=DRAFT");
    assert.ok(body.data.every((c: { status: string }) => c.status === "Draft"));
  });

  it("filters by labels: any of them, compared case-insensitively", async () => {
    assert.deepEqual(await list("labels=new"), ["cl-sso", "cl-dark"]);
    assert.deepEqual(await list("labels=NEW"), ["cl-sso", "cl-dark"]);
    assert.deepEqual(await list("labels=fixed,api"), ["cl-csv", "cl-tie"]);
    assert.deepEqual(await list("labels=Fixed&labels=ui"), ["cl-csv", "cl-dark"]);
    assert.deepEqual(await list("labels=nope"), []);
  });

  it("combines status, labels, search and id with AND", async () => {
    assert.deepEqual(await list("status=Published&labels=new"), ["cl-dark"]);
    assert.deepEqual(await list("status=Draft&labels=new&search=okta"), ["cl-sso"]);
    assert.deepEqual(await list("id=cl-dark,cl-csv&labels=fixed"), ["cl-csv"]);
  });

  it("searches title and content: every term, any case, wildcards literal", async () => {
    assert.deepEqual(await list("search=DARK"), ["cl-dark"]);
    assert.deepEqual(await list("search=100%25"), ["cl-csv"]);
    assert.deepEqual(await list("search=snake_case"), ["cl-csv"]);
    assert.deepEqual(await list("search=%25"), ["cl-csv"]);
    assert.deepEqual(await list("search=crème"), ["cl-sso"]);
    assert.deepEqual(await list("q=coming%20audit"), ["cl-audit"]);
    assert.deepEqual(await list("search=coming%20dark"), []);
  });

  it("paginates with the contract's pagination object", async () => {
    const { body, headers } = await app.json("/api/v1/changelogs?limit=2&page=2");
    assert.deepEqual(body.data.map((c: { id: string }) => c.id), ORDER.slice(2, 4));
    const { nextCursor, ...rest } = body.pagination;
    assert.deepEqual(rest, { page: 2, limit: 2, total: 5, totalPages: 3, hasNextPage: true, totalIsExact: true });
    assert.equal(typeof nextCursor, "string");
    assert.match(headers.get("link") ?? "", /rel="prev"/);
    const empty = await app.json("/api/v1/changelogs?status=Draft&labels=fixed");
    assert.deepEqual(empty.body.pagination, {
      page: 1,
      limit: 10,
      total: 0,
      totalPages: 0,
      hasNextPage: false,
      totalIsExact: true,
      nextCursor: null,
    });
  });

  const bad: [string, string][] = [
    ["status=Archived", "status"],
    ["status=", "status"],
    ["status=Draft&status=Published", "status"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["page=0", "page"],
    ["page=x", "page"],
    [`labels=${Array.from({ length: 101 }, (_, i) => `l${i}`).join(",")}`, "labels"],
  ];
  for (const [query, field] of bad) {
    it(`refuses ${query.slice(0, 40)} with 400 naming ${field}`, async () => {
      const { status, body } = await app.json(`/api/v1/changelogs?${query}`);
      assert.equal(status, 400);
      assert.equal(body.error.code, "invalid_request");
      assert.ok(body.error.details.some((d: { field: string }) => d.field === field));
    });
  }
});

describe("GET /api/v1/changelogs/:changelogId", () => {
  it("answers one changelog", async () => {
    const { status, body } = await app.json("/api/v1/changelogs/cl-dark");
    assert.equal(status, 200);
    assert.equal(body.data.id, "cl-dark");
    assert.deepEqual(body.data.labels, ["New", "UI"]);
    assert.equal(body.data.content, "# Dark mode\n\nSwitch it on in **Settings**.");
  });

  it("answers 404 not_found for an unknown id", async () => {
    const { status, body } = await app.json("/api/v1/changelogs/cl-nope");
    assert.equal(status, 404);
    assert.equal(body.error.code, "not_found");
  });

  it("answers 404 for an id with characters that need escaping", async () => {
    const { status } = await app.json(`/api/v1/changelogs/${encodeURIComponent("a'b\"c%")}`);
    assert.equal(status, 404);
  });
});
