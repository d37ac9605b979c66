import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { contentSecurityPolicy, pageHeaders } from "./page-headers";

describe("contentSecurityPolicy", () => {
  it("allows scripts by nonce only in production", () => {
    const policy = contentSecurityPolicy("abc123", { https: false, development: false });
    assert.match(policy, /script-src 'self' 'nonce-abc123' 'strict-dynamic';/);
    assert.doesNotMatch(policy, /script-src[^;]*unsafe/);
    assert.match(policy, /style-src 'self' 'nonce-abc123';/);
    assert.doesNotMatch(policy, /upgrade-insecure-requests/);
  });

  it("adds what development needs, and upgrade-insecure-requests over https", () => {
    const policy = contentSecurityPolicy("n", { https: true, development: true });
    assert.match(policy, /script-src [^;]*'unsafe-eval'/);
    assert.match(policy, /style-src 'self' 'unsafe-inline';/);
    assert.match(policy, /; upgrade-insecure-requests$/);
  });
});

describe("pageHeaders", () => {
  it("sends HSTS over https only", () => {
    assert.equal(pageHeaders("p", { https: true })["Strict-Transport-Security"], "max-age=31536000");
    assert.equal(pageHeaders("p", { https: false })["Strict-Transport-Security"], undefined);
    assert.deepEqual(pageHeaders("p", { https: false }), {
      "Content-Security-Policy": "p",
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
  });
});
