import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";

// Contract section 6, "Caching and headers": what every API response and every page carries,
// over real HTTP. Also the pages' answers to broken paths and to a database that does not
// answer.

let app: TestApp;
let cookie: string;
before(async () => {
  app = await startApp({ dataset });
  const res = await app.request("/api/session", {
    method: "POST",
    key: null,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: app.keys.write }),
  });
  cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
});
after(async () => {
  await app?.stop();
});

function assertApiHeaders(res: Response, what: string) {
  assert.equal(res.headers.get("cache-control"), "no-store", what);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff", what);
  // The page proxy never ran: API requests do not pay for it.
  assert.equal(res.headers.get("content-security-policy"), null, what);
}

describe("API responses", () => {
  const cases: [string, string, RequestInit & { key?: string | null }, number][] = [
    ["a list", "/api/v1/posts", {}, 200],
    ["one record", "/api/v1/changelogs/cl-dark", {}, 200],
    ["the OpenAPI document", "/api/v1/openapi.json", { key: null }, 200],
    ["a missing key", "/api/v1/posts", { key: null }, 401],
    ["an unknown path", "/api/v1/nothing-here", {}, 404],
    ["a wrong method", "/api/v1/posts", { method: "DELETE" }, 405],
    ["OPTIONS", "/api/v1/posts", { method: "OPTIONS" }, 204],
    ["broken percent-encoding", "/api/v1/changelogs/%", {}, 400],
    ["a bad parameter", "/api/v1/posts?limit=0", {}, 400],
    ["the session, signed out", "/api/session", { key: null }, 401],
    ["health", "/api/health", { key: null }, 200],
  ];
  for (const [name, pathname, init, status] of cases) {
    it(`${name}: no-store and nosniff`, async () => {
      const res = await app.request(pathname, init);
      assert.equal(res.status, status);
      assertApiHeaders(res, pathname);
    });
  }

  it("a sign-in form post's redirect: no-store and nosniff", async () => {
    const res = await app.request("/api/session", {
      method: "POST",
      key: null,
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "key=",
    });
    assert.equal(res.status, 303);
    assertApiHeaders(res, "POST /api/session");
  });
});

function directives(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = "", ...values] = d.split(/\s+/);
        return [name, values.join(" ")];
      }),
  );
}

async function assertPage(pathname: string, status: number, headers: Record<string, string> = {}): Promise<{ html: string; nonce: string; res: Response }> {
  const res = await app.request(pathname, { key: null, redirect: "manual", headers: { cookie, ...headers } });
  assert.equal(res.status, status, pathname);
  const policy = directives(res.headers.get("content-security-policy") ?? "");
  const script = policy.get("script-src") ?? "";
  const nonce = /'nonce-([A-Za-z0-9+/=]{16,})'/.exec(script)?.[1] ?? "";
  assert.ok(nonce, `${pathname}: script-src has a nonce: ${script}`);
  assert.doesNotMatch(script, /unsafe-inline|unsafe-eval/, pathname);
  assert.equal(policy.get("frame-ancestors"), "'none'", pathname);
  assert.equal(policy.get("object-src"), "'none'", pathname);
  assert.equal(policy.get("base-uri"), "'none'", pathname);
  assert.equal(policy.get("img-src"), "'self'", pathname);
  assert.equal(policy.get("default-src"), "'self'", pathname);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff", pathname);
  assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin", pathname);
  assert.equal(res.headers.get("x-frame-options"), "DENY", pathname);
  assert.match(res.headers.get("cache-control") ?? "", /no-store/, pathname);
  return { html: await res.text(), nonce, res };
}

