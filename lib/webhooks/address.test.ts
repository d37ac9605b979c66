import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertPublicHost, isPublicAddress, parseWebhookUrl, WebhookAddressError } from "./address";

const strict = { allowHttp: false, allowPrivate: false };
const local = { allowHttp: true, allowPrivate: false };

describe("webhook addresses", () => {
  it("takes only public unicast addresses", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"]) assert.equal(isPublicAddress(address), true, address);
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "224.0.0.1",
      "not an address",
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });

  it("wants https unless http is allowed, and no credentials", () => {
    assert.equal(parseWebhookUrl("https://hooks.example.com/x", strict).hostname, "hooks.example.com");
    assert.throws(() => parseWebhookUrl("http://hooks.example.com/x", strict), /https/);
    assert.equal(parseWebhookUrl("http://hooks.example.com/x", local).protocol, "http:");
    assert.throws(() => parseWebhookUrl("ftp://hooks.example.com/x", local), WebhookAddressError);
    assert.throws(() => parseWebhookUrl("https://user:pw@hooks.example.com/", strict), /user name or password/);
    assert.throws(() => parseWebhookUrl("not a url", strict), /not a URL/);
  });

  it("refuses loopback, private, link-local and metadata hosts, literal or by name", async () => {
    for (const url of ["http://127.0.0.1:8080/", "http://169.254.169.254/latest/meta-data", "http://[::1]/", "http://10.0.0.5/", "http://localhost/"]) {
      await assert.rejects(assertPublicHost(new URL(url), local), WebhookAddressError, url);
    }
    await assert.doesNotReject(assertPublicHost(new URL("http://127.0.0.1/"), { allowHttp: true, allowPrivate: true }));
    await assert.doesNotReject(assertPublicHost(new URL("https://8.8.8.8/"), strict));
  });
});
