import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { sql, storedTime } from "../support/sql";

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});

const ENDPOINTS: [string, string, RequestInit?][] = [
  ["GET", "/api/v1/posts"],
  ["GET", "/api/v1/changelogs"],
  ["GET", "/api/v1/changelogs/cl-dark"],
  ["PUT", "/api/v1/comments/c-first", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "pinComment=true" }],
];

describe("authentication", () => {
  const bad: [string, Record<string, string>][] = [
    ["no header", {}],
    ["an empty header", { authorization: "" }],
    ["Basic auth", { authorization: "Basic dXNlcjpwYXNz" }],
    ["Bearer with no key", { authorization: "Bearer " }],
    ["an unknown key", { authorization: `Bearer fbk_${"A".repeat(43)}` }],
    ["a key without the prefix", { authorization: `Bearer ${"A".repeat(43)}` }],
    ["two keys", { authorization: "Bearer fbk_a fbk_b" }],
  ];
  for (const [method, path, init] of ENDPOINTS) {
    for (const [name, headers] of bad) {
      it(`${method} ${path} with ${name}: 401 and a Bearer challenge`, async () => {
        const { status, body, headers: h } = await app.json(path, { ...init, method, headers: { ...(init?.headers as object), ...headers }, key: null });
        assert.equal(status, 401);
        assert.equal(body.error.code, "unauthorized");
        assert.equal(h.get("www-authenticate"), 'Bearer realm="feedback"');
        assert.equal(h.get("content-type"), "application/json; charset=utf-8");
      });
    }
  }

  it("accepts the scheme in any case", async () => {
    const { status } = await app.json("/api/v1/posts", { headers: { authorization: `bearer ${app.keys.read}` }, key: null });
    assert.equal(status, 200);
  });

  it("checks the key before anything else: 401 beats 404, 400, 405, 413 and 415", async () => {
    const cases: [string, RequestInit][] = [
      ["/api/v1/changelogs/cl-nope", {}],
      ["/api/v1/posts?limit=0", {}],
      ["/api/v1/nowhere", {}],
      ["/api/v1/posts", { method: "DELETE" }],
      ["/api/v1/comments/c-first", { method: "PUT", headers: { "content-type": "text/plain" }, body: "x" }],
      ["/api/v1/comments/c-first", { method: "PUT", headers: { "content-type": "application/json" }, body: "x".repeat(70_000) }],
    ];
    for (const [path, init] of cases) {
      const { status } = await app.json(path, { ...init, key: null });
      assert.equal(status, 401, `${init.method ?? "GET"} ${path}`);
    }
  });

  it("lets a read-only key read", async () => {
    for (const path of ["/api/v1/posts", "/api/v1/changelogs", "/api/v1/changelogs/cl-dark"]) {
      assert.equal((await app.json(path, { key: app.keys.read })).status, 200, path);
    }
  });

  it("refuses a revoked key at once, and records when a key was last used", async () => {
    const created = await app.cli(["keys", "create", "--name", "short-lived"]);
    const key = created.stdout.trim();
    // Several answers first, so that the server has the key remembered (on SQLite, while the
    // database is unchanged) when another process revokes it.
    for (let i = 0; i < 3; i++) assert.equal((await app.json("/api/v1/posts", { key })).status, 200);
    const listed = await app.cli(["keys", "list"]);
    const row = listed.stdout.split("\n").find((line) => line.includes("short-lived")) ?? "";
    assert.match(row, /\d{4}-\d\d-\d\dT[^ ]+ +-$/, "last used is set, revoked is not");
    assert.ok(!listed.stdout.includes(key), "keys list never shows the secret");
    const id = row.split(/\s+/)[0] as string;
    const revoked = await app.cli(["keys", "revoke", id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    const { status, body } = await app.json("/api/v1/posts", { key });
    assert.equal(status, 401);
    assert.equal(body.error.code, "unauthorized");
  });
});

/** A key made straight in the database (faster than the command line, for many), with its id and secret. */
async function keyInDatabase(scopes = "read,write"): Promise<{ id: string; secret: string }> {
  const secret = `fbk_${randomBytes(32).toString("base64url")}`;
  const id = `key_${randomBytes(8).toString("hex")}`;
  const hash = createHash("sha256").update(secret).digest("hex");
  await sql(app.databaseUrl, `INSERT INTO "ApiKey" ("id", "name", "prefix", "hash", "scopes", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`, [
    id,
    "made by a test",
    secret.slice(0, 12),
    hash,
    scopes,
    storedTime(app.databaseUrl, new Date()),
  ]);
  return { id, secret };
}

// On PostgreSQL a read request with a key the server has seen is not looked up first: its own
// reads say whether the key still stands (lib/auth/key-check.ts). Whatever the request, the
// answer must be the one a lookup first would have given.
describe("a key that changes after the server has seen it", () => {
  const seen = async (secret: string) => {
    for (let i = 0; i < 2; i++) assert.equal((await app.json("/api/v1/posts?limit=1", { key: secret })).status, 200);
  };
  const revoke = (id: string) => sql(app.databaseUrl, `UPDATE "ApiKey" SET "revokedAt" = ? WHERE "id" = ?`, [storedTime(app.databaseUrl, new Date()), id]);
  const firsts: [string, RequestInit?][] = [
    ["/api/v1/posts?search=zzqv"],
    ["/api/v1/posts?search=zzqv%20dark"],
    ["/api/v1/posts?page=999"],
    ["/api/v1/changelogs?labels=nolabel"],
    ["/api/v1/posts?search=dark%20mode&sortBy=top"],
    ["/api/v1/posts?page=2&limit=1"],
    ["/api/v1/changelogs?status=Published"],
    ["/api/v1/changelogs/cl-dark"],
    ["/api/v1/changelogs/cl-nope"],
    ["/api/v1/posts?limit=0"],
    ["/api/v1/posts", { method: "HEAD" }],
  ];
  for (const [path, init] of firsts) {
    it(`revoked: ${init?.method ?? "GET"} ${path} is refused with 401, and so is the next request`, async () => {
      const { id, secret } = await keyInDatabase();
      await seen(secret);
      await revoke(id);
      const res = await app.request(path, { ...init, key: secret });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="feedback"');
      const again = await app.json("/api/v1/changelogs/cl-dark", { key: secret });
      assert.equal(again.status, 401);
      assert.equal(again.body.error.message, "The API key has been revoked.");
    });
  }

  // The same request again: the server may answer it from what it remembers (the search's
  // words, a page's position) with fewer reads, and none of that may skip the key's check.
  it("revoked: a request the server answered just before is refused with 401", async () => {
    for (const path of ["/api/v1/posts?search=zzqv", "/api/v1/posts?search=dark&page=2&limit=1", "/api/v1/changelogs?labels=nolabel"]) {
      const { id, secret } = await keyInDatabase();
      await seen(secret);
      assert.equal((await app.json(path, { key: secret })).status, 200, path);
      await revoke(id);
      const { status, body } = await app.json(path, { key: secret });
      assert.equal(status, 401, path);
      assert.equal(body.error.message, "The API key has been revoked.", path);
    }
  });

  it("gone from the database: 401, the key is not valid", async () => {
    const { id, secret } = await keyInDatabase();
    await seen(secret);
    await sql(app.databaseUrl, `DELETE FROM "ApiKey" WHERE "id" = ?`, [id]);
    const { status, body } = await app.json("/api/v1/changelogs?search=dark", { key: secret });
    assert.equal(status, 401);
    assert.equal(body.error.message, "The API key is not valid.");
  });

  it("its scopes changed: a read-only key made write-only is refused with 403, and one given read back may read", async () => {
    const { id, secret } = await keyInDatabase("read");
    await seen(secret);
    await sql(app.databaseUrl, `UPDATE "ApiKey" SET "scopes" = 'write' WHERE "id" = ?`, [id]);
    const refused = await app.json("/api/v1/changelogs", { key: secret });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, "forbidden");
    await sql(app.databaseUrl, `UPDATE "ApiKey" SET "scopes" = 'read,write' WHERE "id" = ?`, [id]);
    assert.equal((await app.json("/api/v1/changelogs", { key: secret })).status, 200);
  });

  it("unchanged: every read answers as before, with the same rows in the same order", async () => {
    const { secret } = await keyInDatabase("read");
    for (const path of ["/api/v1/posts?sortBy=top&limit=5", "/api/v1/changelogs?limit=3", "/api/v1/posts?search=dark&limit=3"]) {
      const first = await app.json(path, { key: secret });
      const second = await app.json(path, { key: secret });
      assert.equal(first.status, 200, path);
      assert.deepEqual(second.body, first.body, path);
      assert.ok(!JSON.stringify(second.body).includes("keyScopes"), path);
    }
  });
});

describe("conventions of every response", () => {
  it("echoes a sane X-Request-Id and replaces an unsafe one", async () => {
    const echoed = await app.request("/api/v1/posts", { headers: { "x-request-id": "trace-123" } });
    assert.equal(echoed.headers.get("x-request-id"), "trace-123");
    const unsafe = await app.request("/api/v1/posts", { headers: { "x-request-id": "bad id\twith spaces" } });
    assert.notEqual(unsafe.headers.get("x-request-id"), "bad id\twith spaces");
    assert.match(unsafe.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    const error = await app.json("/api/v1/posts?limit=0", { headers: { "x-request-id": "trace-456" } });
    assert.equal(error.body.error.requestId, "trace-456");
  });

  it("answers a JSON 404 for unknown paths under /api/v1", async () => {
    for (const path of ["/api/v1/nowhere", "/api/v1", "/api/v1/posts/p-dark/votes/1", "/api/v1/comments"]) {
      const { status, body, headers } = await app.json(path);
      assert.equal(status, 404, path);
      assert.equal(body.error.code, "not_found", path);
      assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
      assert.ok(headers.get("x-request-id"));
    }
  });

  it("answers a path with broken percent-encoding with a JSON 400, never a 500", async () => {
    for (const path of ["/api/v1/changelogs/%", "/api/v1/changelogs/%E0%A4%A", "/api/v1/comments/%zz"]) {
      const { status, body } = await app.json(path);
      assert.equal(status, 400, path);
      assert.equal(body.error.code, "invalid_request");
      assert.equal((await app.json(path, { key: null })).status, 401, `${path} without a key`);
    }
    const encoded = await app.json("/api/v1/changelogs/%25");
    assert.equal(encoded.status, 404, "an encoded % is an ordinary id");
    const query = await app.json("/api/v1/posts?limit=%");
    assert.equal(query.status, 400);
  });

  const wrongMethods: [string, string, string][] = [
    ["POST", "/api/v1/posts", "GET, HEAD, OPTIONS"],
    ["DELETE", "/api/v1/posts", "GET, HEAD, OPTIONS"],
    ["PUT", "/api/v1/changelogs", "GET, HEAD, OPTIONS"],
    ["PATCH", "/api/v1/changelogs/cl-dark", "GET, HEAD, OPTIONS"],
    ["POST", "/api/v1/comments/c-first", "GET, PUT, HEAD, OPTIONS"],
    ["DELETE", "/api/v1/comments/c-first", "GET, PUT, HEAD, OPTIONS"],
    ["PUT", "/api/v1/comments/c-first/revisions", "GET, HEAD, OPTIONS"],
  ];
  for (const [method, path, allow] of wrongMethods) {
    it(`${method} ${path}: 405 with Allow: ${allow}`, async () => {
      const { status, body, headers } = await app.json(path, { method });
      assert.equal(status, 405);
      assert.equal(body.error.code, "method_not_allowed");
      assert.equal(headers.get("allow"), allow);
    });
  }
});

describe("rate limits", () => {
  it("answers 429 with Retry-After once a key is over its rate, and other keys go on", async () => {
    const limited = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "5" } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await limited.json("/api/v1/posts")).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
      const { body, headers } = await limited.json("/api/v1/posts");
      assert.equal(body.error.code, "rate_limited");
      assert.ok(Number(headers.get("retry-after")) >= 1);
      assert.equal((await limited.json("/api/v1/posts", { key: limited.keys.read })).status, 200);
    } finally {
      await limited.stop();
    }
  });
});