describe("pages", () => {
  const pages = ["/posts", "/posts/p-dark", "/changelogs", "/changelogs/cl-dark", "/api-docs"];
  for (const pathname of pages) {
    it(`${pathname}: a nonce CSP, on every script the page has`, async () => {
      const { html, nonce } = await assertPage(pathname, 200);
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      assert.ok(scripts.length > 0, pathname);
      for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `${pathname}: ${tag}`);
    });
  }

  it("/login, signed out, and the redirect of a signed-out page carry the headers too", async () => {
    await assertPage("/login", 200, { cookie: "" });
    const { res } = await assertPage("/posts", 307, { cookie: "" });
    assert.match(res.headers.get("location") ?? "", /\/login$/);
  });

  it("gives every response its own nonce", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) nonces.add((await assertPage("/posts", 200)).nonce);
    assert.equal(nonces.size, 3);
  });

  it("sends no HSTS over http, and believes no X-Forwarded-Proto without TRUST_PROXY", async () => {
    for (const headers of [{}, { "x-forwarded-proto": "https" }] as Record<string, string>[]) {
      const { res } = await assertPage("/posts", 200, headers);
      assert.equal(res.headers.get("strict-transport-security"), null);
      assert.doesNotMatch(res.headers.get("content-security-policy") ?? "", /upgrade-insecure-requests/);
    }
  });

  const broken = ["/posts/%", "/changelogs/%zz", "/posts/%E0%A4%A", "/no-such-page"];
  for (const pathname of broken) {
    for (const signedIn of [true, false]) {
      it(`${pathname}${signedIn ? "" : ", signed out"}: the app's not-found page, never a 500`, async () => {
        const { html } = await assertPage(pathname, 404, signedIn ? {} : { cookie: "" });
        assert.match(html, /<h1>This page does not exist\.<\/h1>/);
        assert.match(html, /href="\/posts"/);
      });
    }
  }
});

describe("behind a trusted proxy (TRUST_PROXY=true)", () => {
  let proxied: TestApp;
  before(async () => {
    proxied = await startApp({ dataset, env: { TRUST_PROXY: "true" } });
  });
  after(async () => {
    await proxied?.stop();
  });

  it("sends HSTS and upgrade-insecure-requests when the request came over https, and only then", async () => {
    const https = await proxied.request("/login", { key: null, headers: { "x-forwarded-proto": "https" } });
    assert.equal(https.status, 200);
    assert.equal(https.headers.get("strict-transport-security"), "max-age=31536000");
    assert.match(https.headers.get("content-security-policy") ?? "", /upgrade-insecure-requests/);
    const http = await proxied.request("/login", { key: null });
    assert.equal(http.headers.get("strict-transport-security"), null);
    assert.doesNotMatch(http.headers.get("content-security-policy") ?? "", /upgrade-insecure-requests/);
  });
});

describe("when the database does not answer", () => {
  // The app is pointed at a database it cannot reach: on SQLite a file in a folder that does
  // not exist (the server never creates it, so every query fails, as with a lost disk); on
  // PostgreSQL a port where nothing listens (connections are refused at once, as with a
  // stopped server). The server itself starts: it does not touch the database until asked.
  // The page cannot tell whether the cookie's session exists, which is the point: it must say
  // so, not send the moderator to the sign-in page.
  let down: TestApp;
  before(async () => {
    const unreachable =
      app.engine === "sqlite"
        ? `file:${path.join(os.tmpdir(), `feedback-missing-${process.pid}`, "nowhere", "feedback.db")}`
        : "postgresql://feedback:feedback@127.0.0.1:1/feedback_unreachable";
    down = await startApp({ env: { DATABASE_URL: unreachable } });
  });
  after(async () => {
    await down?.stop();
  });

  const session = { cookie: "feedback_session=a-session-the-page-cannot-check-now" };

  for (const pathname of ["/posts", "/posts/p-dark", "/changelogs"]) {
    it(`${pathname} with a session cookie: an error with Retry, not a redirect to /login`, async () => {
      const res = await down.request(pathname, { key: null, redirect: "manual", headers: session });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /role="alert"/);
      assert.match(html, /<h1 id="unavailable-heading">The dashboard could not be loaded<\/h1>/);
      assert.match(html, /<button type="button" class="button">Retry<\/button>/);
      assert.doesNotMatch(html, /API key/);
    });
  }

  it("/ with a session cookie goes to /posts (which explains), not to /login", async () => {
    const res = await down.request("/", { key: null, redirect: "manual", headers: session });
    assert.match(res.headers.get("location") ?? "", /\/posts$/);
  });

  it("without a cookie still sends the browser to /login: there is nothing to check", async () => {
    const res = await down.request("/posts", { key: null, redirect: "manual" });
    assert.match(res.headers.get("location") ?? "", /\/login$/);
  });
});
