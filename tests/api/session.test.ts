import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";

// The dashboard's session: sign in with a key, use the cookie instead of the Bearer header,
// refuse cross-site writes, end on sign-out and when the key is revoked.

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});

async function signIn(key: string, headers: Record<string, string> = {}) {
  const res = await app.request("/api/session", {
    method: "POST",
    key: null,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ key }),
  });
  const cookie = res.headers.get("set-cookie") ?? "";
  return { res, cookie, pair: cookie.split(";")[0] ?? "" };
}

const pinBody = { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ pinComment: true }) };

describe("dashboard sessions", () => {
  it("signs in with a key: an httpOnly, SameSite=Lax cookie, not Secure over http", async () => {
    const { res, cookie } = await signIn(app.keys.write);
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).data, { keyName: "test-write", scopes: ["read", "write"] });
    assert.match(cookie, /^feedback_session=[A-Za-z0-9_-]{40,};/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\//);
    assert.doesNotMatch(cookie, /Secure/);
  });

  it("marks the cookie Secure behind https", async () => {
    const { cookie } = await signIn(app.keys.write, { "x-forwarded-proto": "https" });
    assert.match(cookie, /; Secure/);
  });

  const wrong: [string, unknown][] = [
    ["an unknown key", { key: `fbk_${"A".repeat(43)}` }],
    ["not a key", { key: "hello" }],
    ["an empty key", { key: "" }],
    ["no body", undefined],
  ];
  for (const [name, body] of wrong) {
    it(`refuses ${name}, setting no cookie`, async () => {
      const res = await app.request("/api/session", {
        method: "POST",
        key: null,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.ok(res.status === 401 || res.status === 400, String(res.status));
      assert.equal(res.headers.get("set-cookie"), null);
      assert.ok((await res.json()).error.message);
    });
  }

  it("lets the cookie stand in for the Bearer header, for reads and same-origin writes", async () => {
    const { pair } = await signIn(app.keys.write);
    const me = await app.json("/api/session", { key: null, headers: { cookie: pair } });
    assert.deepEqual(me.body.data, { keyName: "test-write", scopes: ["read", "write"], via: "session" });
    assert.equal((await app.json("/api/v1/posts", { key: null, headers: { cookie: pair } })).status, 200);
    const write = await app.json("/api/v1/comments/c-csv", {
      ...pinBody,
      key: null,
      headers: { ...pinBody.headers, cookie: pair, origin: app.url, "sec-fetch-site": "same-origin" },
    });
    assert.equal(write.status, 200, JSON.stringify(write.body));
  });

  const crossSite: [string, Record<string, string>][] = [
    ["another Origin", { origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
    ["Origin: null", { origin: "null" }],
  ];
  for (const [name, headers] of crossSite) {
    it(`refuses a session write with ${name}: 403, nothing changed`, async () => {
      const { pair } = await signIn(app.keys.write);
      const before = await app.json("/api/v1/posts/p-dark/comments");
      const res = await app.json("/api/v1/comments/c-first", { ...pinBody, key: null, headers: { ...pinBody.headers, cookie: pair, ...headers } });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, "forbidden");
      assert.deepEqual((await app.json("/api/v1/posts/p-dark/comments")).body, before.body);
    });
  }

  it("refuses a cross-site sign-in", async () => {
    const { res, cookie } = await signIn(app.keys.write, { origin: "https://evil.example" });
    assert.equal(res.status, 403);
    assert.equal(cookie, "");
  });

  it("gives a read-only session no writes", async () => {
    const { pair } = await signIn(app.keys.read);
    const me = await app.json("/api/session", { key: null, headers: { cookie: pair } });
    assert.deepEqual(me.body.data.scopes, ["read"]);
    const res = await app.json("/api/v1/comments/c-first", { ...pinBody, key: null, headers: { ...pinBody.headers, cookie: pair } });
    assert.equal(res.status, 403);
  });

  it("ends on sign-out: the cookie is cleared and no longer works", async () => {
    const { pair } = await signIn(app.keys.write);
    const out = await app.request("/api/session", { method: "DELETE", key: null, headers: { cookie: pair } });
    assert.equal(out.status, 204);
    assert.match(out.headers.get("set-cookie") ?? "", /^feedback_session=; .*Max-Age=0/);
    assert.equal((await app.json("/api/v1/posts", { key: null, headers: { cookie: pair } })).status, 401);
  });

  it("ends when its key is revoked", async () => {
    const created = await app.cli(["keys", "create", "--name", "to-revoke"]);
    const { pair } = await signIn(created.stdout.trim());
    assert.equal((await app.json("/api/v1/posts", { key: null, headers: { cookie: pair } })).status, 200);
    const listed = await app.cli(["keys", "list"]);
    const id = listed.stdout.split("\n").find((line) => line.includes("to-revoke"))?.split(/\s+/)[0] ?? "";
    assert.equal((await app.cli(["keys", "revoke", id])).code, 0);
    assert.equal((await app.json("/api/v1/posts", { key: null, headers: { cookie: pair } })).status, 401);
  });

  it("redirects pages to /login without a session, and /login to /posts with one", async () => {
    for (const path of ["/", "/posts", "/posts/p-dark", "/changelogs", "/changelogs/cl-dark", "/api-docs"]) {
      const res = await app.request(path, { key: null, redirect: "manual" });
      assert.ok([302, 303, 307, 308].includes(res.status), `${path}: ${res.status}`);
      assert.match(res.headers.get("location") ?? "", /\/login$/, path);
    }
    const { pair } = await signIn(app.keys.read);
    const res = await app.request("/login", { key: null, redirect: "manual", headers: { cookie: pair } });
    assert.match(res.headers.get("location") ?? "", /\/posts$/);
  });
});

describe("signing in without script (a plain form post)", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    app.request("/api/session", {
      method: "POST",
      key: null,
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body,
    });

  it("redirects to /posts with the session cookie", async () => {
    const res = await post(`key=${encodeURIComponent(app.keys.read)}`);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/posts");
    const pair = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    assert.equal((await app.json("/api/v1/posts", { key: null, headers: { cookie: pair } })).status, 200);
  });

  const refused: [string, string, string][] = [
    ["a wrong key", `key=fbk_${"B".repeat(43)}`, "/login?error=invalid"],
    ["no key", "key=", "/login?error=missing"],
  ];
  for (const [name, body, location] of refused) {
    it(`sends ${name} back to the sign-in page, with no cookie`, async () => {
      const res = await post(body);
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), location);
      assert.equal(res.headers.get("set-cookie"), null);
    });
  }

  it("refuses a cross-site form post with 403", async () => {
    const res = await post(`key=${encodeURIComponent(app.keys.read)}`, { origin: "https://evil.example" });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get("set-cookie"), null);
  });
});
