import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { sql } from "../support/sql";

// The dashboard's session: sign in with a key, use the cookie instead of the Bearer header,
// refuse cross-site writes, end on sign-out, on signing in again, when it expires and when the
// key is revoked. Behind a trusted proxy over https the cookie is `__Host-` prefixed.

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

const tokenHash = (pair: string) => createHash("sha256").update(pair.slice(pair.indexOf("=") + 1)).digest("hex");

async function sessionRows(pair: string): Promise<number> {
  const rows = await sql<{ n: number | string }>(app.databaseUrl, `SELECT COUNT(*) AS "n" FROM "Session" WHERE "tokenHash" = ?`, [tokenHash(pair)]);
  return Number(rows[0]?.n);
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

  it("ignores X-Forwarded-Proto without TRUST_PROXY: any client can send it", async () => {
    const { cookie } = await signIn(app.keys.write, { "x-forwarded-proto": "https" });
    assert.match(cookie, /^feedback_session=/);
    assert.doesNotMatch(cookie, /Secure/);
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
    ["another Origin and a matching X-Forwarded-Host", { origin: "https://evil.example", "x-forwarded-host": "evil.example" }],
    ["this host over another scheme", { origin: "https://HOST" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
    ["Origin: null", { origin: "null" }],
  ];
  for (const [name, headers] of crossSite) {
    it(`refuses a session write with ${name}: 403, nothing changed`, async () => {
      const { pair } = await signIn(app.keys.write);
      const before = await app.json("/api/v1/posts/p-dark/comments");
      const origin = headers.origin?.replace("HOST", new URL(app.url).host);
      const res = await app.json("/api/v1/comments/c-first", {
        ...pinBody,
        key: null,
        headers: { ...pinBody.headers, cookie: pair, ...headers, ...(origin ? { origin } : {}) },
      });
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

  it("ends the old session when the browser signs in again", async () => {
    const first = await signIn(app.keys.write);
    const second = await signIn(app.keys.read, { cookie: first.pair });
    assert.equal(second.res.status, 200);
    assert.notEqual(second.pair, first.pair);
    assert.equal((await app.json("/api/session", { key: null, headers: { cookie: first.pair } })).status, 401);
    assert.equal(await sessionRows(first.pair), 0);
    const me = await app.json("/api/session", { key: null, headers: { cookie: second.pair } });
    assert.deepEqual(me.body.data.scopes, ["read"]);
  });

  it("removes expired sessions: refused when presented, deleted at the next sign-in", async () => {
    const { pair } = await signIn(app.keys.write);
    await sql(app.databaseUrl, `UPDATE "Session" SET "expiresAt" = ? WHERE "tokenHash" = ?`, ["2000-01-01T00:00:00.000+00:00", tokenHash(pair)]);
    assert.equal((await app.json("/api/v1/posts", { key: null, headers: { cookie: pair } })).status, 401);
    assert.equal(await sessionRows(pair), 1);
    await signIn(app.keys.write);
    assert.equal(await sessionRows(pair), 0);
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

describe("behind a trusted proxy (TRUST_PROXY=true)", () => {
  let proxied: TestApp;
  before(async () => {
    proxied = await startApp({ dataset, env: { TRUST_PROXY: "true" } });
  });
  after(async () => {
    await proxied?.stop();
  });

  const https = { "x-forwarded-proto": "https", "x-forwarded-host": "feedback.example" };
  const signInVia = (headers: Record<string, string>) =>
    proxied.request("/api/session", {
      method: "POST",
      key: null,
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ key: proxied.keys.write }),
    });
  const pairOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const tokenOf = (pair: string) => pair.slice(pair.indexOf("=") + 1);

  it("names the cookie __Host-feedback_session over https: Secure, Path=/, no Domain", async () => {
    const res = await signInVia({ ...https, origin: "https://feedback.example" });
    assert.equal(res.status, 200);
    const cookie = res.headers.get("set-cookie") ?? "";
    assert.match(cookie, /^__Host-feedback_session=[A-Za-z0-9_-]{40,}; Path=\/; HttpOnly; SameSite=Lax; Secure; Expires=/);
    assert.doesNotMatch(cookie, /Domain=/i);
  });

  it("reads only the name the request's scheme calls for", async () => {
    const token = tokenOf(pairOf(await signInVia(https)));
    const me = (headers: Record<string, string>) => proxied.json("/api/session", { key: null, headers });
    assert.equal((await me({ ...https, cookie: `__Host-feedback_session=${token}` })).status, 200);
    // Over https a cookie without the prefix may have been planted by a sibling or an http page.
    assert.equal((await me({ ...https, cookie: `feedback_session=${token}` })).status, 401);
    assert.equal((await me({ cookie: `__Host-feedback_session=${token}` })).status, 401);
  });

  it("keeps the plain name over http", async () => {
    const res = await signInVia({});
    assert.match(res.headers.get("set-cookie") ?? "", /^feedback_session=/);
    assert.doesNotMatch(res.headers.get("set-cookie") ?? "", /Secure/);
  });

  it("compares the Origin with the forwarded scheme and host", async () => {
    const cookie = `__Host-feedback_session=${tokenOf(pairOf(await signInVia(https)))}`;
    const pin = (origin: string) =>
      proxied.json("/api/v1/comments/c-csv", { ...pinBody, key: null, headers: { ...pinBody.headers, ...https, cookie, origin } });
    assert.equal((await pin("https://feedback.example")).status, 200);
    assert.equal((await pin("http://feedback.example")).status, 403);
    assert.equal((await pin("https://evil.example")).status, 403);
    assert.equal((await pin(new URL(proxied.url).origin)).status, 403);
  });

  it("signs out over https by clearing the __Host- cookie", async () => {
    const pair = pairOf(await signInVia(https));
    const out = await proxied.request("/api/session", { method: "DELETE", key: null, headers: { ...https, cookie: pair } });
    assert.equal(out.status, 204);
    assert.match(out.headers.get("set-cookie") ?? "", /^__Host-feedback_session=; Path=\/; .*Secure; Max-Age=0/);
    assert.equal((await proxied.json("/api/session", { key: null, headers: { ...https, cookie: pair } })).status, 401);
  });
});
