import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { eventually } from "../support/eventually";
import { sql } from "../support/sql";

// Real responses checked against the served OpenAPI document, so the document cannot drift.

let app: TestApp;
let admin: string;
let doc: any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

before(async () => {
  app = await startApp({ dataset });
  const res = await app.request("/api/v1/openapi.json", { key: null });
  assert.equal(res.status, 200);
  doc = await res.json();
  ajv.addSchema({ $id: "openapi", components: doc.components }, "openapi");
  admin = (await app.cli(["keys", "create", "--name", "admin", "--scopes", "read,write,admin"])).stdout.trim();
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

  describe("the webhook endpoints", () => {
    const call = (url: string, method = "GET", body?: unknown) =>
      app.json(`/api/v1${url}`, {
        method,
        key: admin,
        ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });
    // A public address literal: creating it needs no resolver, so no internet.
    const hook = { url: "https://203.0.114.1/hook", events: ["comment.pinned", "comment.unpinned"] };

    it("describes every answer of every operation, from creation to removal", async () => {
      const created = await call("/webhooks", "POST", hook);
      check("/webhooks", "post", created.status, created.body);
      assert.equal(created.status, 201);
      const id = created.body.data.id as string;
      const one = `/webhooks/${id}`;
      await app.json("/api/v1/comments/c-first", { method: "PUT", headers: { "content-type": "application/json" }, body: '{"pinComment":true}' });
      const tested = await call(`${one}/test`, "POST");
      assert.equal(tested.status, 202);
      // The pin's delivery is made by the dispatcher's next pass, a moment after the PUT answers.
      const deliveries = await eventually(async () => {
        const page = await call(`${one}/deliveries?limit=1`);
        return page.body.nextCursor ? page : undefined;
      }, "two deliveries, one a page");
      const deliveryId = deliveries.body.data[0].id as string;
      const cases: [string, string, string, unknown?][] = [
        ["/webhooks", "post", "/webhooks", { url: "ftp://x", events: [] }],
        ["/webhooks", "get", "/webhooks"],
        ["/webhooks/{webhookId}", "get", one],
        ["/webhooks/{webhookId}", "get", "/webhooks/whk_nope"],
        ["/webhooks/{webhookId}", "patch", one, { enabled: false, description: "documented" }],
        ["/webhooks/{webhookId}", "patch", one, { events: ["nope"] }],
        ["/webhooks/{webhookId}/rotate-secret", "post", `${one}/rotate-secret`],
        ["/webhooks/{webhookId}/test", "post", `${one}/test`],
        ["/webhooks/{webhookId}/deliveries", "get", `${one}/deliveries`],
        ["/webhooks/{webhookId}/deliveries", "get", `${one}/deliveries?cursor=nope`],
        ["/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", "post", `${one}/deliveries/${deliveryId}/redeliver`],
        ["/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", "post", `${one}/deliveries/dlv_nope/redeliver`],
        ["/webhooks/{webhookId}/replay", "post", `${one}/replay?since=2026-01-01T00:00:00Z`],
        ["/webhooks/{webhookId}/replay", "post", `${one}/replay?since=nope`],
      ];
      for (const [path, method, url, body] of cases) {
        const { status, body: answer } = await call(url, method.toUpperCase(), body);
        check(path, method, status, answer);
      }
      const forbidden = await app.json("/api/v1/webhooks", { key: app.keys.write });
      check("/webhooks", "get", forbidden.status, forbidden.body);
      const removed = await app.request(`/api/v1${one}`, { method: "DELETE", key: admin });
      assert.equal(removed.status, 204);
      assert.deepEqual(Object.keys(doc.paths["/webhooks/{webhookId}"].delete.responses["204"]), ["description"]);
    });

    it("lists each event type in webhooks, with the signing headers, and a real event matches its schema", async () => {
      assert.deepEqual(Object.keys(doc.webhooks).sort(), ["comment.pinned", "comment.unpinned", "comment.updated", "webhook.test"]);
      for (const event of Object.values(doc.webhooks) as { post: { parameters: { name: string; in: string }[] } }[]) {
        assert.deepEqual(
          event.post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
          ["header:webhook-id", "header:webhook-timestamp", "header:webhook-signature"],
        );
      }
      await call("/webhooks", "POST", { ...hook, events: ["comment.updated", "comment.pinned", "comment.unpinned"] });
      for (const body of ['{"commentDescription":"Documented text"}', '{"pinComment":false}', '{"pinComment":true}']) {
        const res = await app.json("/api/v1/comments/c-pinned", { method: "PUT", headers: { "content-type": "application/json" }, body });
        assert.equal(res.status, 200);
      }
      const messages = await sql<{ type: string; payload: string }>(app.databaseUrl, `SELECT "type", "payload" FROM "WebhookMessage"`);
      const types = new Set(messages.map((m) => m.type));
      assert.deepEqual([...types].sort(), ["comment.pinned", "comment.unpinned", "comment.updated", "webhook.test"]);
      for (const message of messages) {
        const schema = JSON.parse(
          JSON.stringify(doc.webhooks[message.type].post.requestBody.content["application/json"].schema).replaceAll(
            "#/components/",
            "openapi#/components/",
          ),
        );
        const validate = ajv.compile(schema);
        assert.ok(validate(JSON.parse(message.payload)), `${message.type}: ${ajv.errorsText(validate.errors)}`);
      }
    });
  });

  it("describes a 401", async () => {
    const { status, body } = await app.json("/api/v1/posts", { key: null });
    check("/posts", "get", status, body);
  });
});
