import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { postWebhook, RESPONSE_BODY_LIMIT, USER_AGENT } from "./send";

// One POST against a real server in this process: what is sent, what is kept of the answer,
// and each way it can fail.

const allow = { allowHttp: true, allowPrivate: true };
const received: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
let server: http.Server;
let base: string;

before(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === "/hang") return;
      if (req.url === "/hang-body") return res.writeHead(200).write("the start of an answer");
      if (req.url === "/redirect") return res.writeHead(302, { location: "/ok" }).end();
      if (req.url === "/long") return res.writeHead(200).end("x".repeat(10 * RESPONSE_BODY_LIMIT));
      if (req.url === "/nul") return res.writeHead(500).end("bad\0byte");
      res.writeHead(200).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

describe("posting a webhook", () => {
  it("sends the body byte for byte as JSON with the given headers and our user agent", async () => {
    const body = JSON.stringify({ text: "é ✓ \u2028" });
    const result = await postWebhook(new URL(`${base}/ok`), { "webhook-id": "msg_1" }, body, { timeoutMs: 2000, policy: allow });
    assert.deepEqual([result.statusCode, result.responseBody, result.error], [200, "thanks", null]);
    const last = received.at(-1);
    assert.equal(last?.method, "POST");
    assert.equal(last?.body, body);
    assert.equal(last?.headers["content-type"], "application/json");
    assert.equal(last?.headers["content-length"], String(Buffer.byteLength(body)));
    assert.equal(last?.headers["user-agent"], USER_AGENT);
    assert.equal(last?.headers["webhook-id"], "msg_1");
  });

  it("follows no redirect: a 302 is the answer", async () => {
    const count = received.length;
    const result = await postWebhook(new URL(`${base}/redirect`), {}, "{}", { timeoutMs: 2000, policy: allow });
    assert.equal(result.statusCode, 302);
    assert.equal(received.length, count + 1, "nothing was sent to the Location");
  });

  it("keeps the first 2 KB of a long answer, and NUL as U+FFFD", async () => {
    const long = await postWebhook(new URL(`${base}/long`), {}, "{}", { timeoutMs: 2000, policy: allow });
    assert.equal(long.responseBody?.length, RESPONSE_BODY_LIMIT);
    const nul = await postWebhook(new URL(`${base}/nul`), {}, "{}", { timeoutMs: 2000, policy: allow });
    assert.deepEqual([nul.statusCode, nul.responseBody], [500, "bad\uFFFDbyte"]);
  });

  // Were the deadline not kept, these would wait for ever (the runner has no timeout of its
  // own): each has one, so it fails instead of hanging the suite.
  it("cuts a receiver that does not answer at the timeout", { timeout: 5000 }, async () => {
    const result = await postWebhook(new URL(`${base}/hang`), {}, "{}", { timeoutMs: 300, policy: allow });
    assert.equal(result.statusCode, null);
    assert.equal(result.error, "timed out after 300 ms");
    assert.ok(result.durationMs >= 290 && result.durationMs < 2000, `${result.durationMs} ms`);
  });

  it("cuts an answer whose body stops coming at the timeout", { timeout: 5000 }, async () => {
    const result = await postWebhook(new URL(`${base}/hang-body`), {}, "{}", { timeoutMs: 300, policy: allow });
    assert.deepEqual([result.statusCode, result.error], [null, "timed out after 300 ms"]);
    assert.ok(result.durationMs >= 290 && result.durationMs < 2000, `${result.durationMs} ms`);
  });

  it("keeps its connection to a receiver open across deliveries", async () => {
    const ports = new Set<number | undefined>();
    const own = http.createServer((req, res) => {
      ports.add(req.socket.remotePort);
      req.resume().on("end", () => res.writeHead(200).end("ok"));
    });
    await new Promise<void>((resolve) => own.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(own.address() as AddressInfo).port}/`);
    try {
      for (let i = 0; i < 6; i++) await postWebhook(url, {}, "{}", { timeoutMs: 2000, policy: allow });
    } finally {
      own.closeAllConnections();
      own.close();
    }
    assert.equal(ports.size, 1, `six POSTs one after the other came over ${ports.size} connections`);
  });

  it("refuses a private address, literal or by name, without connecting", async () => {
    const count = received.length;
    const strict = { allowHttp: true, allowPrivate: false };
    const literal = await postWebhook(new URL(`${base}/ok`), {}, "{}", { timeoutMs: 2000, policy: strict });
    assert.equal(literal.statusCode, null);
    assert.match(literal.error ?? "", /^refused: 127\.0\.0\.1 is a loopback address/);
    const port = new URL(base).port;
    const named = await postWebhook(new URL(`http://localhost:${port}/ok`), {}, "{}", { timeoutMs: 2000, policy: strict });
    assert.equal(named.statusCode, null);
    assert.match(named.error ?? "", /^refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/);
    assert.equal(received.length, count, "no request reached the server");
  });

  it("a connection refused is an error, not an exception", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await postWebhook(new URL(`http://127.0.0.1:${port}/`), {}, "{}", { timeoutMs: 2000, policy: allow });
    assert.equal(result.statusCode, null);
    assert.match(result.error ?? "", /ECONNREFUSED/);
  });
});
