import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import { EVENT_LOOP_HELD } from "../../lib/event-loop";
import { logLines, startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { assertNoSecrets } from "../support/log-secrets";

// LOG_FORMAT=json: one JSON line per /api/v1 request, whichever way the request ends (a handler,
// a refusal before it, the catch-all 404, the proxy's 400), with the key's id and never the key.

let app: TestApp;
let keyIds: { write: string; read: string };
let cookie: string;

before(async () => {
  // A threshold of 1 ms: the event-loop warning then comes within a second or two of any work.
  app = await startApp({ dataset, env: { LOG_FORMAT: "json", LOG_LEVEL: "info", EVENT_LOOP_WARN_MS: "1" } });
  const listed = await app.cli(["keys", "list"]);
  const idOf = (name: string) => listed.stdout.split("\n").find((line) => line.split(/\s+/)[1] === name)?.split(/\s+/)[0] ?? "";
  keyIds = { write: idOf("test-write"), read: idOf("test-read") };
  assert.match(keyIds.write, /^key_/);
  const signIn = await app.request("/api/session", {
    method: "POST",
    key: null,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: app.keys.write }),
  });
  cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  assert.match(cookie, /^feedback_session=.{20,}/);
});
after(async () => {
  await app?.stop();
});

type LogRecord = Record<string, unknown>;

function records(): LogRecord[] {
  return app
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogRecord);
}

/** The request records for one request id, once the server's line has arrived. */
async function recordsFor(requestId: string): Promise<LogRecord[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = records().filter((r) => r.msg === "request" && r.requestId === requestId);
    if (found.length || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("request log (LOG_FORMAT=json)", () => {
  const cases: { name: string; path: string; init: RequestInit & { key?: string | null }; status: number; key?: "write" | "read" }[] = [
    { name: "a list with a search", path: "/api/v1/posts?search=dark%20mode&limit=2", init: {}, status: 200, key: "write" },
    { name: "a missing key", path: "/api/v1/posts", init: { key: null }, status: 401 },
    { name: "a read key on a write", path: "/api/v1/comments/c-first", init: { method: "PUT", headers: { "content-type": "application/json" }, body: '{"pinComment":true}' }, status: 403, key: "read" },
    { name: "an unknown path", path: "/api/v1/nothing-here", init: {}, status: 404, key: "write" },
    { name: "a method the path does not allow", path: "/api/v1/posts", init: { method: "DELETE" }, status: 405, key: "write" },
    { name: "broken percent-encoding (the proxy)", path: "/api/v1/changelogs/%", init: {}, status: 400, key: "write" },
    { name: "the session cookie", path: "/api/v1/boards", init: { key: null }, status: 200, key: "write" },
    { name: "OPTIONS", path: "/api/v1/posts", init: { method: "OPTIONS", key: null }, status: 204 },
  ];
  for (const [i, c] of cases.entries()) {
    it(`logs ${c.name} as one line with every field, and the key's id only`, async () => {
      const requestId = `log-test-${i}`;
      const headers = new Headers(c.init.headers);
      headers.set("x-request-id", requestId);
      if (c.name === "the session cookie") headers.set("cookie", cookie);
      const key = c.key === "read" ? app.keys.read : c.init.key;
      const res = await app.request(c.path, { ...c.init, key, headers });
      assert.equal(res.status, c.status);
      await res.arrayBuffer();

      const found = await recordsFor(requestId);
      assert.equal(found.length, 1, `one line for ${requestId}, got ${found.length}`);
      const record = found[0] as LogRecord;
      assert.equal(record.level, "info");
      assert.ok(!Number.isNaN(Date.parse(record.time as string)), `time: ${record.time}`);
      assert.equal(record.method, c.init.method ?? "GET");
      assert.equal(record.path, c.path.split("?")[0]);
      assert.equal(record.status, c.status);
      assert.equal(typeof record.durationMs, "number");
      assert.ok((record.durationMs as number) >= 0 && (record.durationMs as number) < 60_000);
      assert.equal(record.keyId, c.key ? keyIds[c.key] : undefined);
    });
  }

  it("gives a request without a sane id the id its response carries", async () => {
    const res = await app.request("/api/v1/statuses", { headers: { "x-request-id": "not sane \u00e9" } });
    const requestId = res.headers.get("x-request-id") ?? "";
    assert.notEqual(requestId, "");
    assert.equal((await recordsFor(requestId)).length, 1);
  });

  it("writes nothing but one-line JSON objects, and never a key, a cookie or an Authorization value", () => {
    const lines = app.output().split("\n").filter((line) => line.startsWith("{"));
    assert.ok(lines.length >= cases.length, `${lines.length} JSON lines`);
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), line);
    const all = lines.join("\n");
    assert.doesNotMatch(all, /fbk_|Bearer|authorization|feedback_session/i);
    assert.ok(!all.includes(cookie.split("=")[1] as string));
  });

  it("the harness's check finds a key or a cookie value in a log line", () => {
    const line = (s: string) => `{"level":"info","msg":"request","note":"${s}"}\n`;
    assert.throws(() => assertNoSecrets(line("Bearer fbk_abc"), []), /logged a secret on 1 line/);
    assert.throws(() => assertNoSecrets(line("sessionvalue-0123456789"), ["sessionvalue-0123456789"]), /logged a secret/);
    assert.doesNotThrow(() => assertNoSecrets(line("nothing to see"), ["sessionvalue-0123456789"]));
  });
});

describe("the event-loop warning (EVENT_LOOP_WARN_MS)", () => {
  it("says how long the serving process's loop was held, past the threshold, and which process it was", async () => {
    const deadline = Date.now() + 10_000;
    while (!logLines(app, EVENT_LOOP_HELD).length && Date.now() < deadline) {
      assert.equal((await app.request("/api/v1/posts?search=dark")).status, 200);
      await new Promise((r) => setTimeout(r, 200));
    }
    const [line] = logLines(app, EVENT_LOOP_HELD);
    assert.ok(line, "a warning within 10 s");
    assert.equal(line.level, "warn");
    assert.equal(line.thresholdMs, 1);
    assert.ok(Number.isInteger(line.longestMs) && (line.longestMs as number) >= 1, JSON.stringify(line));
    assert.equal(line.pid, app.server.pid);
  });
});

describe("a client that goes away mid-body", () => {
  it("is logged as a cut-off request, never as the database being unavailable", async () => {
    const { port, hostname } = new URL(app.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      [
        "PUT /api/v1/comments/c-first HTTP/1.1",
        `Host: ${hostname}:${port}`,
        `Authorization: Bearer ${app.keys.write}`,
        "Content-Type: application/json",
        "Content-Length: 100",
        "",
        '{"pinComment":',
      ].join("\r\n"),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    const deadline = Date.now() + 5000;
    let line: LogRecord | undefined;
    while (!line && Date.now() < deadline) {
      line = records().find((r) => r.msg === "request" && r.method === "PUT" && r.status === 400);
      if (!line) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(line, "the cut-off PUT has its request line, a 400");
    assert.doesNotMatch(app.output(), /database is unavailable/);
  });
});
