import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";

// Real responses checked against the served OpenAPI document, so the document cannot drift.

let app: TestApp;
let doc: any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

before(async () => {
  app = await startApp({ dataset });
  const res = await app.request("/api/v1/openapi.json", { key: null });
  assert.equal(res.status, 200);
  doc = await res.json();
  ajv.addSchema({ $id: "openapi", components: doc.components }, "openapi");
});
after(async () => {
  await app?.stop();
});

function check(path: string, method: string, status: number, body: unknown) {
  const response = doc.paths[path]?.[method]?.responses?.[String(status)];
  assert.ok(response, `the document describes ${method.toUpperCase()} ${path} answering ${status}`);
  const schema = JSON.parse(JSON.stringify(response.content["application/json"].schema).replaceAll("#/components/", "openapi#/components/"));
  const validate = ajv.compile(schema);
  assert.ok(validate(body), `${method.toUpperCase()} ${path} ${status}: ${ajv.errorsText(validate.errors)}`);
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and lists the four endpoints of the spec", () => {
    assert.equal(doc.openapi, "3.1.0");
    for (const [path, method] of [
      ["/posts", "get"],
      ["/changelogs", "get"],
      ["/changelogs/{changelogId}", "get"],
      ["/comments/{commentId}", "put"],
    ] as const) {
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
    }
    const params = doc.paths["/posts"].get.parameters.map((p: { name: string }) => p.name);
    assert.deepEqual(params.sort(), ["boardId", "cursor", "id", "limit", "page", "postedById", "search", "sortBy", "statusId"]);
  });

  const cases: [string, string, string, RequestInit?][] = [
    ["/posts", "get", "/api/v1/posts?limit=100"],
    ["/posts", "get", "/api/v1/posts?limit=0"],
    ["/posts", "get", "/api/v1/posts?search=nothing-matches"],
    ["/changelogs", "get", "/api/v1/changelogs?limit=100"],
    ["/changelogs", "get", "/api/v1/changelogs?status=nope"],
    ["/changelogs/{changelogId}", "get", "/api/v1/changelogs/cl-sso"],
    ["/changelogs/{changelogId}", "get", "/api/v1/changelogs/cl-dark"],
    ["/changelogs/{changelogId}", "get", "/api/v1/changelogs/cl-nope"],
    ["/comments/{commentId}", "put", "/api/v1/comments/c-pinned", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"pinComment":false}' }],
    ["/comments/{commentId}", "put", "/api/v1/comments/c-pinned", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"pinComment":true}' }],
    ["/comments/{commentId}", "put", "/api/v1/comments/c-pinned", { method: "PUT", headers: { "content-type": "text/plain" }, body: "x" }],
    ["/comments/{commentId}", "put", "/api/v1/comments/c-nope", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"pinComment":true}' }],
    ["/comments/{commentId}", "put", "/api/v1/comments/c-first", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"pinComment":true}', key: "read" } as RequestInit],
  ];
  for (const [path, method, url, init] of cases) {
    it(`describes ${url} ${init?.body ?? ""}`, async () => {
      const key = (init as { key?: string } | undefined)?.key === "read" ? app.keys.read : undefined;
      const { status, body } = await app.json(url, { ...init, ...(key ? { key } : {}) });
      check(path, method, status, body);
    });
  }

  it("describes a 401", async () => {
    const { status, body } = await app.json("/api/v1/posts", { key: null });
    check("/posts", "get", status, body);
  });
});
