import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { generateSecret } from "./secret";
import { webhookHeaders } from "./sign";

// Our signatures checked by the Standard Webhooks reference implementation, written by others.

describe("Standard Webhooks signatures", () => {
  const body = JSON.stringify({ type: "comment.updated", timestamp: new Date().toISOString(), data: { n: "✓" } });

  it("a secret is whsec_ and the base64 of 32 random bytes", () => {
    const secret = generateSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice(6), "base64").length, 32);
    assert.notEqual(generateSecret(), secret);
  });

  it("verifies with the reference library, and fails with another secret or another body", () => {
    const secret = generateSecret();
    const headers = webhookHeaders([secret], "msg_1", new Date(), body);
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(generateSecret()).verify(body, headers));
    assert.throws(() => new Webhook(secret).verify(`${body} `, headers));
  });

  it("during a rotation both secrets sign, and either one verifies", () => {
    const [old, fresh] = [generateSecret(), generateSecret()];
    const headers = webhookHeaders([fresh, old], "msg_2", new Date(), body);
    assert.equal(headers["webhook-signature"]?.split(" ").length, 2);
    assert.doesNotThrow(() => new Webhook(old).verify(body, headers));
    assert.doesNotThrow(() => new Webhook(fresh).verify(body, headers));
  });
});
